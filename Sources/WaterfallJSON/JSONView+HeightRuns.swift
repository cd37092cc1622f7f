extension JSONView {
    /// The number of heights of an array kept as its heights (``JSONReader/readsHeightRuns``); nil for any other
    /// value.
    @inlinable
    package var heightRunCount: Int? {
        let node = self.node
        guard node.kind == .array && node.flags & TapeNode.isHeightRun != 0 else { return nil }
        // One payload node per height follows the array's node, and `next` skips them.
        return Int(node.next) &- index &- 1
    }

    /// Appends the heights of an array kept as its heights to `heights`, in order; appends nothing for any other
    /// value.
    @inlinable
    package func appendHeightRun(to heights: inout [Double]) {
        guard let count = heightRunCount else { return }
        heights.reserveCapacity(heights.count + count)
        let first = nodes + index + 1
        for k in 0..<count { heights.append(first[k].payload) }
    }
}
