import Testing
@_spi(Package) import WaterfallJSON

/// Views: the same typed access as nodes, without reference counting; they must agree with nodes everywhere.
@Suite struct JSONViewTests {
    // MARK: Typed access

    @Test func readsARequestFieldByField() throws {
        let document = try JSONDocument(parsing: JSONNodeTests.request)
        try document.withRoot { root in
            #expect(root.kind == .object && root.count == 4)
            #expect(root["jsonrpc"]?.isEqual(toKey: "2.0") == true)
            #expect(root["id"]?.int64 == 7)
            #expect(root["method"]?.string == "items.update")
            #expect(root["missing"] == nil && root["id"]?.string == nil)
            let params = try #require(root["params"])
            #expect(params.positionedMember("section")?.position == 1)
            #expect(params.positionedMember("section")?.value.int == 0)
            let items = try #require(params["items"])
            #expect(items.kind == .array && items.count == 2)
            #expect(items.elements.map { $0["i"]?.int ?? -1 } == [3, 4])
            #expect(items[1]?["h"]?.double == 99.5 && items[1]?["h"]?.int64 == nil)
            #expect(items[1]?["id"]?.string == "x\n")
            #expect(items[2] == nil && items[-1] == nil)
            #expect(root.members.map { $0.key.string ?? "" } == ["jsonrpc", "id", "method", "params"])
            #expect(String(decoding: items[0]!.rawBytes, as: UTF8.self) == #"{"i":3,"h":120}"#)
            #expect(root["method"]?.byteOffset == 33)
        }
    }

    @Test func membersByPosition() throws {
        let document = try JSONDocument(parsing: #"{"a":1,"b":[2],"c":{"d":3}}"#)
        document.withRoot { root in
            #expect(root.member(at: 0)?.key.string == "a")
            #expect(root.member(at: 1)?.value[0]?.int == 2)
            #expect(root.member(at: 2)?.value["d"]?.int == 3)
            #expect(root.member(at: 3) == nil && root.member(at: -1) == nil)
            #expect(root["b"]?.member(at: 0) == nil, "not an object")
        }
    }

    @Test func keysWithEscapesCompareByValue() throws {
        let document = try JSONDocument(parsing: #"{"\u0069d":1,"a\"b":2,"é":3}"#)
        document.withRoot { root in
            #expect(root["id"]?.int == 1)
            #expect(root["é"]?.int == 3)
            #expect(root.members.first { $0.key.isEqual(toKey: "id") }?.value.int == 1)
            #expect(root["i"] == nil && root["ide"] == nil)
        }
    }

    @Test func nodesAndViewsConvertIntoEachOther() throws {
        let document = try JSONDocument(parsing: #"{"a":[true,null,"s"]}"#)
        let array = try #require(document.withRoot { $0["a"] }.map(document.node(for:)))
        #expect(array.value == [true, nil, "s"])
        let last = try #require(array.withView { $0[2] }.map(array.node(for:)))
        #expect(last.string == "s" && last.byteOffset == 16)
    }

    // MARK: Numbers

    /// The short-integer fast paths end at 18 bytes (int64) and 15 bytes (exact double); either side of each.
    static let integers = [
        "0", "-0", "7", "-7", "120", "999999999999999", "-99999999999999", "9999999999999999", "-999999999999999",
        "999999999999999999", "-99999999999999999", "1000000000000000000", "-999999999999999999",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
    ]

    @Test(arguments: integers)
    func integersMatchTheStandardLibrary(_ text: String) throws {
        let document = try JSONDocument(parsing: text)
        #expect(document.withRoot { $0.int64 } == Int64(text))
        #expect(document.withRoot { $0.double }?.bitPattern == Double(text)!.bitPattern)
    }

    // MARK: Agreement with nodes

    @Test func viewsAgreeWithNodesOnGeneratedDocuments() throws {
        var generator = RandomJSON(rng: SplitMix64(seed: 0x5EE_D0C5))
        var reader = JSONReader(maximumDepth: 512)
        for iteration in 0..<2_000 {
            let text = generator.document()
            guard let document = try? reader.parse(text) else { continue }
            let node = document.root
            let fromViews = document.withRoot { Self.value(of: $0) }
            #expect(fromViews == node.value, "iteration \(iteration): \(text.debugDescription)")
        }
    }

    /// The tree of `view`, read through views only.
    private static func value(of view: JSONView) -> JSONValue {
        switch view.kind {
        case .null: return .null
        case .bool: return .bool(view.bool ?? false)
        case .number: return view.int64.map(JSONValue.int) ?? .double(view.double ?? .nan)
        case .string: return .string(view.string ?? "")
        case .array: return .array(view.elements.map(value(of:)))
        case .object: return .object(view.members.map { (key: $0.key.string ?? "", value: value(of: $0.value)) })
        }
    }
}
