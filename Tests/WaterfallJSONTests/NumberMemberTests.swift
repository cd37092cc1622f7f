import Testing
@_spi(Package) import WaterfallJSON

/// Objects of one number member written without whitespace (`{"h":120.5}`, a bulk insert's items) take a shortcut
/// through the scanner; it must leave the tape the general loop leaves, and anything it does not take must fail as
/// it does through the general loop.
@Suite struct NumberMemberTests {
    /// Inputs with such objects in every position, and their values.
    static let accepted: [AcceptCase] = [
        AcceptCase(#"{"h":1}"#, ["h": 1]), AcceptCase(#"[{"h":1}]"#, [["h": 1]]),
        AcceptCase(#"[{"h":1},{"h":2.5},{"h":-3e2}]"#, [["h": 1], ["h": 2.5], ["h": -300.0]]),
        AcceptCase(#"[{"h":0},{"abc":-0.5},{"H":7}]"#, [["h": 0], ["abc": -0.5], ["H": 7]]),
        AcceptCase(#"{"items":[{"h":1}],"n":{"w":2}}"#, ["items": [["h": 1]], "n": ["w": 2]]),
        AcceptCase(#"[{"h":1 },{ "h":2},{"h" :3},{"h": 4}]"#, [["h": 1], ["h": 2], ["h": 3], ["h": 4]]),
        AcceptCase(#"[{"h":1,"w":2},{"h":"x"},{"h1":1},{"":1}]"#, [["h": 1, "w": 2], ["h": "x"], ["h1": 1], ["": 1]]),
        AcceptCase(#"[[{"h":1}],{"a":{"h":2}}]"#, [[["h": 1]], ["a": ["h": 2]]]),
        // Whitespace below "0" in ASCII within eight bytes of the digits, which a digit test that lets a borrow
        // through takes for digits.
        AcceptCase("[{\"h\":1.5       }]", [["h": 1.5]]), AcceptCase("[{\"h\":25.125\n\t\r }]", [["h": 25.125]]),
        AcceptCase("[{\"h\":-3.25 \n}]", [["h": -3.25]]),
    ]

    @Test(arguments: accepted)
    func readsTheSameValues(_ testCase: AcceptCase) throws {
        let document = try JSONDocument(parsing: testCase.input[...])
        #expect(document.root.value == testCase.expected)
    }

    /// Each node's bytes, kind and size, and its siblings found after it: every field of the tape the shortcut writes.
    @Test func leavesTheTapeOfTheGeneralLoop() throws {
        let text = #"[{"h":12.5},7,{"ab":-1},{"h":3}]"#
        let document = try JSONDocument(parsing: Array(text.utf8)[...])
        let root = document.root
        #expect(root.count == 4)
        let raw = (0..<4).map { k in root[k].map { String(decoding: $0.rawBytes, as: UTF8.self) } }
        #expect(raw == [#"{"h":12.5}"#, "7", #"{"ab":-1}"#, #"{"h":3}"#])
        let first = try #require(root[0])
        #expect(first.kind == .object)
        #expect(first.count == 1)
        let members = Array(first.members)
        #expect(members.map(\.key.string) == ["h"])
        #expect(members.first.map { String(decoding: $0.value.rawBytes, as: UTF8.self) } == "12.5")
        #expect(first["h"]?.double == 12.5)
        #expect(root[2]?["ab"]?.int == -1)
        #expect(root[3]?["h"]?.int == 3)
    }

    static let rejected: [RejectCase] = [
        RejectCase(#"[{"h":1e400}]"#, .numberOutOfRange, at: 6),
        RejectCase(#"[{"h":1,}]"#, .unexpectedByte(0x7D), at: 8),
        RejectCase(#"[{"h":-}]"#, .invalidNumber, at: 7), RejectCase(#"[{"h":01}]"#, .unexpectedByte(0x31), at: 7),
        RejectCase(#"[{"h":1.}]"#, .invalidNumber, at: 8), RejectCase(#"{"h":1"#, .unexpectedEnd, at: 6),
        RejectCase(#"{"h":"#, .unexpectedEnd, at: 5), RejectCase(#"[{"h":1]"#, .unexpectedByte(0x5D), at: 7),
        RejectCase(#"[{"h":1,"h":2}]"#, .duplicateKey("h"), at: 8), RejectCase(#"[{"h":1}"#, .unexpectedEnd, at: 8),
        RejectCase(#"[{"h":1}}"#, .unexpectedByte(0x7D), at: 8),
        RejectCase(#"[{"h":0.1,,,,,,,}]"#, .unexpectedByte(0x2C), at: 10),
        RejectCase(#"[{"h":123.4!!!!!!!}]"#, .unexpectedByte(0x21), at: 11),
        RejectCase(#"[{"h":12.5/,,,,,,,}]"#, .unexpectedByte(0x2F), at: 10),
    ]

    @Test(arguments: rejected)
    func failsAsTheGeneralLoopDoes(_ testCase: RejectCase) {
        #expect(throws: JSONError(testCase.reason, at: testCase.offset)) {
            try JSONDocument(parsing: testCase.input[...])
        }
    }

    /// Digit runs are found eight bytes at a time: a run of any length ends exactly at the first byte that is not a
    /// digit, whether that byte is next to the digits in ASCII (`/`, `:`), has its high bit set, or is zero.
    @Test func digitRunsEndAtTheFirstOtherByte() throws {
        for length in 1...26 {
            let digits = (0..<length).map { k in UInt8(ascii: "1") + UInt8(k % 9) }
            let value = try JSONDocument(parsing: (Array("[".utf8) + digits + Array("]".utf8))[...])
            #expect(value.root[0]?.rawBytes.count == length)
            let fraction = try JSONDocument(parsing: (Array("[0.".utf8) + digits + Array("]".utf8))[...])
            #expect(fraction.root[0]?.rawBytes.count == length + 2)
            for stop: UInt8 in [0x2F, 0x3A, 0xB0, 0xB5, 0x00, 0x7F] {
                #expect(throws: JSONError(.unexpectedByte(stop), at: 1 + length)) {
                    try JSONDocument(parsing: (Array("[".utf8) + digits + [stop, 0x5D])[...])
                }
                #expect(throws: JSONError(.unexpectedByte(stop), at: 3 + length)) {
                    try JSONDocument(parsing: (Array("[0.".utf8) + digits + [stop, 0x5D])[...])
                }
            }
        }
    }

    /// The shortcut opens an object too: it counts against the nesting limit.
    @Test func countsAgainstTheNestingLimit() throws {
        #expect(throws: JSONError(.nestingTooDeep(limit: 1), at: 1)) {
            try JSONDocument(parsing: Array(#"[{"h":1}]"#.utf8)[...], maximumDepth: 1)
        }
        #expect(throws: JSONError(.nestingTooDeep(limit: 0), at: 0)) {
            try JSONDocument(parsing: Array(#"{"h":1}"#.utf8)[...], maximumDepth: 0)
        }
        let document = try JSONDocument(parsing: Array(#"[{"h":1}]"#.utf8)[...], maximumDepth: 2)
        #expect(document.root.value == [["h": 1]])
    }

    /// Whatever follows a number in a one-member object (any ASCII byte, whitespace, junk, the end), the shortcut
    /// answers as the general loop does: the same value, or an error of the same kind. The general loop reads the
    /// same object with a space before the number, which the shortcut does not take; its offsets are one further.
    @Test func endsNumbersAsTheGeneralLoopDoes() throws {
        var rng = SplitMix64(seed: 0x0DD_B17E5)
        var cases = NumberCases(seed: 0xF00D_5EED)
        let tails: [[UInt8]] = [[], Array(" ".utf8), Array("\n\t\r ".utf8), Array("}".utf8), Array(",".utf8)]
        for round in 0..<20_000 {
            let number = Array((round % 3 == 0 ? cases.text(.uniform) : cases.text(.decimal)).utf8)
            var suffix = tails[Int(rng.next() % UInt64(tails.count))]
            for _ in 0..<Int(rng.next() % 10) { suffix.append(UInt8(rng.next() % 0x80)) }
            suffix += Array("}]".utf8)
            let shortcut = Array(#"[{"h":"#.utf8) + number + suffix
            let general = Array(#"[{"h": "#.utf8) + number + suffix
            let expected = Result { () throws(JSONError) in try JSONDocument(parsing: general[...]) }
            let actual = Result { () throws(JSONError) in try JSONDocument(parsing: shortcut[...]) }
            let text = String(decoding: shortcut, as: UTF8.self)
            switch (expected, actual) {
            case (.success(let want), .success(let got)):
                #expect(got.root.value == want.root.value, "\(text)")
                let bits = got.root[0]?["h"]?.double?.bitPattern
                #expect(bits == want.root[0]?["h"]?.double?.bitPattern, "\(text)")
            case (.failure(let want), .failure(let got)):
                #expect(got.reason == want.reason, "\(text)")
                #expect(got.offset == want.offset - 1, "\(text)")
            default:
                Issue.record("\(text): \(actual), the general loop \(expected)")
            }
        }
    }

    /// The shortcut converts the number as it scans it (`JSONNumber.plain`): for seeded numbers of every kind, and
    /// numbers of every length around the 19 digits it takes, the value is bit for bit the one the general loop's
    /// number gives, and the tape around it is the same.
    @Test func convertsAsTheGeneralLoopDoes() throws {
        var cases = NumberCases(seed: 0x5EED_F00D)
        var texts: [String] = []
        for kind in NumberCases.Kind.allCases {
            for _ in 0..<2_000 { texts.append(cases.text(kind)) }
        }
        for length in 1...24 {
            let digits = String((0..<length).map { k in Character(String((k * 7 + 3) % 10)) })
            texts += ["9" + digits, "0." + digits, "-0." + digits, "1" + digits + ".5", "0.0" + digits]
        }
        texts += ["0", "-0", "0.0", "-0.0", "9007199254740993", "18446744073709551615", "0.1", "123456789.123456789"]
        var checked = 0
        for text in texts {
            // Only numbers valid in JSON: the generator also writes some (beyond range) that the scan refuses.
            guard let general = try? JSONDocument(parsing: Array("[\(text)]".utf8)[...]) else { continue }
            let member = try JSONDocument(parsing: Array("[{\"h\":\(text)},7]".utf8)[...])
            let expected = try #require(general.root[0]?.double)
            let value = try #require(member.root[0]?["h"]?.double)
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
            #expect(member.root[0]?["h"]?.int64 == general.root[0]?.int64, "\(text)")
            #expect(member.root[0]?["h"].map { String(decoding: $0.rawBytes, as: UTF8.self) } == text)
            #expect(member.root[1]?.int == 7)
            #expect(member.root.count == 2)
            checked += 1
        }
        #expect(checked > 10_000)
    }
}
