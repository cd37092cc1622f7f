// MARK: Height runs

extension JSONScanner {
    /// Scans an array of one-height objects written without whitespace (`[{"h":120},{"h":80.5}]`) at `i` into an
    /// array node flagged `isHeightRun` followed by one `payload` node per element; returns false, with `i` and the
    /// tape as they were, for anything else (an empty array, whitespace, another key, a number `JSONNumber.plain`
    /// does not read), which the general loop then scans from the bracket, so the array costs at most two scans.
    ///
    /// A bulk `items.insert` is this array and little else. Its general scan leaves four nodes (80 bytes) per item
    /// for the decoder to walk member by member; here each item is one node holding its height, and the
    /// decoder copies the heights out. The array node's `count` is 0, so a walk over its elements sees none:
    /// only a reader that asked for runs (`JSONReader.readsHeightRuns`) gets them, and only a decoder that knows
    /// them (`JSONView.appendHeightRun`) reads them.
    @inline(__always)
    mutating func scanHeightRun(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> Bool {
        let array = nodeCount
        append(TapeNode(kind: .array, flags: TapeNode.isHeightRun, start: i, end: i, next: array + 1))
        var j = i + 1
        while true {
            // `{"h":` as one little-endian load of five bytes (the input has padding after its end).
            guard j + 5 < end, Self.startsHeightObject(base + j) else { break }
            guard let number = JSONNumber.plain(base, from: j + 5, end: end) else { break }
            j = number.end
            guard j + 1 < end, base[j] == UInt8(ascii: "}") else { break }
            append(TapeNode(payload: number.value))
            j += 2
            switch base[j - 1] {
            case UInt8(ascii: ","):
                continue
            case UInt8(ascii: "]"):
                nodes[array].end = UInt32(truncatingIfNeeded: j)
                nodes[array].next = UInt32(truncatingIfNeeded: nodeCount)
                hasHeightRuns = true
                i = j
                return true
            default:
                break
            }
            break
        }
        nodeCount = array
        return false
    }

    /// Whether the value about to be scanned is the member `items` of the member `params` of a top-level object,
    /// the open container being at tape index `container` and two deep.
    @inline(__always)
    func isParamsItems(container: Int, _ base: UnsafePointer<UInt8>) -> Bool {
        nodes[0].kind == .object && container > 0
            && Self.isKey(nodes[nodeCount - 1], #""items""#, base)
            && Self.isKey(nodes[container - 1], #""params""#, base)
    }

    /// Whether `node` is a string whose raw bytes, quotes included, are `quoted`.
    @inline(__always)
    private static func isKey(_ node: TapeNode, _ quoted: StaticString, _ base: UnsafePointer<UInt8>) -> Bool {
        let length = Int(node.end &- node.start)
        guard node.kind == .string, length == quoted.utf8CodeUnitCount else { return false }
        let p = base + Int(node.start)
        let q = quoted.utf8Start
        for k in 0..<length where p[k] != q[k] { return false }
        return true
    }

    /// Whether the five bytes at `p` are `{"h":`.
    @inline(__always)
    private static func startsHeightObject(_ p: UnsafePointer<UInt8>) -> Bool {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) & 0xFF_FFFF_FFFF
        return word == 0x3A_2268_227B  // `{"h":` little-endian
    }
}
