// MARK: Keys and members

extension JSONView {
    /// Whether this is a string equal to `key`, compared on the raw bytes (lengths first) when the string has no
    /// escapes. `key` must be plain: no quote, backslash or control character.
    @inlinable @inline(__always)
    package func isEqual(toKey key: StaticString) -> Bool {
        let node = self.node
        return node.kind == .string && Self.string(node, bytes, equals: key)
    }

    /// The value of the member named `key` of an object; nil if there is none or this is not an object.
    /// - Complexity: O(members); requests have a handful.
    @inlinable
    package subscript(key: StaticString) -> JSONView? {
        positionedMember(key)?.value
    }

    /// The value of the member named `key` of an object and its position among the members; nil if absent or not
    /// an object. The position lets a strict reader mark the member as read.
    ///
    /// Always inlined: with the literal key of each call site its length and bytes are constants, which makes the
    /// comparison cheaper than in one shared copy taking the key as an argument.
    @inlinable @inline(__always)
    package func positionedMember(_ key: StaticString) -> (position: Int, value: JSONView)? {
        let node = self.node
        guard node.kind == .object else { return nil }
        var keyIndex = index + 1
        var position = 0
        while position < Int(node.count) {
            if Self.string(nodes[keyIndex], bytes, equals: key) {
                return (position, JSONView(nodes: nodes, bytes: bytes, index: keyIndex + 1))
            }
            keyIndex = Int(nodes[keyIndex + 1].next)
            position += 1
        }
        return nil
    }

    /// The element at `position` of an array; nil if out of bounds or not an array.
    /// - Complexity: O(position): the tape is walked sibling by sibling.
    @inlinable
    package subscript(position: Int) -> JSONView? {
        let node = self.node
        guard node.kind == .array, position >= 0, position < Int(node.count) else { return nil }
        var elementIndex = index + 1
        for _ in 0..<position { elementIndex = Int(nodes[elementIndex].next) }
        return JSONView(nodes: nodes, bytes: bytes, index: elementIndex)
    }

    /// The member at `position` of an object; nil if out of bounds or not an object. Always inlined: a request's
    /// params are found by position on every request.
    /// - Complexity: O(position): the tape is walked sibling by sibling.
    @inlinable @inline(__always)
    package func member(at position: Int) -> (key: JSONView, value: JSONView)? {
        let node = self.node
        guard node.kind == .object, position >= 0, position < Int(node.count) else { return nil }
        var keyIndex = index + 1
        for _ in 0..<position { keyIndex = Int(nodes[keyIndex + 1].next) }
        return (
            JSONView(nodes: nodes, bytes: bytes, index: keyIndex),
            JSONView(nodes: nodes, bytes: bytes, index: keyIndex + 1)
        )
    }

    // MARK: Internal

    /// Whether the string `node` has the value of `key`: its raw bytes when it has no escapes, else its decoded
    /// value.
    ///
    /// Inlined with a literal `key`, the length test is against a constant and the byte loop is a few compares.
    @inlinable @inline(__always)
    static func string(_ node: TapeNode, _ bytes: UnsafePointer<UInt8>, equals key: StaticString) -> Bool {
        let length = Int(node.end &- node.start) &- 2
        guard node.flags & TapeNode.hasEscapes == 0 && key.hasPointerRepresentation else {
            return escapedString(node, bytes, equals: key)
        }
        guard length == key.utf8CodeUnitCount else { return false }
        let content = bytes + Int(node.start) + 1
        let expected = key.utf8Start
        var k = 0
        while k < length {
            if content[k] != expected[k] { return false }
            k += 1
        }
        return true
    }

    /// The slow side of `string(_:_:equals:)`: decodes the string (escapes), or a one-scalar `key`.
    @usableFromInline
    static func escapedString(_ node: TapeNode, _ bytes: UnsafePointer<UInt8>, equals key: StaticString) -> Bool {
        let content = UnsafeBufferPointer(start: bytes + Int(node.start) + 1, count: Int(node.end &- node.start) - 2)
        let value = JSONText.decode(content, hasEscapes: node.flags & TapeNode.hasEscapes != 0)
        return key.withUTF8Buffer { value.utf8.elementsEqual($0) }
    }
}

// MARK: Iteration

extension JSONView {
    /// The elements of an array, in order.
    @usableFromInline
    package struct Elements: Sequence, IteratorProtocol {
        @usableFromInline var children: Children

        @inlinable
        init(_ array: JSONView) {
            children = Children(array, kind: .array)
        }

        /// The number of elements not yet visited.
        @inlinable
        package var underestimatedCount: Int { children.remaining }

        /// The next element, or nil after the last.
        @inlinable
        package mutating func next() -> JSONView? {
            children.next(valueOffset: 0).map { children.view(at: $0) }
        }
    }

    /// The members of an object, as (key, value) in input order; keys are string views.
    @usableFromInline
    package struct Members: Sequence, IteratorProtocol {
        @usableFromInline var children: Children

        @inlinable
        init(_ object: JSONView) {
            children = Children(object, kind: .object)
        }

        /// The number of members not yet visited.
        @inlinable
        package var underestimatedCount: Int { children.remaining }

        /// The next member, or nil after the last.
        @inlinable
        package mutating func next() -> (key: JSONView, value: JSONView)? {
            children.next(valueOffset: 1).map { (children.view(at: $0), children.view(at: $0 + 1)) }
        }
    }

    /// A walk over the children of an array or object on the tape: elements, or members as key then value.
    @usableFromInline
    struct Children {
        @usableFromInline let nodes: UnsafePointer<TapeNode>
        @usableFromInline let bytes: UnsafePointer<UInt8>
        @usableFromInline var index: Int
        @usableFromInline var remaining: Int

        /// The children of `parent`, none unless it is of `kind`.
        @inlinable
        init(_ parent: JSONView, kind: JSONKind) {
            nodes = parent.nodes
            bytes = parent.bytes
            index = parent.index + 1
            remaining = parent.node.kind == kind ? Int(parent.node.count) : 0
        }

        /// The tape index of the next child (a member's key), moving past it and its value (`valueOffset` nodes
        /// on: 0 for an element, 1 for a member); nil after the last.
        @inlinable
        mutating func next(valueOffset: Int) -> Int? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let child = index
            index = Int(nodes[child + valueOffset].next)
            return child
        }

        @inlinable
        func view(at index: Int) -> JSONView { JSONView(nodes: nodes, bytes: bytes, index: index) }
    }

    /// The elements of an array in order; empty for other kinds.
    @inlinable
    package var elements: Elements { Elements(self) }

    /// The members of an object in order; empty for other kinds.
    @inlinable
    package var members: Members { Members(self) }
}
