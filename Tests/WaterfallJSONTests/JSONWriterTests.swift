import Foundation
import Testing
@_spi(Package) import WaterfallJSON

@Suite struct JSONWriterTests {
    // MARK: Values

    static let values: [(JSONValue, String)] = [
        (nil, "null"), (true, "true"), (false, "false"), (0, "0"), (-7, "-7"), (.int(.max), "9223372036854775807"),
        (.int(.min), "-9223372036854775808"), (120.0, "120"), (-3.0, "-3"), (172.5, "172.5"), (0.00001, "1e-05"),
        (1e16, "1e+16"), (9_007_199_254_740_991.0, "9007199254740991"), (9_007_199_254_740_992.0, "9007199254740992.0"),
        (.double(-0.0), "-0.0"), (0.1, "0.1"), (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
        ("", #""""#), ("a/b", #""a/b""#), ("é😀", "\"é😀\""), ("\"\\", #""\"\\""#),
        ("\u{8}\u{C}\n\r\t", #""\b\f\n\r\t""#), ("\u{0}\u{1}\u{1F}\u{7F}", "\"\\u0000\\u0001\\u001f\u{7F}\""),
        ([], "[]"), ([:], "{}"), ([1, [2, []], [:]], "[1,[2,[]],{}]"),
        (["a": 1, "b": [true, nil], "c": ["d": "e"]], #"{"a":1,"b":[true,null],"c":{"d":"e"}}"#),
        (["k\"ey\n": 1], #"{"k\"ey\n":1}"#),
    ]

    @Test(arguments: values)
    func writesCompactJSON(_ value: JSONValue, _ expected: String) throws {
        var writer = JSONWriter()
        writer.write(value)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        #expect(try JSONValue(parsing: expected) == value)
    }

    // MARK: Structure

    @Test func buildsAReplyWithStaticKeys() {
        var writer = JSONWriter(capacity: 16)
        writer.beginObject()
        writer.member("jsonrpc", "2.0")
        writer.member("id", 7)
        writer.key("result")
        writer.beginObject()
        writer.key("items")
        writer.beginArray()
        for i in 0..<3 {
            writer.beginObject()
            writer.member("i", i)
            writer.member("w", 172.5)
            writer.member("ok", i == 1)
            writer.endObject()
        }
        writer.null()
        writer.endArray()
        writer.key(string: "dyn\"amic")
        writer.raw(Array(#"{"copied":[1,2]}"#.utf8)[...])
        writer.endObject()
        writer.endObject()
        writer.newline()
        let expected =
            #"{"jsonrpc":"2.0","id":7,"result":{"items":[{"i":0,"w":172.5,"ok":false},"#
            + #"{"i":1,"w":172.5,"ok":true},{"i":2,"w":172.5,"ok":false},null],"dyn\"amic":{"copied":[1,2]}}}"# + "\n"
        #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
        #expect(writer.byteCount == expected.utf8.count)
        #expect(writer.withUnsafeBytes { Array($0) } == Array(expected.utf8))
    }

    @Test func resetKeepsNothingButCapacity() {
        var writer = JSONWriter()
        writer.beginArray()
        writer.beginObject()
        writer.reset()
        writer.value(1)
        writer.newline()
        writer.value("two")
        writer.newline()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "1\n\"two\"\n")
    }

    @Test func commasSurviveDeepNesting() throws {
        var writer = JSONWriter()
        for depth in 0..<200 {
            writer.beginArray()
            writer.value(depth)
        }
        for depth in 0..<200 {
            writer.endArray()
            if depth < 199 { writer.value(true) }
        }
        let document = try JSONDocument(parsing: writer.bytes, maximumDepth: 200)
        #expect(document.nodeCount == 599)
        #expect(document.root[0]?.int == 0 && document.root[1]?[1]?[2]?.bool == true)
    }

    @Test func splicesANodeVerbatim() throws {
        let document = try JSONDocument(parsing: #"{"id":"\u0041b","params":{"x":[1,2.50]}}"#)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id")
        writer.raw(try #require(document.root["id"]))
        writer.key("echo")
        writer.raw(try #require(document.root["params"]))
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"id":"\u0041b","echo":{"x":[1,2.50]}}"#)
    }

    #if DEBUG
        @Test func nanAndInfinityAssertInDebugBuilds() async {
            // Release builds write null instead; a debug build stops at the bug that produced the value.
            await #expect(processExitsWith: .failure) {
                var writer = JSONWriter()
                writer.value(Double.nan)
            }
            await #expect(processExitsWith: .failure) {
                var writer = JSONWriter()
                writer.member("w", -Double.infinity)
            }
        }
    #endif

    // MARK: Round trips

    @Test func fragmentsTakeTheirCommasFromTheContainer() throws {
        var w = JSONWriter(capacity: 16)
        w.beginArray()
        w.fragment(maximumLength: 40) { f in
            f.text(#"{"i":"#)
            f.integer(-42)
            f.text(#","x":"#)
            f.number(172.5)
            f.text(#","s":"#)
            f.string("a\"b\n\u{1}é")
            f.text("}")
        }
        w.fragment(maximumLength: JSONFragment.numberLength) { $0.number(1e300) }
        w.beginObject()
        w.keyFragment(maximumLength: 20) { f in
            f.text(#""n":1,"k":"#)
        }
        w.value(true)
        w.fragment(maximumLength: 20) { $0.text(#""m":null"#) }
        w.endObject()
        w.endArray()
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"[{"i":-42,"x":172.5,"s":"a\"b\n\u0001é"},1e+300,{"n":1,"k":true,"m":null}]"#)
        var reader = JSONReader()
        #expect(
            try reader.parse(Array(w.bytes)).root.value
                == .array([
                    .object([("i", .int(-42)), ("x", .double(172.5)), ("s", .string("a\"b\n\u{1}é"))]), .double(1e300),
                    .object([("n", .int(1)), ("k", .bool(true)), ("m", .null)]),
                ]))
    }

    @Test func randomValuesRoundTripThroughReaderAndFoundation() throws {
        let seed: UInt64 = 0x5EED_0001
        var generator = RandomJSON(rng: SplitMix64(seed: seed))
        var reader = JSONReader()
        var writer = JSONWriter()
        for iteration in 0..<5_000 {
            let value = generator.jsonValue()
            writer.reset()
            writer.write(value)
            let bytes = Array(writer.bytes)
            let parsed = try reader.parse(bytes).root.value
            #expect(parsed == value, "seed \(seed) iteration \(iteration): \(value)")
            guard let object = FoundationOracle.parse(bytes) else {
                Issue.record("Foundation rejects writer output, seed \(seed) iteration \(iteration): \(value)")
                continue
            }
            if let difference = FoundationOracle.difference(parsed, object) {
                Issue.record("seed \(seed) iteration \(iteration): \(difference)")
            }
        }
    }
}

extension JSONDocument {
    /// Parses a writer's output slice.
    fileprivate init(parsing bytes: ArraySlice<UInt8>, maximumDepth: Int) throws {
        var reader = JSONReader(maximumDepth: maximumDepth)
        self = try reader.parse(bytes)
    }
}
