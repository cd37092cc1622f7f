// MARK: Numbers

extension JSONScanner {
    /// Scans a number in the exact RFC 8259 grammar at `i` and appends its node.
    ///
    /// Only numbers that might exceed `Double` range (more than ~300 decimal digits of magnitude) are converted
    /// here, to reject them; every other number is left as bytes until someone asks for its value.
    @inline(__always)
    mutating func scanNumber(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> JSONError? {
        let start = i
        if base[i] == UInt8(ascii: "-") {
            i += 1
            guard i < end else { return JSONError(.unexpectedEnd, at: end) }
        }
        let integerStart = i
        if base[i] == UInt8(ascii: "0") {
            i += 1
        } else if Self.isDigit(base[i]) {
            i += 1
            i = Self.digitsEnd(base, from: i, to: end)
        } else {
            return JSONError(.invalidNumber, at: i)
        }
        let integerDigits = i - integerStart
        var flags = TapeNode.isInteger
        if i < end && base[i] == UInt8(ascii: ".") {
            flags = 0
            i += 1
            guard i < end else { return JSONError(.unexpectedEnd, at: end) }
            guard Self.isDigit(base[i]) else { return JSONError(.invalidNumber, at: i) }
            i = Self.digitsEnd(base, from: i, to: end)
        }
        var exponent = 0
        if i < end && base[i] | 0x20 == UInt8(ascii: "e") {
            flags = 0
            i += 1
            guard i < end else { return JSONError(.unexpectedEnd, at: end) }
            let isNegative = base[i] == UInt8(ascii: "-")
            if isNegative || base[i] == UInt8(ascii: "+") {
                i += 1
                guard i < end else { return JSONError(.unexpectedEnd, at: end) }
            }
            guard Self.isDigit(base[i]) else { return JSONError(.invalidNumber, at: i) }
            while i < end && Self.isDigit(base[i]) {
                // Saturate: any exponent past 10^5 is out of range (or zero) anyway.
                if exponent < 100_000 { exponent = exponent * 10 + Int(base[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if isNegative { exponent = -exponent }
        }
        if integerDigits + exponent > 300 {
            let value = JSONNumber.double(UnsafeBufferPointer(start: base + start, count: i - start))
            guard value.isFinite else { return JSONError(.numberOutOfRange, at: start) }
        }
        append(TapeNode(kind: .number, flags: flags, start: start, end: i, next: nodeCount + 1))
        return nil
    }

    /// Scans a plain integer (`-?(0|[1-9][0-9]*)`, at most 300 digits, not followed by a fraction or exponent) at
    /// `i` and appends its node; returns false, with `i` unchanged, for anything else, which `scanNumber` then reads.
    ///
    /// Request numbers are mostly such integers (`"id":7`, `"section":0`, `"h":120`); inlined into the scan loop,
    /// this saves the call and the optional error that `scanNumber` returns.
    @inline(__always)
    mutating func scanInteger(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> Bool {
        var k = i
        if base[k] == UInt8(ascii: "-") { k += 1 }
        let integerStart = k
        guard k < end && Self.isDigit(base[k]) else { return false }
        k += 1
        if base[k - 1] != UInt8(ascii: "0") {
            k = Self.digitsEnd(base, from: k, to: end)
        }
        if k < end && (base[k] == UInt8(ascii: ".") || base[k] | 0x20 == UInt8(ascii: "e")) { return false }
        // More digits might be out of `Double` range: `scanNumber` checks those.
        guard k - integerStart <= 300 else { return false }
        append(TapeNode(kind: .number, flags: TapeNode.isInteger, start: i, end: k, next: nodeCount + 1))
        i = k
        return true
    }

    /// Scans an object of one member, a key of ASCII letters and a number, written without whitespace
    /// (`{"h":120.5}`) at `i`, and appends the three nodes the general loop would; returns false, with `i` and the
    /// tape as they were, for anything else (which the general loop then reads, and reports if it is wrong).
    ///
    /// Each item of a bulk `items.insert` is such an object: the general loop opens a container, parks its parent,
    /// scans and files the key, and closes the container again, which costs more than the item itself. Its number
    /// is converted here too when `JSONNumber.plain` can (almost always), in the pass that finds its end, so that
    /// the scan and the decoder do not each read every digit: for a bulk load of real-valued heights, reading digits
    /// is much of the connection thread's work.
    @inline(__always)
    mutating func scanNumberMember(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> Bool {
        guard i + 1 < end, base[i + 1] == UInt8(ascii: "\"") else { return false }
        var k = i + 2
        while k < end && (base[k] | 0x20) &- UInt8(ascii: "a") < 26 { k += 1 }
        guard k > i + 2, k + 2 < end, base[k] == UInt8(ascii: "\""), base[k + 1] == UInt8(ascii: ":") else {
            return false
        }
        var j = k + 2
        guard base[j] == UInt8(ascii: "-") || Self.isDigit(base[j]) else { return false }
        let object = nodeCount
        // Room for the four nodes at once: one check, not one per node.
        reserve(4)
        appendReserved(TapeNode(kind: .object, start: i, end: i, next: object + 1))
        appendReserved(TapeNode(kind: .string, start: i + 1, end: k + 1, next: object + 2))
        if let number = JSONNumber.plain(base, from: j, end: end) {
            // Read once: the value goes on the tape, so that the decoder does not read the digits again.
            let flags = TapeNode.hasValue | (number.isInteger ? TapeNode.isInteger : 0)
            appendReserved(TapeNode(kind: .number, flags: flags, start: j, end: number.end, next: nodeCount + 2))
            appendReserved(TapeNode(payload: number.value))
            j = number.end
        } else if !scanInteger(base, at: &j, end: end) && scanNumber(base, at: &j, end: end) != nil {
            nodeCount = object
            return false
        }
        guard j < end && base[j] == UInt8(ascii: "}") else {
            nodeCount = object
            return false
        }
        j += 1
        nodes[object].end = UInt32(truncatingIfNeeded: j)
        nodes[object].next = UInt32(truncatingIfNeeded: nodeCount)
        nodes[object].count = 1
        i = j
        return true
    }

    /// The index of the first byte at or after `i` that is not an ASCII digit, eight bytes at a time: most
    /// real-valued heights have 17 digits, too many to spend a compare and a branch on each.
    @inline(__always)
    static func digitsEnd(_ base: UnsafePointer<UInt8>, from i: Int, to end: Int) -> Int {
        var i = i
        while i + 8 <= end {
            // Digits become 0...9 after the xor; a byte of 10 or more (or with its high bit set) is not one. The
            // high bit is cleared before the add, so no byte carries into the next.
            let x =
                UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) ^ 0x3030_3030_3030_3030
            let notDigit = (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
            if notDigit != 0 { return i + notDigit.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < end && isDigit(base[i]) { i += 1 }
        return i
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
