import Foundation
import Testing

@testable import WaterfallJSON

/// `JSONNumber.double` against the standard library's `Double(String)`, bit for bit, on seeded generated texts
/// (``NumberCases``) and on a table of known hard cases; a share of each run goes through the reader as well.
///
/// `WATERFALL_NUMBER_CASES` sets the number of generated texts (default 1,000,000) and `WATERFALL_NUMBER_SEED`
/// the seed, for longer runs: `WATERFALL_NUMBER_CASES=50000000 swift test -c release --filter NumberParsing`.
@Suite struct NumberParsingTests {
    /// Generated texts per run, over all kinds.
    static let cases = Int(ProcessInfo.processInfo.environment["WATERFALL_NUMBER_CASES"] ?? "") ?? 1_000_000

    /// The seed of the run.
    static let seed = UInt64(ProcessInfo.processInfo.environment["WATERFALL_NUMBER_SEED"] ?? "") ?? 0x5EED_0F_D0_0B1E

    /// Each kind's share of the run's generated texts converts to the bits `Double(String)` gives; the seed, the
    /// kind, the case's index and the text are in every failure.
    @Test(arguments: NumberCases.Kind.allCases)
    func agreesWithStandardLibrary(kind: NumberCases.Kind) throws {
        // One generator per kind, so a kind's texts do not depend on how many the others drew.
        var cases = NumberCases(seed: Self.seed &+ UInt64(NumberCases.Kind.allCases.firstIndex(of: kind)!))
        var reader = JSONReader()
        var failures = 0
        let count = kind.share(of: Self.cases)
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<count {
            let text = cases.text(kind)
            // Every 16th through the reader too: the scanner's range check and the view's integer shortcut.
            if let failure = Self.check(text, reader: &reader, viaReader: index % 16 == 0) {
                failures += 1
                Issue.record("seed \(Self.seed) kind \(kind) case \(index): \(failure)")
                if failures == 20 { break }
            }
        }
        let elapsed = clock.now - start
        print("NumberParsingTests: \(count) \(kind) texts, seed \(Self.seed), \(failures) failures, \(elapsed)")
    }

    /// Known hard and boundary texts, each against `Double(String)` directly and through the reader.
    @Test(arguments: [
        // Around the least subnormal and its half.
        "2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272088e-324", "4.9406564584124654e-324",
        "5e-324", "-5e-324", "1e-324", "3e-324", "7.4109846876186981e-324", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        // Around the largest finite double and overflow.
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "-1.7976931348623159e308",
        "1e308", "1e309", "1e400", "-1e400", "1e-400", "-1e-400", "1e99999", "1e-99999", "0.1e310",
        // Ties and near-ties in the fast paths' range.
        "9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000001", "9007199254740995",
        "18446744073709551615", "18446744073709551616", "18446744073709551617", "10000000000000000000",
        "9999999999999999999", "99999999999999999999", "12345678901234567890123", "1e22", "1e23", "8.589973e9",
        "123.45678901234567", "0.1", "0.30000000000000004", "7.3177701707893310e15", "1448997445238699",
        "6.631236846766476e-316", "3.2378839133029012e-306", "9.5e-10", "4.35415842e-2",
        "0.500000000000000166533453693773481063544750213623046875",
        // Zeros and signs.
        "0", "-0", "-0.0", "-0.0e5", "0e-400", "-0e400", "0.000", "0E+0",
    ])
    func agreesOnHardCases(text: String) throws {
        var reader = JSONReader()
        if let failure = Self.check(text, reader: &reader) { Issue.record("\(failure)") }
    }

    /// Inputs of a million digits: a long zero fraction, a long mantissa, and exponents that bring them back.
    @Test func agreesOnMillionDigitTexts() throws {
        let zeros = String(repeating: "0", count: 1_000_000)
        let digits = String(repeating: "31415926535897932384", count: 50_000)
        let texts = [
            "0." + zeros + "1", "0." + zeros + "1e1000010", "1" + zeros + "e-1000000", "1" + zeros,
            "-" + digits + "e-1000000", "0." + digits, digits + "e-999700", "1." + zeros + "1",
            // A midpoint, then a nonzero digit a million places on: just above it, so it rounds up.
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363e-324",
        ]
        var reader = JSONReader()
        for text in texts {
            if let failure = Self.check(text, reader: &reader) { Issue.record("\(failure.prefix(300))") }
        }
    }

    /// Exact midpoints next to landmarks, themselves (ties to even), and just above and below them: by one unit
    /// in the last digit, by a nonzero digit past the 800th significant one, and by one a million digits on.
    @Test(
        arguments: [
            0, .leastNonzeroMagnitude, 0x1p-1022 - 0x1p-1074, .leastNormalMagnitude, 1, 0x1p53, 0x1p64, 1e23,
            .greatestFiniteMagnitude.nextDown, .greatestFiniteMagnitude,
        ] as [Double])
    func agreesAroundMidpoints(value: Double) throws {
        var reader = JSONReader()
        let midpoint = DecimalText(midpointAbove: value)
        var texts = [midpoint]
        for delta in [1, -1] {
            var text = midpoint
            text.addUnitInLastPlace(delta)
            texts.append(text)
        }
        for zeros in [0, 800 - midpoint.digits.count] where zeros >= 0 {
            for last: UInt8 in [1, 9] {
                var text = midpoint
                text.append([UInt8](repeating: 0, count: zeros) + [last])
                texts.append(text)
            }
        }
        var rng = SplitMix64(seed: 7)
        var spellings = texts.flatMap { text in (0..<3).map { _ in text.text(&rng) } }
        var farAbove = midpoint
        farAbove.append([UInt8](repeating: 0, count: 1_000_000) + [1])
        spellings.append(farAbove.text(&rng))
        for text in spellings {
            if let failure = Self.check(text, reader: &reader) { Issue.record("\(failure.prefix(300))") }
        }
    }

    // MARK: Private

    /// Nil if `text` converts to the same bits as `Double(text)` (and, `viaReader`, parses as a one-element array
    /// to those bits, or is refused as out of range where `Double(text)` is infinite); else what went wrong.
    private static func check(_ text: String, reader: inout JSONReader, viaReader: Bool = true) -> String? {
        guard let expected = Double(text) else { return "Double(String) refused \(text.debugDescription)" }
        let bytes = Array(text.utf8)
        let ours = bytes.withUnsafeBufferPointer { JSONNumber.double($0) }
        if ours.bitPattern != expected.bitPattern {
            return "\(text.debugDescription): \(ours) (0x\(String(ours.bitPattern, radix: 16))), expected \(expected) "
                + "(0x\(String(expected.bitPattern, radix: 16)))"
        }
        guard viaReader else { return nil }
        do {
            let document = try reader.parse("[" + text + "]")
            guard let value = document.root[0]?.double else { return "\(text.debugDescription): no number read" }
            if !expected.isFinite { return "\(text.debugDescription): read \(value), expected refusal" }
            if value.bitPattern != expected.bitPattern {
                return "\(text.debugDescription): read \(value), expected \(expected)"
            }
        } catch {
            if expected.isFinite || error.reason != .numberOutOfRange {
                return "\(text.debugDescription): reader threw \(error), expected \(expected)"
            }
        }
        return nil
    }
}
