/// A tiny seeded generator (Steele, Lea and Flood's SplitMix64), so every random test can be replayed by seed.
struct SplitMix64: RandomNumberGenerator {
    // MARK: Lifecycle

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) {
        state = seed
    }

    // MARK: Internal

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random element of a non-empty array.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &self)]
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }

    // MARK: Private

    /// The generator's whole state.
    private var state: UInt64
}
