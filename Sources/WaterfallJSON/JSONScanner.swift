/// The parsing loop behind ``JSONReader``: one pass over raw bytes that appends nodes to a tape.
///
/// It works on local copies of the storage's pointers (a struct on the stack needs no exclusivity or
/// uniqueness checks) and hands them back when done.
internal struct JSONScanner {
    // MARK: Lifecycle

    /// A scanner filling `storage`, which its caller holds uniquely.
    init(storage: JSONStorage, maximumDepth: Int, readsHeightRuns: Bool = false) {
        nodes = storage.nodes
        nodeCapacity = storage.nodeCapacity
        stack = storage.stack
        stackCapacity = storage.stackCapacity
        self.maximumDepth = maximumDepth
        self.readsHeightRuns = readsHeightRuns
    }

    // MARK: Internal

    /// The nodes parsed so far, in input order.
    var nodes: UnsafeMutablePointer<TapeNode>
    /// Initialized nodes.
    var nodeCount = 0
    /// Allocated nodes.
    var nodeCapacity: Int
    /// For each open container, the tape index of its parent (UInt32.max for none), outermost first.
    var stack: UnsafeMutablePointer<UInt32>
    /// Open containers.
    var depth = 0
    /// Allocated stack entries.
    var stackCapacity: Int
    /// The deepest nesting accepted.
    let maximumDepth: Int
    /// Whether a request's `params.items` of one-height objects is kept as its heights (`scanHeightRun`).
    let readsHeightRuns: Bool
    /// Whether the tape holds an array kept as its heights.
    var hasHeightRuns = false

    /// Gives the (possibly reallocated) buffers back to `storage`.
    func finish(into storage: JSONStorage) {
        storage.nodes = nodes
        storage.nodeCount = nodeCount
        storage.nodeCapacity = nodeCapacity
        storage.stack = stack
        storage.stackCapacity = stackCapacity
        storage.hasHeightRuns = hasHeightRuns
    }

    /// Parses `count` bytes at `base` as one JSON value surrounded by whitespace; returns the first error, or nil.
    mutating func scan(_ base: UnsafePointer<UInt8>, count end: Int) -> JSONError? {
        var i = Self.skipWhitespace(base, from: 0, to: end)
        if i == end { return JSONError(.empty, at: i) }

        // The innermost open container lives in registers; the stack holds only its ancestors' tape indices,
        // and an ancestor's element count and key filter are parked in its node while a child is open.
        var container = -1
        var isObject = false
        var elementCount: UInt32 = 0
        var keys = KeyFilter()
        values: while true {
            // A value starts at i (whitespace already skipped), after its key in an object. The key is scanned
            // here rather than where an object opens and after each comma, so that with one call site the optimizer
            // inlines it.
            if isObject {
                if let failure = scanKey(base, at: &i, end: end) { return failure }
                keys.insert(nodes + (nodeCount - 1), base)
            }
            guard i < end else { return JSONError(.unexpectedEnd, at: end) }
            elementCount &+= 1
            let byte = base[i]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                // The items of a bulk insert, `{"h":120.5}`, take a shortcut that leaves the same tape.
                if byte == UInt8(ascii: "{") && depth < maximumDepth && scanNumberMember(base, at: &i, end: end) {
                    break
                }
                // A bulk insert's whole `items` array, when that is all it holds, as its heights alone (its objects
                // would be four deep, so the nesting limit must allow that, as the general loop would check).
                if byte == UInt8(ascii: "[") && readsHeightRuns && isObject && depth == 2 && maximumDepth > 3
                    && isParamsItems(container: container, base) && scanHeightRun(base, at: &i, end: end)
                {
                    break
                }
                guard depth < maximumDepth else { return JSONError(.nestingTooDeep(limit: maximumDepth), at: i) }
                if container >= 0 {
                    nodes[container].count = elementCount
                    keys.park(in: &nodes[container])
                }
                push(UInt32(truncatingIfNeeded: container))
                container = nodeCount
                isObject = byte == UInt8(ascii: "{")
                elementCount = 0
                keys = KeyFilter()
                append(TapeNode(kind: isObject ? .object : .array, start: i, end: i, next: nodeCount + 1))
                i = Self.skipWhitespace(base, from: i + 1, to: end)
                let isEmpty = i < end && base[i] == byte &+ 2  // '{' + 2 is '}', '[' + 2 is ']'
                if !isEmpty { continue values }
            // An empty container goes on to the closing loop below, which sees its bracket.
            case UInt8(ascii: "\""):
                if let failure = scanString(base, at: &i, end: end) { return failure }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if !scanInteger(base, at: &i, end: end), let failure = scanNumber(base, at: &i, end: end) {
                    return failure
                }
            case UInt8(ascii: "t"):
                if let failure = scanLiteral(base, at: &i, end: end, word: 0x6575_7274, length: 4) { return failure }
                append(TapeNode(kind: .bool, flags: TapeNode.isTrue, start: i - 4, end: i, next: nodeCount + 1))
            case UInt8(ascii: "f"):
                if let failure = scanLiteral(base, at: &i, end: end, word: 0x65_736C_6166, length: 5) {
                    return failure
                }
                append(TapeNode(kind: .bool, start: i - 5, end: i, next: nodeCount + 1))
            case UInt8(ascii: "n"):
                if let failure = scanLiteral(base, at: &i, end: end, word: 0x6C6C_756E, length: 4) { return failure }
                append(TapeNode(kind: .null, start: i - 4, end: i, next: nodeCount + 1))
            default:
                return JSONError(.unexpectedByte(byte), at: i)
            }

            // A value just ended: close containers or move to the next element until a value must start.
            while true {
                i = Self.skipWhitespace(base, from: i, to: end)
                guard container >= 0 else { break values }
                guard i < end else { return JSONError(.unexpectedEnd, at: end) }
                let byte = base[i]
                if byte == UInt8(ascii: ",") {
                    i = Self.skipWhitespace(base, from: i + 1, to: end)
                    continue values
                }
                guard byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    return JSONError(.unexpectedByte(byte), at: i)
                }
                i += 1
                nodes[container].end = UInt32(truncatingIfNeeded: i)
                nodes[container].next = UInt32(truncatingIfNeeded: nodeCount)
                nodes[container].count = elementCount
                nodes[container].flags = 0
                if isObject && elementCount > 1 && keys.mayRepeat,
                    let failure = Self.duplicateKey(in: container, nodes, base)
                {
                    return failure
                }
                depth -= 1
                let parent = stack[depth]
                container = parent == UInt32.max ? -1 : Int(parent)
                if container >= 0 {
                    elementCount = nodes[container].count
                    isObject = nodes[container].kind == .object
                    keys = KeyFilter(parkedIn: nodes[container])
                }
            }
        }
        if i != end { return JSONError(.unexpectedByte(base[i]), at: i) }
        return nil
    }

    /// Appends a node to the tape, growing it by doubling.
    @inline(__always)
    mutating func append(_ node: TapeNode) {
        if nodeCount == nodeCapacity { grow(toHold: nodeCount + 1) }
        appendReserved(node)
    }

    /// Appends a node to the tape, which has room for it (`reserve`).
    @inline(__always)
    mutating func appendReserved(_ node: TapeNode) {
        (nodes + nodeCount).initialize(to: node)
        nodeCount += 1
    }

    /// Makes room for `count` more nodes.
    @inline(__always)
    mutating func reserve(_ count: Int) {
        if nodeCount + count > nodeCapacity { grow(toHold: nodeCount + count) }
    }

    /// Moves the tape to room for `count` nodes, at least twice its capacity.
    @inline(never)
    mutating func grow(toHold count: Int) {
        let capacity = max(nodeCapacity * 2, count)
        let grown = UnsafeMutablePointer<TapeNode>.allocate(capacity: capacity)
        grown.moveInitialize(from: nodes, count: nodeCount)
        nodes.deallocate()
        nodes = grown
        nodeCapacity = capacity
    }

    // MARK: Private

    /// Pushes an open container's tape index, growing the stack by doubling.
    @inline(__always)
    private mutating func push(_ index: UInt32) {
        if depth == stackCapacity {
            let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: stackCapacity * 2)
            grown.moveInitialize(from: stack, count: depth)
            stack.deallocate()
            stack = grown
            stackCapacity *= 2
        }
        (stack + depth).initialize(to: index)
        depth += 1
    }

    /// The index of the first byte at or after `i` that is not JSON whitespace (space, tab, LF, CR).
    @inline(__always)
    private static func skipWhitespace(_ base: UnsafePointer<UInt8>, from i: Int, to end: Int) -> Int {
        var i = i
        while i < end {
            let byte = base[i]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
            i += 1
        }
        return i
    }

    /// Scans an object key and its colon, leaving `i` at the start of the member's value.
    @inline(__always)
    private mutating func scanKey(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> JSONError? {
        guard i < end else { return JSONError(.unexpectedEnd, at: end) }
        guard base[i] == UInt8(ascii: "\"") else { return JSONError(.unexpectedByte(base[i]), at: i) }
        if let failure = scanString(base, at: &i, end: end) { return failure }
        i = Self.skipWhitespace(base, from: i, to: end)
        guard i < end else { return JSONError(.unexpectedEnd, at: end) }
        guard base[i] == UInt8(ascii: ":") else { return JSONError(.unexpectedByte(base[i]), at: i) }
        i = Self.skipWhitespace(base, from: i + 1, to: end)
        return nil
    }

    /// Checks that `true`, `false` or `null` (little-endian in `word`) starts at `i`, and moves past it.
    @inline(__always)
    private func scanLiteral(
        _ base: UnsafePointer<UInt8>,
        at i: inout Int,
        end: Int,
        word: UInt64,
        length: Int
    ) -> JSONError? {
        for k in 0..<length {
            guard i + k < end else { return JSONError(.unexpectedEnd, at: end) }
            let expected = UInt8(truncatingIfNeeded: word >> (8 * UInt64(k)))
            guard base[i + k] == expected else { return JSONError(.unexpectedByte(base[i + k]), at: i + k) }
        }
        i += length
        return nil
    }
}
