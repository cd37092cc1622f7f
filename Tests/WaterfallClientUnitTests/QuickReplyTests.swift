import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallClient

/// The one-pass reading of a change's reply (`QuickReply`) against the general path (`JSONReader`, then
/// `ReplyDecoding.mutation`): every reply it takes, it reads as the general path does, and it leaves the rest.
@Suite struct QuickReplyTests {
    /// Replies the quick path must take.
    static let taken: [String] = [
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":2,"contentSize":{"w":1000,"h":74919.5},"diff":{"sections":[{"section":0,"origin":0,"height":74919.5,"count":1000,"items":[{"i":999,"x":336.6666666666667,"y":74819,"w":326.6666666666667,"h":100.5}]}]}}}"#,
        #"{"id":7,"result":{"seq":3,"contentSize":{"w":390,"h":0}}}"#,
        #"{"result":{"diff":{"sections":[]},"contentSize":{"h":1e3,"w":-0},"seq":0},"id":-4,"jsonrpc":"2.0"}"#,
        #" { "id" : 1 , "result" : { "seq" : 9 , "contentSize" : { "w" : 1 , "h" : 2 } , "diff" : { "sections" : [ { "section" : 1 , "origin" : 5.5 , "height" : 10 , "count" : 0 , "dy" : -2.25 , "new" : true , "items" : [ ] } ] } } } "#,
        #"{"id":1,"result":{"seq":9,"contentSize":{"w":1,"h":2},"diff":{"sections":[{"section":0,"origin":0,"height":1,"count":2,"new":false},{"section":1,"origin":1,"height":1,"count":2,"items":[{"h":1,"w":2,"y":3,"x":4,"i":1},{"i":0,"x":0,"y":0,"w":1e-400,"h":5e-324}]}]}}}"#,
    ]

    /// Replies the quick path must leave to the general path.
    static let left: [String] = [
        #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"params.layout: missing","data":{"kind":"bad_params"}}}"#,
        #"{"jsonrpc":"2.0","method":"layout.changed","params":{"layout":"a","seq":2}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2},"anchor":{"section":0,"i":1,"dy":3}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2},"diff":{"sections":[],"shifts":[{"from":1,"to":2,"dy":3}]}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2},"diff":{"sections":[{"section":0,"origin":0,"width":5,"count":1}]}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2},"diff":{"sections":[{"section":0,"origin":0,"height":5,"count":1,"header":{"x":0,"y":0,"w":1,"h":1}}]}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2},"diff":{"sections":[{"section":0,"origin":0,"height":5,"count":1,"items":[{"i":0,"x":0,"y":0,"w":1,"h":1,"id":"a"}]}]}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2},"diff":null}}"#,
        #"{"id":1,"result":{"seq":2.5,"contentSize":{"w":1,"h":2}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":1e999}}}"#,
        #"{"id":1,"result":{"seq":2,"seq":3,"contentSize":{"w":1,"h":2}}}"#,
        #"{"id":null,"result":{"seq":2,"contentSize":{"w":1,"h":2}}}"#,
        #"{"id":"a","result":{"seq":2,"contentSize":{"w":1,"h":2}}}"#,
        #"{"id":1,"result":{"seq":2,"contentSize":{"w":1,"h":2}}} x"#,
        #"{"id":1,"result":{"seq":2}}"#,
        #"{"id":1,"result":{"layouts":[]}}"#,
        "",
    ]

    @Test(arguments: taken)
    func takesTheCommonestRepliesAsTheGeneralPathReadsThem(line: String) throws {
        let bytes = Array(line.utf8)[...]
        let quick = try #require(QuickReply.mutation(bytes), "left to the general path: \(line)")
        #expect(Self.agree(quick, bytes), "\(line)")
    }

    @Test(arguments: left)
    func leavesEverythingElseToTheGeneralPath(line: String) {
        #expect(QuickReply.mutation(Array(line.utf8)[...]) == nil, "\(line)")
    }

    /// Generated replies (members in any order, any spacing, numbers in every form, sometimes a member the quick
    /// path leaves alone), some of them damaged: whatever the quick path takes, the general path reads the same.
    @Test func agreesWithTheGeneralPathOnGeneratedAndDamagedReplies() {
        var random = SplitMix64(seed: 0x2e91_1203)
        let numbers = [
            "0", "-0", "7", "100.5", "336.6666666666667", "1e3", "2.5E-3", "-4", "1e309", "1e-400", "1.0",
            "123456789012345", "1234567890123456",
        ]
        let alphabet = Array(#"0123456789-.eE"{}[],: \ixyh"#.utf8) + [0x00, 0xC3]
        var taken = 0
        var disagreements: [String] = []
        for round in 0..<20_000 {
            // Every other reply as the daemon writes it: members in its order, no spacing.
            let compact = round % 2 == 1
            func space() -> String { compact ? "" : ["", " ", "\n", "\t"].randomElement(using: &random)! }
            func number() -> String { numbers.randomElement(using: &random)! }
            func integer() -> String {
                Int.random(in: 0..<5, using: &random) == 0
                    ? number() : String(Int.random(in: -2...2_000, using: &random))
            }
            func object(_ members: [String]) -> String {
                "{" + space()
                    + (compact ? members : members.shuffled(using: &random)).joined(
                        separator: space() + "," + space()) + space() + "}"
            }
            func member(_ key: String, _ value: String) -> String { "\"\(key)\"" + space() + ":" + space() + value }
            func odd(_ members: inout [String], _ extra: String) {
                if Int.random(in: 0..<25, using: &random) == 0 { members.append(extra) }
            }
            let entries = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                var entry = [
                    member("section", integer()), member("origin", number()), member("height", number()),
                    member("count", integer()),
                ]
                if Bool.random(using: &random) { entry.append(member("dy", number())) }
                if Bool.random(using: &random) {
                    entry.append(member("new", ["true", "false", "null"].randomElement(using: &random)!))
                }
                if Bool.random(using: &random) {
                    let items = (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        let values = ["i", "x", "y", "w", "h"].map { ($0, $0 == "i" ? integer() : number()) }
                        if Bool.random(using: &random) {
                            // As the daemon writes it: its order, no spacing.
                            return "{" + values.map { "\"\($0)\":\($1)" }.joined(separator: ",") + "}"
                        }
                        var item = values.map { member($0, $1) }
                        odd(&item, member("id", "\"a\""))
                        return object(item)
                    }
                    entry.append(member("items", "[" + items.joined(separator: ",") + "]"))
                }
                odd(&entry, member("header", #"{"x":0,"y":0,"w":1,"h":1}"#))
                return object(entry)
            }
            var result = [
                member("seq", integer()),
                member("contentSize", object([member("w", number()), member("h", number())])),
            ]
            if Bool.random(using: &random) {
                result.append(member("diff", object([member("sections", "[" + entries.joined(separator: ",") + "]")])))
            }
            odd(&result, member("anchor", #"{"section":0,"i":1,"dy":3}"#))
            var envelope = [member("id", integer()), member("result", object(result))]
            if Bool.random(using: &random) {
                envelope.insert(member("jsonrpc", "\"2.0\""), at: compact ? 0 : envelope.count)
            }
            var bytes = Array((space() + object(envelope) + space()).utf8)
            if round % 3 == 0, !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &random)!, at: at)
                }
            }
            guard let quick = QuickReply.mutation(bytes[...]) else { continue }
            taken += 1
            if !Self.agree(quick, bytes[...]) { disagreements.append(String(decoding: bytes, as: UTF8.self)) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(taken > 4_000, "\(taken)")
    }

    // MARK: Helpers

    /// Whether the general path reads `bytes` as the reply `quick` is: the same id and the same result, down to
    /// the sign of a zero (`==` on doubles does not tell -0 from 0; their descriptions do).
    private static func agree(_ quick: (id: Int64, result: MutationResult), _ bytes: ArraySlice<UInt8>) -> Bool {
        guard let root = try? JSONDocument(parsing: bytes).root, root["error"] == nil,
            root["id"]?.int64 == quick.id, let node = root["result"],
            let general = try? ReplyDecoding.mutation(node)
        else { return false }
        return general == quick.result && "\(general)" == "\(quick.result)"
    }
}
