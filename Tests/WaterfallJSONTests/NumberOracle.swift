import Testing
@_spi(Package) import WaterfallJSON

/// Checks one double at a time against the standard library's reference writer, counting and reporting differences
/// (the first 20 of them) with the value's bits and both texts.
struct NumberOracle {
    // MARK: Lifecycle

    init(context: String) {
        self.context = context
    }

    // MARK: Internal

    /// Names the run in every report: the seed and the family.
    let context: String
    /// Values checked so far.
    private(set) var checked = 0
    /// Values that differed so far.
    private(set) var failures = 0

    /// Checks that `value` is written as before, both through `writeNumber` (the integer rule) and in its
    /// `description` form, that nothing is written past the room, and that the text reads back to the same bits.
    mutating func check(_ value: Double) {
        checked += 1
        compare(value, NumberFormatting.number, NumberFormatting.referenceNumber, "number")
        // Other values take the same path both ways.
        if value.magnitude < 9_007_199_254_740_992, value == value.rounded(.towardZero) {
            compare(value, NumberFormatting.double, NumberFormatting.referenceDouble, "description")
        }
    }

    // MARK: Private

    /// The writer's bytes, then the reference's; each with room for `JSONWriter.maximumNumberLength` and guard
    /// bytes after it.
    private let ours = Buffer()
    private let theirs = Buffer()

    private mutating func compare(
        _ value: Double, _ new: (Double, UnsafeMutablePointer<UInt8>) -> Int,
        _ old: (Double, UnsafeMutablePointer<UInt8>) -> Int, _ form: String
    ) {
        let p = ours.start
        p.update(repeating: 0xEE, count: Buffer.size)
        let count = new(value, p)
        let expected = old(value, theirs.start)
        let text = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        var problem: String?
        if count != expected || (0..<count).contains(where: { p[$0] != theirs.start[$0] }) {
            let oldText = String(decoding: UnsafeBufferPointer(start: theirs.start, count: expected), as: UTF8.self)
            problem = "written as \(text), before as \(oldText)"
        } else if (24..<Buffer.size).contains(where: { p[$0] != 0xEE }) {
            problem = "wrote past the 24 bytes of room"
        } else if Double(text)?.bitPattern != value.bitPattern {
            problem = "\(text) reads back as \(Double(text).map { "\($0)" } ?? "nothing")"
        }
        guard let problem else { return }
        failures += 1
        if failures <= 20 {
            let bits = "0x" + String(value.bitPattern, radix: 16)
            Issue.record("\(context): \(value) (bits \(bits)), \(form) form: \(problem)")
        }
    }

    /// A small heap buffer, freed with its owner.
    private final class Buffer {
        static let size = 40
        let start = UnsafeMutablePointer<UInt8>.allocate(capacity: size)

        deinit { start.deallocate() }
    }
}
