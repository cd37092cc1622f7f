// MARK: Duplicate keys

extension JSONScanner {
    /// The error for the first key of the object at tape index `object` that repeats an earlier key, or nil.
    ///
    /// Small objects without escaped keys (every request) compare raw bytes pairwise, allocation-free; larger
    /// ones or escaped keys go through a set of decoded strings so that hostile input stays O(n).
    func duplicateKey(in object: Int, _ base: UnsafePointer<UInt8>) -> JSONError? {
        let count = Int(nodes[object].count)
        let first = object + 1
        if count <= 16 && nodes[first].flags & TapeNode.hasEscapes == 0 {
            var later = Int(nodes[first + 1].next)
            var isPlain = true
            pairs: for _ in 1..<count {
                if nodes[later].flags & TapeNode.hasEscapes != 0 {
                    isPlain = false
                    break pairs
                }
                var earlier = first
                while earlier != later {
                    if rawBytesEqual(nodes[earlier], nodes[later], base) {
                        return duplicate(at: later, base)
                    }
                    earlier = Int(nodes[earlier + 1].next)
                }
                later = Int(nodes[later + 1].next)
            }
            if isPlain { return nil }
        }
        var seen = Set<String>(minimumCapacity: count)
        var key = first
        for _ in 0..<count {
            if !seen.insert(decodedKey(at: key, base)).inserted { return duplicate(at: key, base) }
            key = Int(nodes[key + 1].next)
        }
        return nil
    }

    // MARK: Private

    /// Whether two string nodes have identical bytes between their quotes.
    private func rawBytesEqual(_ a: TapeNode, _ b: TapeNode, _ base: UnsafePointer<UInt8>) -> Bool {
        let length = Int(a.end &- a.start)
        guard length == Int(b.end &- b.start) else { return false }
        let p = base + Int(a.start)
        let q = base + Int(b.start)
        for k in 1..<(length - 1) where p[k] != q[k] { return false }
        return true
    }

    /// The decoded value of the key at tape index `key`.
    private func decodedKey(at key: Int, _ base: UnsafePointer<UInt8>) -> String {
        let node = nodes[key]
        let content = UnsafeBufferPointer(start: base + Int(node.start) + 1, count: Int(node.end - node.start) - 2)
        return JSONText.decode(content, hasEscapes: node.flags & TapeNode.hasEscapes != 0)
    }

    /// A `duplicateKey` error for the key at tape index `key`.
    private func duplicate(at key: Int, _ base: UnsafePointer<UInt8>) -> JSONError {
        JSONError(.duplicateKey(decodedKey(at: key, base)), at: Int(nodes[key].start))
    }
}
