import Testing
@_spi(Package) import WaterfallJSON

/// Duplicate keys: a hash filter lets most objects skip the exact check, so the exact check must still run whenever
/// two keys might be equal (same hash, escapes), in any object of any nesting.
@Suite struct JSONScannerKeysTests {
    static let rejected = [
        // "a" and "as" share a hash bit: the exact check runs and finds the real duplicate, not the collision.
        RejectCase(#"{"a":1,"as":2,"a":3}"#, .duplicateKey("a"), at: 14),
        // A key with escapes always takes the exact check.
        RejectCase(#"{"\u0061":1,"b":2,"a":3}"#, .duplicateKey("a"), at: 18),
        // The outer object's filter is kept while a nested object is open, and restored after it.
        RejectCase(#"{"a":{"a":1,"b":2},"b":{"c":3},"a":4}"#, .duplicateKey("a"), at: 31),
        RejectCase(#"[{"k":1},{"x":[{"y":1,"y":2}]}]"#, .duplicateKey("y"), at: 22),
        // More keys than the pairwise check takes: a set of decoded keys.
        RejectCase("{" + (0..<20).map { #""k\#($0)":0,"# }.joined() + #""k7":1}"#, .duplicateKey("k7"), at: 151),
    ]

    @Test(arguments: rejected)
    func rejectsDuplicates(_ testCase: RejectCase) {
        #expect(throws: JSONError(testCase.reason, at: testCase.offset)) {
            try JSONDocument(parsing: testCase.input[...])
        }
    }

    static let accepted = [
        #"{"a":1,"as":2,"ef":3}"#, #"{"k":{"a":1},"a":2}"#, #"[{"a":1},{"a":1}]"#, #"{"":1,"a":{"":2}}"#,
        "{" + (0..<70).map { #""k\#($0)":0"# }.joined(separator: ",") + "}",
    ]

    @Test(arguments: accepted)
    func acceptsDistinctKeys(_ text: String) throws {
        _ = try JSONDocument(parsing: text)
    }

    /// Flat objects of keys drawn from a small pool (hash collisions and escaped spellings included), nested at a
    /// random depth, against a direct reference: the first key equal to an earlier one, at its offset.
    @Test func findsTheFirstDuplicateOfGeneratedObjects() throws {
        // Raw spelling and decoded value.
        let pool: [(String, String)] = [
            ("a", "a"), ("as", "as"), ("ef", "ef"), ("b", "b"), ("bt", "bt"), ("\\u0061", "a"), ("id", "id"),
            ("i\\u0064", "id"), ("method", "method"), ("params", "params"), ("", ""), ("é", "é"), ("\\u00e9", "é"),
        ]
        var rng = SplitMix64(seed: 0xD0_0B1E_5EED)
        var reader = JSONReader()
        for iteration in 0..<5_000 {
            let depth = Int.random(in: 0...3, using: &rng)
            var text = String(repeating: #"{"o":[1,{"p":2},"#, count: depth)
            var seen = Set<String>()
            var expected: (key: String, offset: Int)?
            text += "{"
            for k in 0..<Int.random(in: 0...8, using: &rng) {
                let (raw, decoded) = rng.pick(pool)
                if k > 0 { text += "," }
                if expected == nil && !seen.insert(decoded).inserted { expected = (decoded, text.utf8.count) }
                text += #""\#(raw)":\#(k)"#
            }
            text += "}" + String(repeating: "]}", count: depth)
            let context = "iteration \(iteration): \(text)"
            do {
                _ = try reader.parse(text)
                #expect(expected == nil, "\(context): accepted")
            } catch {
                #expect(
                    error == JSONError(.duplicateKey(expected?.key ?? "-"), at: expected?.offset ?? -1), "\(context)")
            }
        }
    }
}
