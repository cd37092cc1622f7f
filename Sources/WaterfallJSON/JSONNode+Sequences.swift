// MARK: Iteration

extension JSONNode {
    /// The elements of an array, in order.
    public struct Elements: Sequence, IteratorProtocol, Sendable {
        @usableFromInline let storage: JSONStorage
        @usableFromInline var index: Int
        @usableFromInline var remaining: Int

        @inlinable
        init(storage: JSONStorage, index: Int, remaining: Int) {
            self.storage = storage
            self.index = index
            self.remaining = remaining
        }

        /// The number of elements not yet visited.
        @inlinable
        public var underestimatedCount: Int { remaining }

        /// The next element, or nil after the last.
        @inlinable
        public mutating func next() -> JSONNode? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let element = JSONNode(storage: storage, index: index)
            index = Int(storage.nodes[index].next)
            return element
        }
    }

    /// The members of an object, as (key, value) in input order; keys are string nodes.
    public struct Members: Sequence, IteratorProtocol, Sendable {
        @usableFromInline let storage: JSONStorage
        @usableFromInline var index: Int
        @usableFromInline var remaining: Int

        @inlinable
        init(storage: JSONStorage, index: Int, remaining: Int) {
            self.storage = storage
            self.index = index
            self.remaining = remaining
        }

        /// The number of members not yet visited.
        @inlinable
        public var underestimatedCount: Int { remaining }

        /// The next member, or nil after the last.
        @inlinable
        public mutating func next() -> (key: JSONNode, value: JSONNode)? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let key = JSONNode(storage: storage, index: index)
            let value = JSONNode(storage: storage, index: index + 1)
            index = Int(storage.nodes[index + 1].next)
            return (key, value)
        }
    }

    /// The elements of an array in order; empty for other kinds.
    @inlinable
    public var elements: Elements {
        let node = self.node
        return Elements(storage: storage, index: index + 1, remaining: node.kind == .array ? Int(node.count) : 0)
    }

    /// The members of an object in order; empty for other kinds.
    @inlinable
    public var members: Members {
        let node = self.node
        return Members(storage: storage, index: index + 1, remaining: node.kind == .object ? Int(node.count) : 0)
    }
}
