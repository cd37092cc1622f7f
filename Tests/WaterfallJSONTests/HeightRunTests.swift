import Testing
@_spi(Package) import WaterfallJSON

/// A request's `params.items` of one-height objects, kept as its heights when the reader asks for it
/// (`JSONReader.readsHeightRuns`): the heights the general parse reads, the errors it reports, and no run anywhere
/// else or by default.
@Suite struct HeightRunTests {
    /// An `items.insert` line whose items are `items`, written as given.
    static func insert(_ items: String) -> String {
        #"{"jsonrpc":"2.0","id":7,"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":["#
            + items + #"],"diff":false}}"#
    }

    static func parseWithRuns(_ bytes: ArraySlice<UInt8>, maximumDepth: Int = 64) throws(JSONError) -> JSONDocument {
        var reader = JSONReader(maximumDepth: maximumDepth)
        reader.readsHeightRuns = true
        return try reader.parse(bytes)
    }

    /// The heights of `params.items` kept as a run, or nil when it is not one.
    static func runHeights(_ document: JSONDocument) -> [Double]? {
        document.withRoot { root -> [Double]? in
            guard let items = root["params"]?["items"], items.heightRunCount != nil else { return nil }
            var heights: [Double] = []
            items.appendHeightRun(to: &heights)
            return heights
        }
    }

    /// The `h` of each element of `params.items`, read the general way.
    static func generalHeights(_ document: JSONDocument) -> [Double?] {
        guard let items = document.root["params"]?["items"] else { return [] }
        return items.elements.map { $0["h"]?.double }
    }

    @Test func bulkItemsAreKeptAsTheirHeights() throws {
        let items = #"{"h":120},{"h":80.5},{"h":-0},{"h":0.1},{"h":1234567890123456789},{"h":9007199254740993}"#
        let bytes = Array(Self.insert(items).utf8)[...]
        let document = try Self.parseWithRuns(bytes)
        let general = try JSONDocument(parsing: bytes)
        #expect(document.hasHeightRuns)
        #expect(!general.hasHeightRuns)
        let heights = try #require(Self.runHeights(document))
        #expect(heights.map(\.bitPattern) == Self.generalHeights(general).map { $0?.bitPattern })
        #expect(heights.count == 6)
        #expect(heights[2].sign == .minus)
        // The rest of the document reads as before; the run has no elements for a general walk.
        let root = document.root
        #expect(root["id"]?.int == 7)
        #expect(root["method"]?.string == "items.insert")
        #expect(root["params"]?["diff"]?.bool == false)
        #expect(root["params"]?["layout"]?.string == "feed")
        #expect(root["params"]?.count == 5)
        #expect(root["params"]?.rawBytes == general.root["params"]?.rawBytes)
        #expect(root["params"]?["items"]?.rawBytes == general.root["params"]?["items"]?.rawBytes)
        #expect(root["params"]?["items"]?.count == 0)
        #expect(root["params"]?["items"].map { Array($0.elements).isEmpty } == true)
    }

    /// Inputs where runs are asked for and none is made: each parses to the general parse's values.
    static let notRuns: [String] = [
        insert(""), insert(#"{"h":1}, {"h":2}"#), insert(#" {"h":1}"#), insert(#"{"h": 1}"#), insert(#"{"h":1 }"#),
        insert(#"{"h":1},{"w":2}"#), insert(#"{"h":1,"w":2}"#), insert(#"{"h":1e2}"#), insert(#"{"h":"1"}"#),
        insert(#"{"h":12345678901234567890}"#), insert(#"{"h":1},7"#), insert(#"{"h":1},{"h":2.5},{"H":3}"#),
        insert(#"{"h":1},[{"h":2}]"#), insert(#"{"h":null}"#), #"{"params":{"it\u0065ms":[{"h":1}]}}"#,
        #"{"items":[{"h":1}]}"#, #"{"params":{"x":{"items":[{"h":1}]}}}"#, #"{"x":{"items":[{"h":1}]}}"#,
        #"[{"params":{"items":[{"h":1}]}}]"#, #"{"params":[{"items":[{"h":1}]}]}"#,
        #"{"params":{"items":{"h":1}}}"#, #"{"params":{"items":[[{"h":1}]]}}"#,
    ]

    @Test(arguments: notRuns)
    func otherArraysAreLeftToTheGeneralParse(_ text: String) throws {
        let bytes = Array(text.utf8)[...]
        let document = try Self.parseWithRuns(bytes)
        #expect(!document.hasHeightRuns)
        #expect(document.root.value == (try JSONDocument(parsing: bytes)).root.value)
    }

    @Test func aReaderMakesNoRunUnlessAsked() throws {
        var reader = JSONReader()
        let document = try reader.parse(Self.insert(#"{"h":1},{"h":2}"#))
        #expect(!document.hasHeightRuns)
        #expect(Self.generalHeights(document) == [1, 2])
    }

    /// Elements need two levels of nesting below `params`: a limit that refuses them refuses the run too.
    @Test func theNestingLimitHoldsForRuns() throws {
        let bytes = Array(Self.insert(#"{"h":1}"#).utf8)[...]
        for depth in 0...5 {
            let general = Result { () throws(JSONError) in try JSONDocument(parsing: bytes, maximumDepth: depth) }
            let runs = Result { () throws(JSONError) in try Self.parseWithRuns(bytes, maximumDepth: depth) }
            switch (general, runs) {
            case (.failure(let a), .failure(let b)): #expect(a == b)
            case (.success, .success(let document)): #expect(document.hasHeightRuns && depth >= 4)
            default: Issue.record("depth \(depth): \(general) against \(runs)")
            }
        }
    }

    /// Bulk lines with bytes changed at random: with runs asked for, every line fails with the general parse's
    /// error or reads the same values (the run's heights being the elements' `h`).
    @Test func mutatedLinesFailOrReadAsTheGeneralParse() {
        var random = SplitMix64(seed: 0x4845_4947_4854)
        let bytesToTry = Array(#"{}[],:"h0.-e 19x"#.utf8) + [0x0A, 0x80]
        var runs = 0
        for _ in 0..<3_000 {
            let count = Int.random(in: 1...12, using: &random)
            let items = (0..<count).map { _ in
                random.chance(0.5) ? "{\"h\":\(Int.random(in: 0...900, using: &random))}" : "{\"h\":12.375}"
            }
            var bytes = Array(Self.insert(items.joined(separator: ",")).utf8)
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = random.pick(bytesToTry)
            }
            let general = Result { () throws(JSONError) in try JSONDocument(parsing: bytes[...]) }
            let withRuns = Result { () throws(JSONError) in try Self.parseWithRuns(bytes[...]) }
            let text = String(decoding: bytes, as: UTF8.self)
            switch (general, withRuns) {
            case (.failure(let a), .failure(let b)):
                #expect(a == b, "\(text)")
            case (.success(let a), .success(let b)):
                if let heights = Self.runHeights(b) {
                    runs += 1
                    #expect(heights.map(Optional.init) == Self.generalHeights(a), "\(text)")
                    #expect(b.root["params"]?.rawBytes == a.root["params"]?.rawBytes, "\(text)")
                } else {
                    #expect(a.root.value == b.root.value, "\(text)")
                }
            default:
                Issue.record("\(text): \(general) against \(withRuns)")
            }
        }
        #expect(runs > 500)
    }
}
