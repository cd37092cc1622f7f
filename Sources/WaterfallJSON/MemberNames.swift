/// The members a reader of one object shape knows, by name: the one place where a key's bytes are matched, for the
/// one-pass readers (`JSONCursor.object(names) { member, cursor in … }`) and for walks over an object on a tape
/// (`JSONView.members(names) { member, value in … }`).
///
/// A reader switches over its own `Member` enumeration instead of comparing each key with each name in turn.
@usableFromInline
package struct MemberNames<Member>: @unchecked Sendable {
    /// The names in the order given, their member beside them. `@unchecked`: `StaticString` and a member
    /// enumeration without payloads are plain values.
    @usableFromInline let entries: [(name: StaticString, member: Member)]

    /// The names and their members; at most 64, each name once.
    package init(_ entries: KeyValuePairs<StaticString, Member>) {
        precondition(entries.count <= 64, "at most 64 member names")
        self.entries = entries.map { ($0.key, $0.value) }
    }

    /// The position and member of the name whose bytes `key` are; nil for any other name.
    @inlinable
    package func find(_ key: UnsafeBufferPointer<UInt8>) -> (index: Int, member: Member)? {
        var k = 0
        while k < entries.count {
            if JSONCursor.bytes(key, are: entries[k].name) { return (k, entries[k].member) }
            k &+= 1
        }
        return nil
    }

    /// The position and member of the name `key` (an object's key on a tape) is; nil for any other name.
    @inlinable
    package func find(_ key: JSONView) -> (index: Int, member: Member)? {
        var k = 0
        while k < entries.count {
            if key.isEqual(toKey: entries[k].name) { return (k, entries[k].member) }
            k &+= 1
        }
        return nil
    }
}

extension JSONCursor {
    /// Reads an object whose members are all among `names`, each at most once, calling `member` with each one's
    /// member and the cursor after its colon; false for another name, a repeated one (the general reader says
    /// what that is), when `member` refuses a value, or when the bytes are not an object.
    @inlinable
    package mutating func object<Member>(
        _ names: MemberNames<Member>, _ member: (Member, inout JSONCursor) -> Bool
    ) -> Bool {
        var seen: UInt64 = 0
        return object { key, c in
            guard let (index, named) = names.find(key), seen & (1 &<< index) == 0 else { return false }
            seen |= 1 &<< index
            return member(named, &c)
        }
    }
}

extension JSONView {
    /// Calls `body` with each member of this object whose name is among `names`, and its value, in order; the
    /// others are skipped.
    @inlinable
    package func members<Member>(_ names: MemberNames<Member>, _ body: (Member, JSONView) -> Void) {
        for (key, value) in members {
            if let (_, member) = names.find(key) { body(member, value) }
        }
    }
}
