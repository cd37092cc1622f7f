import Testing
@_spi(Package) import WaterfallJSON

@Suite struct JSONNodeTests {
    // MARK: Typed access

    static let request =
        #"{"jsonrpc":"2.0","id":7,"method":"items.update","#
        + #""params":{"layout":"feed","section":0,"items":[{"i":3,"h":120},{"i":4,"h":99.5,"id":"x\n"}]}}"#

    @Test func readsARequestFieldByField() throws {
        let root = try JSONDocument(parsing: Self.request).root
        #expect(root.kind == .object)
        #expect(root.count == 4)
        #expect(root["jsonrpc"]?.isEqual(toKey: "2.0") == true)
        #expect(root["id"]?.int64 == 7)
        #expect(root["method"]?.string == "items.update")
        #expect(root["missing"] == nil)
        #expect(root["id"]?.string == nil)
        let params = try #require(root["params"])
        #expect(params["layout"]?.isEqual(to: "feed") == true)
        #expect(params.member("section")?.int == 0)
        let items = try #require(params["items"])
        #expect(items.kind == .array && items.count == 2)
        #expect(items.elements.map { $0["i"]?.int ?? -1 } == [3, 4])
        #expect(items[1]?["h"]?.double == 99.5)
        #expect(items[1]?["h"]?.int64 == nil)
        #expect(items[1]?["id"]?.string == "x\n")
        #expect(items[2] == nil && items[-1] == nil)
        #expect(root.members.map { $0.key.string ?? "" } == ["jsonrpc", "id", "method", "params"])
        #expect(String(decoding: params["items"]![0]!.rawBytes, as: UTF8.self) == #"{"i":3,"h":120}"#)
        #expect(String(decoding: root["method"]!.rawBytes, as: UTF8.self) == #""items.update""#)
    }

    @Test func accessorsReturnNilForOtherKinds() throws {
        let root = try JSONDocument(parsing: #"[null,true,false,"s",1,{},[]]"#).root
        let nodes = Array(root.elements)
        #expect(nodes.map(\.kind) == [.null, .bool, .bool, .string, .number, .object, .array])
        #expect(nodes[0].isNull && !nodes[1].isNull)
        #expect(nodes.map(\.bool) == [nil, true, false, nil, nil, nil, nil])
        #expect(nodes.compactMap(\.int64) == [1])
        #expect(nodes.compactMap(\.string) == ["s"])
        #expect(nodes[3].isEqual(toKey: "s") && !nodes[4].isEqual(toKey: "1"))
        #expect(nodes[4].count == 0 && nodes[4].elements.underestimatedCount == 0)
        #expect(Array(nodes[5].members).isEmpty && Array(nodes[6].elements).isEmpty)
        #expect(nodes[6]["k"] == nil && nodes[5][0] == nil)
    }

    @Test func keysWithEscapesCompareByValue() throws {
        let root = try JSONDocument(parsing: #"{"\u0069d":1,"a\"b":2,"é":3}"#).root
        #expect(root["id"]?.int == 1)
        #expect(root.member("a\"b")?.int == 2)
        #expect(root["é"]?.int == 3)
        #expect(root.members.first { $0.key.isEqual(toKey: "id") }?.value.int == 1)
        #expect(root["i"] == nil && root["ide"] == nil)
    }

    // MARK: Numbers

    static let integers: [(String, Int64?)] = [
        ("0", 0), ("-0", 0), ("42", 42), ("-42", -42), ("9223372036854775807", .max),
        ("-9223372036854775808", .min), ("9223372036854775808", nil), ("-9223372036854775809", nil),
        ("99999999999999999999", nil), ("1.0", nil), ("1e2", nil), ("100000000000000000000000", nil),
    ]

    @Test(arguments: integers)
    func int64IsExactOrNil(_ text: String, _ expected: Int64?) throws {
        #expect(try JSONDocument(parsing: text).root.int64 == expected)
    }

    static let hardDoubles = [
        "0", "-0", "0.1", "0.3", "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308", "9007199254740993",
        "9007199254740992.5", "123456789012345678901234567890", "0.000000000000000000000000000001",
        "179769313486231580793728971405301e276", "7.2057594037927933e16", "1e23", "8.98846567431158e307",
        "1448997445238699", "5e-324", "100000000000000000000000e-23", "3.141592653589793238462643383279",
        "0.1e1", "12345678901234567890", "1234567890123456789", "9.999999999999999e22", "4503599627370496.5",
    ]

    @Test(arguments: hardDoubles)
    func doubleIsCorrectlyRounded(_ text: String) throws {
        let value = try #require(try JSONDocument(parsing: text).root.double)
        #expect(value.bitPattern == Double(text)!.bitPattern)
    }

    @Test func fastPathAgreesWithTheStandardLibrary() throws {
        var rng = SplitMix64(seed: 0xD0_0B1E)
        var reader = JSONReader()
        for _ in 0..<20_000 {
            var text = rng.chance(0.5) ? "-" : ""
            text += String(UInt64.random(in: 0...(rng.chance(0.5) ? 1 << 53 : .max), using: &rng))
            if rng.chance(0.5) {
                let cut = Int.random(in: 1..<max(2, text.count), using: &rng)
                let digits = text.drop { $0 == "-" }
                if cut < digits.count {
                    text = (text.hasPrefix("-") ? "-" : "") + digits.prefix(cut) + "." + digits.dropFirst(cut)
                }
            }
            if rng.chance(0.5) { text += "e" + String(Int.random(in: -40...40, using: &rng)) }
            guard text.first != "0" || text.count == 1 || text.dropFirst().first == "." else { continue }
            let value = try reader.parse(text).root.double
            #expect(value?.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}
