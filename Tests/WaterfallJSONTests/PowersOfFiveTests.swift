import Foundation
import Testing

@testable import WaterfallJSON

/// The committed table of `PowersOfFive` against its definition, recomputed with exact big-integer arithmetic.
///
/// `WATERFALL_PRINT_POWERS=1 swift test --filter PowersOfFive` prints the table's entries as Swift source, to
/// paste into `PowersOfFive.swift` should its range ever change.
@Suite struct PowersOfFiveTests {
    @Test func tableMatchesExactArithmetic() throws {
        let range = PowersOfFive.minimumPower...PowersOfFive.maximumPower
        try #require(PowersOfFive.significands.count == 2 * range.count)
        var source = ""
        for q in range {
            let (expected, _) = Self.significand(ofPowerOfTen: q)
            let index = 2 * (q - PowersOfFive.minimumPower)
            let entry = (PowersOfFive.significands[index], PowersOfFive.significands[index + 1])
            #expect(entry == expected, "10^\(q): 0x\(String(entry.0, radix: 16)) \(String(entry.1, radix: 16))")
            source += "        \(Self.hex(expected.high)), \(Self.hex(expected.low)),  // 1e\(q)\n"
        }
        if ProcessInfo.processInfo.environment["WATERFALL_PRINT_POWERS"] != nil { print(source, terminator: "") }
    }

    /// `eiselLemireBits` takes ⌊q · log₂ 10⌋ to be (217706 · q) >> 16: true across the table.
    @Test func binaryExponentApproximationIsExact() {
        for q in PowersOfFive.minimumPower...PowersOfFive.maximumPower {
            let (_, floorLog2) = Self.significand(ofPowerOfTen: q)
            #expect((217_706 * q) >> 16 == floorLog2, "10^\(q)")
        }
    }

    // MARK: Private

    /// ⌊10^q · 2^(127 − ⌊log₂ 10^q⌋)⌋ as two words, and ⌊log₂ 10^q⌋, by exact arithmetic on 5^|q|.
    private static func significand(ofPowerOfTen q: Int) -> ((high: UInt64, low: UInt64), Int) {
        let power = BigUInt.powersOfFive[abs(q)]
        let width = power.bitWidth
        var value: BigUInt
        let floorLog2: Int
        if q >= 0 {
            // 10^q = 5^q · 2^q, and 2^(width − 1) ≤ 5^q < 2^width: keep the top 128 bits of 5^q.
            value = power
            if width <= 128 { value.shiftLeft(by: 128 - width) } else { value.shiftRight(by: width - 128) }
            floorLog2 = q + width - 1
        } else {
            // 10^q = 2^q / 5^|q|, and 5^|q| is no power of two, so ⌊log₂ 10^q⌋ = q − width; divide 2^(127 + width)
            // by 5^|q| one factor 5^k at a time (⌊⌊x / a⌋ / b⌋ = ⌊x / ab⌋) for the 128 bits below 2^128.
            value = BigUInt(1)
            value.shiftLeft(by: 127 + width)
            var remaining = -q
            while remaining > 0 {
                let k = min(remaining, 27)
                value.divide(by: Self.powerOfFive(k))
                remaining -= k
            }
            floorLog2 = q - width
        }
        let limbs = value.limbs + [0, 0]
        #expect(value.bitWidth == 128, "10^\(q) normalized to \(value.bitWidth) bits")
        return ((limbs[1], limbs[0]), floorLog2)
    }

    /// 5^k for k ≤ 27 (5^27 < 2^63).
    private static func powerOfFive(_ k: Int) -> UInt64 {
        (0..<k).reduce(1) { product, _ in product * 5 }
    }

    /// `value` as the table spells it: 0x and four groups of four hex digits.
    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 16 - digits.count) + digits
        var groups: [Substring] = []
        var start = padded.startIndex
        while start < padded.endIndex {
            let end = padded.index(start, offsetBy: 4)
            groups.append(padded[start..<end])
            start = end
        }
        return "0x" + groups.joined(separator: "_")
    }
}
