// MARK: Duplicate keys

extension JSONScanner {
    /// The keys of one open object as a 64-bit set of hashes, so that an object whose keys cannot repeat skips the
    /// exact duplicate check when it closes.
    ///
    /// The hash covers a key's raw length and first and last bytes, read while they are in cache; a key with
    /// escapes (whose raw bytes are not its value) or a bit already set marks the object for the exact check. The
    /// multiplier was chosen so that no two member names of one protocol object share a bit, so requests never
    /// take the exact check, which costs several times the filter.
    struct KeyFilter {
        // MARK: Lifecycle

        /// An empty filter, for an object just opened.
        init() {}

        /// The filter that `park(in:)` left in `node`.
        @inline(__always)
        init(parkedIn node: TapeNode) {
            bits = UInt64(node.end) | UInt64(node.next) << 32
            mayRepeat = node.flags != 0
        }

        // MARK: Internal

        /// Whether two keys might be equal, so the object needs the exact check.
        private(set) var mayRepeat = false

        /// Adds the key at `node` (a string just appended to the tape) to the set.
        ///
        /// It reads the fields it needs through the pointer rather than copying the whole node just stored, and
        /// rather than taking the key's bounds from the scan, which would cost registers in the scan loop.
        @inline(__always)
        mutating func insert(_ node: UnsafePointer<TapeNode>, _ base: UnsafePointer<UInt8>) {
            guard node.pointee.flags & TapeNode.hasEscapes == 0 else {
                mayRepeat = true
                return
            }
            let start = Int(node.pointee.start)
            let end = Int(node.pointee.end)
            // An empty key hashes its two quotes, which is harmless.
            let packed =
                UInt32(truncatingIfNeeded: end &- start) | UInt32(base[start + 1]) << 8
                | UInt32(base[end - 2]) << 16
            let bit = UInt64(1) << ((packed &* 0x7906_1597) >> 26)
            if bits & bit != 0 { mayRepeat = true }
            bits |= bit
        }

        /// Stores the filter in the node of its object while a child value is open: an open container's `end`,
        /// `next` and `flags` are not yet meaningful, and the scanner sets them when it closes the container.
        @inline(__always)
        func park(in node: inout TapeNode) {
            node.end = UInt32(truncatingIfNeeded: bits)
            node.next = UInt32(truncatingIfNeeded: bits >> 32)
            node.flags = mayRepeat ? 1 : 0
        }

        // MARK: Private

        /// Bit h is set when a key with hash h has been seen.
        private var bits: UInt64 = 0
    }

    /// The error for the first key of the object at tape index `object` that repeats an earlier key, or nil.
    ///
    /// Small objects without escaped keys compare raw bytes pairwise, allocation-free; larger ones or escaped keys
    /// go through a set of decoded strings so that hostile input stays O(n). Static, over the tape pointer: as a
    /// method it copied the whole scanner to the stack for each call.
    static func duplicateKey(
        in object: Int, _ nodes: UnsafePointer<TapeNode>, _ base: UnsafePointer<UInt8>
    ) -> JSONError? {
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
                    if rawBytesEqual(nodes[earlier], nodes[later], base) { return duplicate(at: later, nodes, base) }
                    earlier = Int(nodes[earlier + 1].next)
                }
                later = Int(nodes[later + 1].next)
            }
            if isPlain { return nil }
        }
        var seen = Set<String>(minimumCapacity: count)
        var key = first
        for _ in 0..<count {
            if !seen.insert(decodedKey(at: key, nodes, base)).inserted { return duplicate(at: key, nodes, base) }
            key = Int(nodes[key + 1].next)
        }
        return nil
    }

    // MARK: Private

    /// Whether two string nodes have identical bytes between their quotes.
    private static func rawBytesEqual(_ a: TapeNode, _ b: TapeNode, _ base: UnsafePointer<UInt8>) -> Bool {
        let length = Int(a.end &- a.start)
        guard length == Int(b.end &- b.start) else { return false }
        let p = base + Int(a.start)
        let q = base + Int(b.start)
        for k in 1..<(length - 1) where p[k] != q[k] { return false }
        return true
    }

    /// The decoded value of the key at tape index `key`.
    private static func decodedKey(
        at key: Int, _ nodes: UnsafePointer<TapeNode>, _ base: UnsafePointer<UInt8>
    ) -> String {
        let node = nodes[key]
        let content = UnsafeBufferPointer(start: base + Int(node.start) + 1, count: Int(node.end - node.start) - 2)
        return JSONText.decode(content, hasEscapes: node.flags & TapeNode.hasEscapes != 0)
    }

    /// A `duplicateKey` error for the key at tape index `key`.
    private static func duplicate(
        at key: Int, _ nodes: UnsafePointer<TapeNode>, _ base: UnsafePointer<UInt8>
    ) -> JSONError {
        JSONError(.duplicateKey(decodedKey(at: key, nodes, base)), at: Int(nodes[key].start))
    }
}
