import Foundation
import Testing
@_spi(Package) import WaterfallJSON

/// The writer's numbers against the standard library's, byte for byte: millions of seeded doubles across the whole
/// range and the ranges layouts use, each written by the writer and by the reference (`Double.write(to:)`, with the
/// integer rule), and read back with `Double(String)` to the same bit pattern.
@Suite struct NumberFormattingTests {
    /// Generated doubles per run, shared among the families; more with `WATERFALL_NUMBER_CASES`.
    static let cases = max(1_000_000, Int(ProcessInfo.processInfo.environment["WATERFALL_NUMBER_CASES"] ?? "") ?? 0)

    /// The run's seed; another with `WATERFALL_NUMBER_SEED` (decimal or 0x-prefixed hex).
    static let seed: UInt64 = {
        guard let text = ProcessInfo.processInfo.environment["WATERFALL_NUMBER_SEED"] else { return 0x5EED_0F_D70A }
        if text.hasPrefix("0x"), let seed = UInt64(text.dropFirst(2), radix: 16) { return seed }
        return UInt64(text) ?? 0x5EED_0F_D70A
    }()

    // MARK: Generated doubles

    /// A way of drawing doubles.
    enum Family: String, CaseIterable, Sendable {
        /// Any 64 bits that make a finite double: every binade, subnormals, both signs.
        case bitPatterns
        /// Subnormals only.
        case subnormals
        /// Uniform in [0, 10^4): a layout's x positions and widths.
        case positions
        /// Uniform in [20, 400): item heights.
        case heights
        /// Running sums of such heights: a column's y positions (mostly 17 significant digits).
        case columnOffsets
        /// A few digits at some power of ten: 172.5, 0.1, 3e-7, 12345.678.
        case shortDecimals
        /// Small fractions a / b: 1/3, 2/7, 175/6.
        case fractions
        /// A few binary fraction digits: 172.5, 60.25, 0.375, 12345.6787109375 (exact decimals, often short).
        case dyadics
        /// Integral values from 2^53 up, where ties between two shortest decimals happen.
        case largeIntegers
        /// Integral values below 2^53, the integer path.
        case integers
    }

    @Test(arguments: Family.allCases)
    func generatedDoublesMatchTheStandardLibrary(_ family: Family) {
        let familySeed = Self.seed &+ UInt64(Family.allCases.firstIndex(of: family)!) &* 0x9E37_79B9_7F4A_7C15
        var rng = SplitMix64(seed: familySeed)
        var oracle = NumberOracle(context: "WATERFALL_NUMBER_SEED=\(Self.seed) family \(family) (seed \(familySeed))")
        var columnBottom = 0.0
        for _ in 0..<(Self.cases / Family.allCases.count) {
            var value: Double
            switch family {
            case .bitPatterns:
                repeat { value = Double(bitPattern: rng.next()) } while !value.isFinite
            case .subnormals:
                value = Double(bitPattern: rng.next() & (1 << 52 - 1))
            case .positions:
                value = Double.random(in: 0..<10_000, using: &rng)
            case .heights:
                value = Double.random(in: 20..<400, using: &rng)
            case .columnOffsets:
                if rng.next() % 5_000 == 0 { columnBottom = 0 }
                columnBottom += Double.random(in: 20..<400, using: &rng) + 8
                value = columnBottom
            case .shortDecimals:
                let digits = UInt64.random(in: 1...9_999_999, using: &rng)
                let scale = Int.random(in: 0...22, using: &rng)
                // Both exact, so the quotient is the double nearest to digits / 10^scale.
                value = Double(digits) / Self.exactPowersOfTen[scale]
            case .fractions:
                value = Double(Int.random(in: 1...10_000, using: &rng)) / Double(Int.random(in: 1...999, using: &rng))
            case .dyadics:
                let digits = Int.random(in: 0...52, using: &rng)
                let numerator = Double(UInt64.random(in: 1...(1 << digits), using: &rng))
                value = numerator / Double(sign: .plus, exponent: Int.random(in: 1...30, using: &rng), significand: 1)
            case .largeIntegers:
                let exponent = Int.random(in: 53...120, using: &rng)
                value = Double(sign: .plus, exponent: exponent, significand: 1 + Double.random(in: 0..<1, using: &rng))
            case .integers:
                let digits = Int.random(in: 1...16, using: &rng)
                value = Double(Int64.random(in: 0..<Int64(Self.exactPowersOfTen[digits]), using: &rng))
                value = min(value, 9_007_199_254_740_991)
            }
            if rng.next() & 1 == 0 { value = -value }
            oracle.check(value)
        }
        #expect(oracle.failures == 0, "\(oracle.context): \(oracle.failures) of \(oracle.checked) differ")
    }

    // MARK: Chosen doubles

    @Test func edgeValuesMatchTheStandardLibrary() {
        var oracle = NumberOracle(context: "edge values")
        var values: [Double] = [
            0, .leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude,
            .ulpOfOne, .pi, 1.0 / 3, 2.0 / 3, 0.1, 0.2, 0.3, 172.5, 174.333_333_333_333_34, 1e-4, 1e-5, 1e15, 1e16,
            1e17, 1e21, 1e22, 1e23, 9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994,
            18_014_398_509_481_984, 123_456_789_012_345_680, 0.000_123_456_789_012_345_67,
        ]
        // Every power of two (each binade's boundary, where the gap below is half the gap above), subnormal ones
        // included, and its neighbours.
        for exponent in -1074...1023 { values.append(Double(sign: .plus, exponent: exponent, significand: 1)) }
        // Powers of ten and what lies around them, including where the layout switches form.
        for exponent in -323...308 { values.append(Double("1e\(exponent)")!) }
        // Integers around 2^53, where the integer path ends.
        for offset in -64...64 { values.append(9_007_199_254_740_992 + Double(offset) * 2) }
        // The smallest subnormals, every one, and the largest.
        for bits in 1...20_000 as ClosedRange<UInt64> { values.append(Double(bitPattern: bits)) }
        for bits in 0..<1_000 as Range<UInt64> { values.append(Double(bitPattern: (1 << 52) - 1 - bits)) }
        // Small integers and halves.
        for n in 0...20_000 { values.append(Double(n) / 2) }
        for value in values {
            for neighbour in [value, value.nextUp, value.nextDown, value.nextUp.nextUp, value.nextDown.nextDown]
            where neighbour.isFinite {
                oracle.check(neighbour)
                oracle.check(-neighbour)
            }
        }
        #expect(oracle.failures == 0, "\(oracle.failures) of \(oracle.checked) edge values differ")
    }

    @Test(
        arguments: [
            (172.5, "172.5"), (0.1, "0.1"), (1e-5, "1e-05"), (1e-4, "0.0001"), (.leastNonzeroMagnitude, "5e-324"),
            (.greatestFiniteMagnitude, "1.7976931348623157e+308"), (1e16, "1e+16"), (-0.0, "-0.0"), (120, "120"),
            (-3, "-3"), (9_007_199_254_740_992, "9007199254740992.0"), (9_007_199_254_740_994, "9.007199254740994e+15"),
            (174.333_333_333_333_34, "174.33333333333334"), (1.0 / 3, "0.3333333333333333"), (-2.5e-7, "-2.5e-07"),
            (1e100, "1e+100"), (123_456.7, "123456.7"), (2.2250738585072014e-308, "2.2250738585072014e-308"),
        ] as [(Double, String)])
    func writesTheDaemonsForm(_ value: Double, _ expected: String) {
        var writer = JSONWriter()
        writer.value(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
    }

    // MARK: Integers

    @Test func integersMatchTheDivisionLoop() {
        var rng = SplitMix64(seed: Self.seed ^ 0x1_7E6E)
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, .max, .min, .max - 1, .min + 1]
        for exponent in 1...18 {
            let power = Int64(Self.exactPowersOfTen[exponent])
            values += [power - 1, power, power + 1, -power + 1, -power, -power - 1]
        }
        for _ in 0..<(Self.cases / 10) {
            // Every length equally often: a random bit width, then random bits under it.
            let width = Int.random(in: 1...63, using: &rng)
            let magnitude = Int64(truncatingIfNeeded: rng.next() >> (64 - width))
            values.append(rng.next() & 1 == 0 ? magnitude : -magnitude)
        }
        var failures = 0
        let ours = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)
        let theirs = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)
        defer {
            ours.deallocate()
            theirs.deallocate()
        }
        for value in values {
            ours.initialize(repeating: 0xEE, count: 32)
            let count = NumberFormatting.integer(value, to: ours)
            let expected = NumberFormatting.referenceInteger(value, to: theirs)
            let text = String(decoding: UnsafeBufferPointer(start: ours, count: count), as: UTF8.self)
            let same = count == expected && (0..<count).allSatisfy { ours[$0] == theirs[$0] }
            if !same || (20..<32).contains(where: { ours[$0] != 0xEE }) {
                failures += 1
                if failures <= 20 { Issue.record("seed \(Self.seed): \(value) written as \(text)") }
            }
        }
        #expect(failures == 0)
    }

    // MARK: Private

    /// 10^0 to 10^22, each exactly a double.
    private static let exactPowersOfTen: [Double] = (0...22).map { Double("1e\($0)")! }
}
