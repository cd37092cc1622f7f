import Testing
@_spi(Package) import WaterfallJSON

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

    /// A lasting cache, used by one call after another as a session's replies use it, keeps giving the text that
    /// formatting gives: its slots hold the texts of earlier calls, colliding or not.
    @Test func lastingCacheTextEqualsFormattedTextAcrossCalls() {
        var random = SplitMix64(seed: 7)
        let pool: [Double] = (0..<24).map { (k: Int) -> Double in
            let value = Double(k)
            return k % 2 == 0 ? value * 1000 / 3 : value + 0.5
        }
        let lasting = LastingNumberTextCache()
        var cached = JSONWriter()
        var plain = JSONWriter()
        cached.beginArray()
        plain.beginArray()
        for _ in 0..<200 {
            NumberTextCache.with(lasting) { cache in
                for _ in 0..<5 {
                    let value = random.chance(0.8) ? random.pick(pool) : Double.random(in: -1e6..<1e6, using: &random)
                    cached.fragment(maximumLength: JSONFragment.numberLength) { $0.number(value, cache: cache) }
                    plain.fragment(maximumLength: JSONFragment.numberLength) { $0.number(value) }
                }
            }
        }
        cached.endArray()
        plain.endArray()
        #expect(Array(cached.bytes) == Array(plain.bytes))
    }
}
