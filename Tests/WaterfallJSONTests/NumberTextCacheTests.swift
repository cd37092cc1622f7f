import Testing
import WaterfallJSON

@Suite struct NumberTextCacheTests {
    /// Cached writes of values that repeat (a few column positions and widths, with colliding slots among them) and
    /// of values that never do give the same text as formatting each one.
    @Test(arguments: [1, 3, 40, 1_000] as [Int])
    func cachedTextEqualsFormattedText(distinctValues: Int) {
        var random = SplitMix64(seed: UInt64(distinctValues))
        let pool: [Double] = (0..<distinctValues).map { k in
            switch k % 4 {
            case 0: Double(k) * 1000 / 3
            case 1: Double.random(in: 0..<1e4, using: &random)
            case 2: Double(Int.random(in: -500...500, using: &random))
            default: Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            }
        }
        var cached = JSONWriter()
        var plain = JSONWriter()
        NumberTextCache.withCache { cache in
            cached.beginArray()
            plain.beginArray()
            for _ in 0..<5_000 {
                let value = random.chance(0.9) ? random.pick(pool) : Double.random(in: -1e9..<1e9, using: &random)
                cached.fragment(maximumLength: 2 * JSONFragment.numberLength + 1) { f in
                    f.number(value, cache: cache)
                    f.text(",")
                    f.number(value, cache: cache)
                }
                plain.fragment(maximumLength: 2 * JSONFragment.numberLength + 1) { f in
                    f.number(value)
                    f.text(",")
                    f.number(value)
                }
            }
            cached.endArray()
            plain.endArray()
        }
        #expect(Array(cached.bytes) == Array(plain.bytes), "seed \(distinctValues)")
    }
}
