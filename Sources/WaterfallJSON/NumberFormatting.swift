/// The writer's number formatting at a pointer, beside reference formatting through the standard library: the
/// package's tests hold the first to the second as their oracle, and the benchmark measures it against it.
///
/// Each function writes at `p`, which must have `JSONWriter.maximumNumberLength` bytes of room (the new writers may
/// leave scratch bytes past their text, within that room), and returns how many bytes of text it wrote.
package enum NumberFormatting {
    // MARK: Package

    /// What `JSONWriter.value(_: Double)` writes.
    package static func number(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        JSONWriter.writeNumber(value, to: p)
    }

    /// `value` in the form of its `description`, integral or not (`ShortestDecimal` and Swift's layout).
    package static func double(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        JSONWriter.writeDouble(value, to: p)
    }

    /// What `JSONWriter.value(_: Int64)` writes.
    package static func integer(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        JSONWriter.writeInteger(value, to: p)
    }

    /// A reference writer of doubles, for tests and the benchmark: integral values below 2^53 through
    /// `referenceInteger`, others through `referenceDouble`.
    package static func referenceNumber(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value, value != 0 || value.sign == .plus {
            return referenceInteger(Int64(value), to: p)
        }
        return referenceDouble(value, to: p)
    }

    /// The standard library's text for `value` (`Double.write(to:)`, the bytes of `description`), `null` for NaN and
    /// infinity.
    package static func referenceDouble(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else {
            for (k, byte) in "null".utf8.enumerated() { p[k] = byte }
            return 4
        }
        var text = StandardLibraryText(p)
        value.write(to: &text)
        return text.count
    }

    /// A reference integer writer without the digit blocks: a division loop counts the digits, another writes them.
    package static func referenceInteger(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var k = 0
        if value < 0 {
            p[0] = UInt8(ascii: "-")
            k = 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var position = k + digits
        repeat {
            position -= 1
            let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
            p[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder)
            magnitude = quotient
        } while magnitude > 0
        return k + digits
    }
}

/// Receives a number's text straight into a buffer: `Double.write(to:)` hands its digits to `_writeASCII` without
/// making the `String` that `description` allocates for 16 bytes and more. `write(_:)` is there for a standard
/// library that would send a `String` instead: slower, as correct.
struct StandardLibraryText: TextOutputStream {
    // MARK: Lifecycle

    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
    }

    // MARK: Internal

    /// Bytes written.
    private(set) var count = 0

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _writeASCII($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        // The caller reserved room for the 24 bytes a Double's text needs at most.
        let length = min(buffer.count, JSONWriter.maximumNumberLength - count)
        if let base = buffer.baseAddress { (start + count).update(from: base, count: length) }
        count += length
    }

    // MARK: Private

    private let start: UnsafeMutablePointer<UInt8>
}

extension JSONFragment {
    /// `number(_:)` through the reference writers rather than `ShortestDecimal`, for the benchmark's baseline.
    package mutating func referenceNumber(_ value: Double) {
        count += NumberFormatting.referenceNumber(value, to: start + count)
    }

    /// `integer(_:)` through the reference writer rather than the digit blocks, for the benchmark's baseline.
    package mutating func referenceInteger(_ value: Int) {
        count += NumberFormatting.referenceInteger(Int64(value), to: start + count)
    }
}
