// MARK: Keys and members

extension JSONNode {
    /// Whether this is a string equal to `key`, compared on the raw bytes without allocating when the
    /// string has no escapes. `key` must be plain: no quote, backslash or control character.
    @inlinable
    package func isEqual(toKey key: StaticString) -> Bool {
        withView { $0.isEqual(toKey: key) }
    }

    /// Whether this is a string whose decoded value equals `text`.
    package func isEqual(to text: String) -> Bool {
        var text = text
        return text.withUTF8 { isEqual(toBytes: $0.baseAddress ?? UnsafePointer(storage.bytes), count: $0.count) }
    }

    /// The value of the member named `key` of an object; nil if there is none or this is not an object.
    /// - Complexity: O(members), comparing lengths first; requests have a handful of members.
    @inlinable
    public subscript(key: StaticString) -> JSONNode? {
        withView { $0[key] }.map { JSONNode(storage: storage, index: $0.index) }
    }

    /// The value of the member named `key` of an object and its position among the members, without creating a
    /// node per member passed over (which would retain the document each time); nil if absent.
    @inlinable
    package func positionedMember(_ key: StaticString) -> (position: Int, value: JSONNode)? {
        withView { $0.positionedMember(key) }.map { ($0.position, JSONNode(storage: storage, index: $0.value.index)) }
    }

    /// The value of the member named `key` (a runtime string) of an object; nil if absent or not an object.
    public func member(_ key: String) -> JSONNode? {
        var key = key
        let found = key.withUTF8 { valueIndex(forKey: $0.baseAddress ?? UnsafePointer(storage.bytes), count: $0.count) }
        return found < 0 ? nil : JSONNode(storage: storage, index: found)
    }

    /// The element at `position` of an array; nil if out of bounds or not an array.
    /// - Complexity: O(position): the tape is walked sibling by sibling.
    public subscript(position: Int) -> JSONNode? {
        withView { $0[position] }.map { JSONNode(storage: storage, index: $0.index) }
    }

    // MARK: Private

    /// Whether this is a string whose value is the `count` UTF-8 bytes at `key`.
    private func isEqual(toBytes key: UnsafePointer<UInt8>, count: Int) -> Bool {
        let node = self.node
        guard node.kind == .string else { return false }
        return Self.stringNode(node, in: storage, equals: key, count: count)
    }

    /// The tape index of the value of the first member whose key is the `count` UTF-8 bytes at `key`, or -1.
    private func valueIndex(forKey key: UnsafePointer<UInt8>, count: Int) -> Int {
        let nodes = storage.nodes
        let node = nodes[index]
        guard node.kind == .object else { return -1 }
        var keyIndex = index + 1
        for _ in 0..<node.count {
            if Self.stringNode(nodes[keyIndex], in: storage, equals: key, count: count) { return keyIndex + 1 }
            keyIndex = Int(nodes[keyIndex + 1].next)
        }
        return -1
    }

    /// Whether the string `node` has the value of the `count` bytes at `key`: raw bytes when it has no escapes
    /// (lengths first, then bytes), its decoded value otherwise.
    private static func stringNode(
        _ node: TapeNode,
        in storage: JSONStorage,
        equals key: UnsafePointer<UInt8>,
        count: Int
    ) -> Bool {
        let content = storage.bytes + Int(node.start) + 1
        let length = Int(node.end &- node.start) &- 2
        guard node.flags & TapeNode.hasEscapes == 0 else {
            let decoded = JSONText.decode(UnsafeBufferPointer(start: content, count: length), hasEscapes: true)
            return decoded.utf8.elementsEqual(UnsafeBufferPointer(start: key, count: count))
        }
        guard length == count else { return false }
        for k in 0..<count where content[k] != key[k] { return false }
        return true
    }
}
