import Testing
@_spi(Package) import WaterfallJSON

/// An input the reader must accept, and the value it must produce.
struct AcceptCase: Sendable, CustomTestStringConvertible {
    let input: [UInt8]
    let expected: JSONValue
    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }

    init(_ text: String, _ expected: JSONValue) {
        self.input = Array(text.utf8)
        self.expected = expected
    }

    init(bytes: [UInt8], _ expected: JSONValue) {
        self.input = bytes
        self.expected = expected
    }
}

/// An input the reader must reject, with the reason and byte offset it must report.
struct RejectCase: Sendable, CustomTestStringConvertible {
    let input: [UInt8]
    let reason: JSONError.Reason
    let offset: Int
    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }

    init(_ text: String, _ reason: JSONError.Reason, at offset: Int) {
        self.init(bytes: Array(text.utf8), reason, at: offset)
    }

    init(bytes: [UInt8], _ reason: JSONError.Reason, at offset: Int) {
        self.input = bytes
        self.reason = reason
        self.offset = offset
    }
}

@Suite struct JSONReaderTests {
    // MARK: Grammar

    static let accepted: [AcceptCase] = [
        // Literals and whitespace.
        AcceptCase("null", nil), AcceptCase("true", true), AcceptCase("false", false),
        AcceptCase(" \t\r\n[ 1 , 2 ]\n", [1, 2]), AcceptCase("\n{ \"a\" : 1 }\r\n", ["a": 1]),
        // Numbers.
        AcceptCase("0", 0), AcceptCase("-0", 0), AcceptCase("1", 1), AcceptCase("-1", -1), AcceptCase("123", 123),
        AcceptCase("1.5", 1.5), AcceptCase("-1.5e3", -1500.0), AcceptCase("1E2", 100.0), AcceptCase("1e+2", 100.0),
        AcceptCase("1e-2", 0.01), AcceptCase("0.0", 0.0), AcceptCase("1e05", 100_000.0), AcceptCase("0e400", 0.0),
        AcceptCase("9223372036854775807", .int(.max)), AcceptCase("-9223372036854775808", .int(.min)),
        AcceptCase("9223372036854775808", .double(9_223_372_036_854_775_808)), AcceptCase("1e-400", 0.0),
        AcceptCase("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        // Strings and escapes.
        AcceptCase("\"\"", ""), AcceptCase("\"abc\"", "abc"),
        AcceptCase(#""\" \\ \/ \b \f \n \r \t""#, "\" \\ / \u{8} \u{C} \n \r \t"),
        AcceptCase(#""\u0041\u00e9\u00E9\u20AC""#, "Aéé€"), AcceptCase(#""\uD83D\uDE00""#, "😀"),
        AcceptCase(#""\udbff\udfff""#, "\u{10FFFF}"), AcceptCase(#""a\u0000b""#, "a\u{0}b"),
        AcceptCase(#""\uFFFF""#, "\u{FFFF}"), AcceptCase("\"é€😀\"", "é€😀"), AcceptCase("\"\u{7F}\"", "\u{7F}"),
        AcceptCase(bytes: [0x22, 0xC2, 0x80, 0x22], "\u{80}"), AcceptCase(bytes: [0x22, 0xDF, 0xBF, 0x22], "\u{7FF}"),
        AcceptCase(bytes: [0x22, 0xE0, 0xA0, 0x80, 0x22], "\u{800}"),
        AcceptCase(bytes: [0x22, 0xED, 0x9F, 0xBF, 0x22], "\u{D7FF}"),
        AcceptCase(bytes: [0x22, 0xEE, 0x80, 0x80, 0x22], "\u{E000}"),
        AcceptCase(bytes: [0x22, 0xF0, 0x90, 0x80, 0x80, 0x22], "\u{10000}"),
        AcceptCase(bytes: [0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22], "\u{10FFFF}"),
        // Containers.
        AcceptCase("[]", []), AcceptCase("{}", [:]), AcceptCase("[1,[2,[3]]]", [1, [2, [3]]]),
        AcceptCase(#"{"a":{"b":[]},"c":null}"#, ["a": ["b": []], "c": nil]),
        AcceptCase(#"{"a":1,"A":2,"a ":3}"#, ["a": 1, "A": 2, "a ": 3]),
        AcceptCase(#"[{},[],"",0,false]"#, [[:], [], "", 0, false]),
    ]

    @Test(arguments: accepted)
    func accepts(_ testCase: AcceptCase) throws {
        let document = try JSONDocument(parsing: testCase.input[...])
        #expect(document.root.value == testCase.expected)
    }

    static let rejected: [RejectCase] = [
        // Framing.
        RejectCase("", .empty, at: 0), RejectCase(" \r\n\t", .empty, at: 4),
        RejectCase("\u{FEFF}1", .unexpectedByte(0xEF), at: 0), RejectCase("1 2", .unexpectedByte(0x32), at: 2),
        RejectCase("[1]x", .unexpectedByte(0x78), at: 3), RejectCase("\u{C}1", .unexpectedByte(0x0C), at: 0),
        RejectCase("[1,]", .unexpectedByte(0x5D), at: 3), RejectCase(#"{"a":1,}"#, .unexpectedByte(0x7D), at: 7),
        RejectCase("[1 2]", .unexpectedByte(0x32), at: 3), RejectCase(#"{"a" 1}"#, .unexpectedByte(0x31), at: 5),
        RejectCase("{1:2}", .unexpectedByte(0x31), at: 1), RejectCase("[", .unexpectedEnd, at: 1),
        RejectCase("]", .unexpectedByte(0x5D), at: 0), RejectCase("{", .unexpectedEnd, at: 1),
        RejectCase("[1}", .unexpectedByte(0x7D), at: 2), RejectCase(#"{"a":}"#, .unexpectedByte(0x7D), at: 5),
        RejectCase(#"{"a"}"#, .unexpectedByte(0x7D), at: 4), RejectCase("[,1]", .unexpectedByte(0x2C), at: 1),
        RejectCase("'a'", .unexpectedByte(0x27), at: 0), RejectCase("NaN", .unexpectedByte(0x4E), at: 0),
        // Literals.
        RejectCase("tru", .unexpectedEnd, at: 3), RejectCase("trUe", .unexpectedByte(0x55), at: 2),
        RejectCase("nul", .unexpectedEnd, at: 3), RejectCase("falsey", .unexpectedByte(0x79), at: 5),
        // Numbers.
        RejectCase("01", .unexpectedByte(0x31), at: 1), RejectCase("-", .unexpectedEnd, at: 1),
        RejectCase("1.", .unexpectedEnd, at: 2), RejectCase("1.e5", .invalidNumber, at: 2),
        RejectCase(".5", .unexpectedByte(0x2E), at: 0), RejectCase("+1", .unexpectedByte(0x2B), at: 0),
        RejectCase("1e", .unexpectedEnd, at: 2), RejectCase("1e+", .unexpectedEnd, at: 3),
        RejectCase("1e+x", .invalidNumber, at: 3), RejectCase("-a", .invalidNumber, at: 1),
        RejectCase("-01", .unexpectedByte(0x31), at: 2), RejectCase("0x10", .unexpectedByte(0x78), at: 1),
        RejectCase("1e400", .numberOutOfRange, at: 0), RejectCase("[-1e400]", .numberOutOfRange, at: 1),
        RejectCase("1" + String(repeating: "0", count: 309), .numberOutOfRange, at: 0),
        RejectCase("1.7976931348623159e308", .numberOutOfRange, at: 0),
        // Strings.
        RejectCase("\"abc", .unexpectedEnd, at: 4), RejectCase("\"\u{1}\"", .controlCharacter(1), at: 1),
        RejectCase("\"a\tb\"", .controlCharacter(9), at: 2), RejectCase("\"a\nb\"", .controlCharacter(10), at: 2),
        RejectCase(#""\x""#, .invalidEscape, at: 1), RejectCase(#""\u12G4""#, .invalidEscape, at: 1),
        RejectCase(#""\U0041""#, .invalidEscape, at: 1), RejectCase(#""\u004"#, .unexpectedEnd, at: 6),
        RejectCase(#""\"#, .unexpectedEnd, at: 2),
        RejectCase(#""\uD800""#, .loneSurrogate, at: 1), RejectCase(#""\uDC00""#, .loneSurrogate, at: 1),
        RejectCase(#""\uD800\u0041""#, .loneSurrogate, at: 1), RejectCase(#""\uD800\uD800""#, .loneSurrogate, at: 1),
        RejectCase(#""\uDBFFx""#, .loneSurrogate, at: 1), RejectCase(#""a\uDFFF\uD800""#, .loneSurrogate, at: 2),
        // UTF-8.
        RejectCase(bytes: [0x22, 0xC0, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xC1, 0xBF, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xE0, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xE0, 0x9F, 0xBF, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xED, 0xBF, 0xBF, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xFF, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0x80, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0x61, 0xBF, 0x22], .invalidUTF8, at: 2),
        RejectCase(bytes: [0x22, 0xE2, 0x82, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xF0, 0x9F, 0x98, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xC3], .invalidUTF8, at: 1),
        RejectCase(bytes: [0x22, 0xC3, 0x28, 0x22], .invalidUTF8, at: 1),
        RejectCase(bytes: [0xC3, 0xA9], .unexpectedByte(0xC3), at: 0),
        // Duplicate keys, compared after unescaping.
        RejectCase(#"{"a":1,"a":2}"#, .duplicateKey("a"), at: 7),
        RejectCase(#"{"a":1,"b":2,"\u0061":3}"#, .duplicateKey("a"), at: 13),
        RejectCase(#"{"x":{"id":1,"id":2}}"#, .duplicateKey("id"), at: 13),
    ]

    @Test(arguments: rejected)
    func rejects(_ testCase: RejectCase) {
        #expect(throws: JSONError(testCase.reason, at: testCase.offset)) {
            try JSONDocument(parsing: testCase.input[...])
        }
    }

    @Test func specialBytesAreFoundAtEveryPositionOfAWord() throws {
        // The string scanner inspects eight bytes at a time; put each kind of special byte at each offset.
        let specials: [(text: String, decoded: String)] = [("\\n", "\n"), ("é", "é"), ("😀", "😀"), ("\\u00e9", "é")]
        for position in 0..<20 {
            let prefix = String(repeating: "a", count: position)
            for special in specials {
                let document = try JSONDocument(parsing: "[\"" + prefix + special.text + "bcdefghij\"]")
                #expect(document.root[0]?.string == prefix + special.decoded + "bcdefghij")
            }
            let control = Array(("[\"" + prefix).utf8) + [0x1F] + Array("bcdefghij\"]".utf8)
            #expect(throws: JSONError(.controlCharacter(0x1F), at: position + 2)) {
                try JSONDocument(parsing: control[...])
            }
            let terminated = try JSONDocument(parsing: "[\"" + prefix + "\",\"bcdefghij\"]")
            #expect(terminated.root.value == [.string(prefix), "bcdefghij"])
        }
    }

    // MARK: Nesting

    @Test(arguments: [("[", "]"), ("{\"k\":", "}")])
    func nestingAtLimitIsAcceptedAndBeyondIsRejected(open: String, close: String) throws {
        let atLimit = String(repeating: open, count: 64) + "1" + String(repeating: close, count: 64)
        #expect(try JSONDocument(parsing: atLimit).nodeCount > 64)
        let beyond = String(repeating: open, count: 65) + "1" + String(repeating: close, count: 65)
        let offset = open.utf8.count * 64
        #expect(throws: JSONError(.nestingTooDeep(limit: 64), at: offset)) { try JSONDocument(parsing: beyond) }
    }

    @Test func nestingLimitIsConfigurable() throws {
        #expect(try JSONDocument(parsing: "[[1]]", maximumDepth: 2).root[0]?[0]?.int == 1)
        #expect(throws: JSONError(.nestingTooDeep(limit: 2), at: 2)) {
            try JSONDocument(parsing: "[[[1]]]", maximumDepth: 2)
        }
        #expect(try JSONDocument(parsing: "7", maximumDepth: 0).root.int == 7)
        #expect(throws: JSONError(.nestingTooDeep(limit: 0), at: 0)) {
            try JSONDocument(parsing: "[]", maximumDepth: 0)
        }
    }

    @Test func hostileDepthIsRejectedWithoutRecursion() throws {
        let deep = String(repeating: "[", count: 1_000_000)
        #expect(throws: JSONError(.nestingTooDeep(limit: 64), at: 64)) { try JSONDocument(parsing: deep) }
        // With a huge limit the parser still uses no stack per level: a million levels parse.
        let balanced = deep + String(repeating: "]", count: 1_000_000)
        let document = try JSONDocument(parsing: balanced, maximumDepth: 2_000_000)
        #expect(document.nodeCount == 1_000_000)
    }

    // MARK: Messages

    @Test func errorsDescribeTheByteAtFault() {
        let cases: [(String, String)] = [
            ("[1, ]", "unexpected ']' at byte 4"), ("[\"ab\u{1}\"]", "unescaped control character 0x01 at byte 4"),
            (#"{"id":1,"id":2}"#, #"duplicate key "id" at byte 8"#), ("", "no JSON value in the input"),
            ("[1", "unexpected end of input at byte 2"), ("1e999", "number out of range at byte 0"),
            (String(repeating: "[", count: 70), "nesting deeper than 64 at byte 64"),
        ]
        for (input, message) in cases {
            do {
                _ = try JSONDocument(parsing: input)
                Issue.record("accepted \(input.debugDescription)")
            } catch {
                #expect(error.description == message)
            }
        }
        var bytes = Array(#"{"jsonrpc":"2.0","x"#.utf8)
        bytes += [0xFF, 0x22, 0x7D]
        #expect(throws: JSONError(.invalidUTF8, at: 19)) { try JSONDocument(parsing: bytes[...]) }
        #expect(JSONError(.invalidUTF8, at: 17).description == "invalid UTF-8 at byte 17")
    }

    // MARK: Reuse

    @Test func readerReusesItsBuffersAndKeepsLiveDocumentsIntact() throws {
        var reader = JSONReader()
        let first = try reader.parse(Array(#"{"a":[1,2,3]}"#.utf8))
        let second = try reader.parse(Array(#"["x"]"#.utf8))
        #expect(first.root.value == ["a": [1, 2, 3]])
        #expect(second.root.value == ["x"])
        #expect(throws: JSONError.self) { try reader.parse(Array("[1,".utf8)) }
        for k in 0..<100 {
            let document = try reader.parse(Array("[\(k),{\"k\":\(k)}]".utf8))
            #expect(document.root[1]?["k"]?.int == k)
        }
    }

    @Test func offsetsAreRelativeToTheSlice() throws {
        let buffer = Array("garbage{\"id\":7}\nmore".utf8)
        let line = buffer[7..<15]
        let document = try JSONReader().parsed(line)
        #expect(document.root["id"]?.byteOffset == 6)
        #expect(document.root["id"]?.rawBytes == buffer[13..<14])
        #expect(throws: JSONError(.unexpectedByte(0x6D), at: 9)) { try JSONDocument(parsing: buffer[7...]) }
    }
}

extension JSONReader {
    /// Parses with a copy of the reader, for one-off use in an expression.
    fileprivate func parsed(_ bytes: ArraySlice<UInt8>) throws -> JSONDocument {
        var reader = self
        return try reader.parse(bytes)
    }
}
