import Testing
@_spi(Package) import WaterfallJSON

/// The cursor's number reads against the tape's (`JSONDocument`): the same value for every number text, down to
/// the sign of a zero, whatever follows it, and nothing for a token that is not a number.
@Suite struct JSONCursorTests {
    /// Texts at the edges of the one-pass integer read (15 digits, leading zeros, signs) and beyond it.
    static let texts: [String] = [
        "0", "-0", "7", "01", "00", "-01", "10", "120", "999", "123456789012345", "999999999999999",
        "1234567890123456", "9999999999999999", "9007199254740993", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "100000000000000000000", "1.5", "0.1", "-0.0", "1e3", "1E3",
        "1e-400", "1e309", "336.6666666666667", "1.", "-", ".5", "+1", "1e", "0x1", "",
        // At the edges of the one-pass decimal read (15 digits with a fraction, a zero before the point).
        "100.123", "0.5", "0.0", "00.5", "01.5", "1.50", "12345678901234.5", "1234567890123.45", "1234567890123456.7",
        "0.00000000000001", "0.000000000000001", "0.1e1", "-100.123", "1.5.2",
    ]

    /// What may follow a number: the end, a separator, whitespace, another byte (which the caller reads next), or
    /// one that would continue the token and makes it no number.
    static let followers = ["", ",", "}", "]", " ", "\n", "_", "x", ".", "e", "E"]
    static let ending: Set = ["", ",", "}", "]", " ", "\n", "_"]

    @Test(arguments: texts)
    func readsNumbersAsTheTapeDoesWhateverFollowsThem(_ text: String) {
        Self.check(text)
    }

    @Test func readsSeededIntegersOfEveryLengthAsTheTapeDoes() {
        var random = SplitMix64(seed: 0x5eed_d161)
        for _ in 0..<2_000 {
            let digits = Int.random(in: 1...20, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            for k in 0..<digits { text += String(Int.random(in: k == 0 ? 1...9 : 0...9, using: &random)) }
            if Int.random(in: 0..<4, using: &random) == 0 {
                text += "." + String(Int.random(in: 0...99, using: &random))
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                // A decimal of 2 to 17 digits, the most a double needs.
                let fraction = Int.random(in: 1...16, using: &random)
                text = String(Int.random(in: 0...9_999, using: &random)) + "."
                for _ in 0..<fraction { text += String(Int.random(in: 0...9, using: &random)) }
            }
            Self.check(text)
        }
    }

    // MARK: Helpers

    /// Each of the four reads of `text` and a follower: the tape's value of `text`, the cursor left after it,
    /// when `text` is a number and the follower ends it; nil otherwise.
    private static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        // In an array: a document's root is an object or an array.
        let node = (try? JSONDocument(parsing: "[" + text + "]"))?.root[0]
        for follower in followers {
            let ends = ending.contains(follower)
            let double = ends ? node?.double : nil
            let int64 = ends ? node?.int64 : nil
            let bytes = Array((text + follower).utf8)
            bytes.withUnsafeBufferPointer { buffer in
                var c = JSONCursor(buffer)
                let reads: [(String, Double?)] = [
                    ("number", read(buffer) { $0.number() }), ("compactNumber", read(buffer) { $0.compactNumber() }),
                    ("integer", read(buffer) { $0.integer().map(Double.init) }),
                    ("compactInteger", read(buffer) { $0.compactInteger().map(Double.init) }),
                    ("shortDecimalOrNumber", read(buffer) { $0.shortDecimal() ?? $0.number() }),
                ]
                for (name, value) in reads {
                    let expected = name.hasSuffix("umber") ? double : int64.map(Double.init)
                    #expect(
                        value.map { "\($0)" } == expected.map { "\($0)" }, "\(name) of \(text + follower)",
                        sourceLocation: sourceLocation)
                }
                if double != nil {
                    _ = c.number()
                    #expect(c.position == text.utf8.count, "\(text + follower)", sourceLocation: sourceLocation)
                }
                var d = JSONCursor(buffer)
                if d.shortDecimal() != nil {
                    #expect(d.position == text.utf8.count, "\(text + follower)", sourceLocation: sourceLocation)
                }
            }
        }
    }

    /// What `body` reads from a cursor at the start of `buffer`.
    private static func read<T>(_ buffer: UnsafeBufferPointer<UInt8>, _ body: (inout JSONCursor) -> T?) -> T? {
        var c = JSONCursor(buffer)
        return body(&c)
    }
}
