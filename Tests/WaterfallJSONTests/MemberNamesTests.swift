import Testing
@_spi(Package) import WaterfallJSON

/// A reader names its members once; the cursor and the tape walk match keys against those names.
@Suite struct MemberNamesTests {
    enum Member: Equatable { case a, bc }
    static let names = MemberNames<Member>(["a": .a, "bc": .bc])

    /// The members a one-pass read of `text` saw, in order; nil when it refused the object.
    static func read(_ text: String) -> [Member]? {
        var seen: [Member] = []
        let bytes = Array(text.utf8)
        let read = bytes.withUnsafeBufferPointer { buffer in
            var c = JSONCursor(buffer)
            return c.object(names) { member, c in
                seen.append(member)
                return c.integer() != nil
            }
        }
        return read ? seen : nil
    }

    @Test(arguments: [
        (#"{"a":1,"bc":2}"#, [Member.a, .bc]),
        (#"{"bc":2,"a":1}"#, [.bc, .a]),
        (#"{"bc":2}"#, [.bc]),
    ])
    func theCursorReadsEachNamedMember(_ text: String, _ members: [Member]) {
        #expect(Self.read(text) == members)
    }

    @Test(arguments: [#"{"a":1,"a":2}"#, #"{"b":1}"#, #"{"abc":1}"#, #"{"a":"x"}"#, "[1]"])
    func theCursorRefusesAnotherNameARepeatOrABadValue(_ text: String) {
        #expect(Self.read(text) == nil)
    }

    @Test func theTapeWalkSkipsOtherNames() throws {
        let document = try JSONDocument(parsing: #"{"z":0,"bc":[1],"a":2}"#)
        var seen: [(Member, Int?)] = []
        document.root.withView { view in
            view.members(Self.names) { member, value in seen.append((member, value.int)) }
        }
        #expect(seen.map(\.0) == [.bc, .a] && seen.map(\.1) == [nil, 2])
    }
}
