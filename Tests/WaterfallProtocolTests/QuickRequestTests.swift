import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The one-pass reading of `items.update` (`QuickRequest`) against the general path: every line it takes, it reads
/// as the general path does, and every line it is not sure of, it leaves to the general path.
@Suite struct QuickRequestTests {
    /// Lines the quick path must take.
    static let taken: [String] = [
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"floor-0","section":0,"items":[{"i":999,"h":100.17}]}}"#,
        #"{"id":7,"method":"items.update","params":{"layout":"f","section":3,"items":[{"i":0,"h":120}]}}"#,
        #"{"params":{"items":[{"h":1e2,"i":4},{"i":5,"h":-0}],"section":2,"layout":"a.b:c_d-e"},"method":"items.update","id":-9}"#,
        #" { "id" : 9223372036854775807 , "method" : "items.update" , "params" : { "layout" : "x" , "section" : 0 , "items" : [ { "i" : 1 , "h" : 0.5 } ] , "diff" : false } } "#,
        #"{"id":-9223372036854775808,"method":"items.update","params":{"layout":"x","section":2147483647,"items":[{"i":2147483647,"h":1.7976931348623157e308}],"diff":true}}"#,
        #"{"id":0,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":0,"h":5e-324},{"i":1,"h":123456789012345678901234567890},{"i":2,"h":0.1e1},{"i":3,"h":-1.5E+3}]}}"#,
        "{\"id\":1,\r\n\t\"method\":\"items.update\",\"params\":{\"layout\":\"x\",\"section\":0,\"items\":[{\"i\":1,\"h\":2}]}}",
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":1e-400}]}}"#,
        #"{"id":123456789012345678,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        // The compact form clients write, read as runs of literal bytes.
        #"{"jsonrpc":"2.0","id":-3,"method":"items.update","params":{"layout":"f","section":7,"items":[{"i":0,"h":1e2},{"i":2147483647,"h":-0},{"i":5,"h":0.30000000000000004}],"diff":false}}"#,
        #"{"jsonrpc":"2.0","id":9223372036854775807,"method":"items.update","params":{"layout":"f","section":0,"items":[{"i":1,"h":2}],"diff":true}} "#,
    ]

    /// Lines the quick path must leave to the general path (which takes some of them, and refuses others).
    static let left: [String] = [
        // Other methods, members, forms of the envelope.
        #"{"id":1,"method":"items.insert","params":{"layout":"x","section":0,"at":0,"items":[{"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}],"anchor":{"section":0,"i":0}}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}],"width":300}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2,"w":3}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2,"id":"a"}]}}"#,
        #"{"id":1,"method":"items.update","extra":1,"params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"jsonrpc":"2.0","method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":"a","method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":null,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"jsonrpc":"1.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        // Repeated members.
        #"{"id":1,"id":2,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","layout":"y","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"i":2,"h":2}]}}"#,
        // Values the general path rejects or reads otherwise.
        #"{"id":1.5,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":9223372036854775808,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":-1,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":2147483648,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":01,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":1.0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":"2"}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":null}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":.5}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2.}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":+2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2e}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":NaN}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":1e400}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":-1e400}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2},]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}],"diff":null}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}],"diff":truex}}"#,
        #"{"id":1,"method":"items.update","params":{"section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"my feed","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"\u0078","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"é","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}} x"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}"#,
        #"{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}}"#,
        #"{"id":1,"method":"items.update","params":null}"#,
        #"{"id":1,"method":"items.update"}"#,
        #"{"id":1,"method":"items.upd\u0061te","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"[{"id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}]"#,
        // The compact form, damaged where only the member-by-member reading would notice.
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}],"diff":null}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2},]}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]}} x"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}]},"id":2}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":-1,"h":2}]}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"a b","section":0,"items":[{"i":1,"h":2}]}}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"x","section":0,"items":[{"i":1,"h":2}],"section":1}}"#,
        "",
        "   ",
    ]

    @Test(arguments: taken)
    func takesTheCommonestFormsAsTheGeneralPathReadsThem(line: String) throws {
        let bytes = Array(line.utf8)[...]
        let quick = try #require(QuickRequest.itemsUpdate(bytes), "left to the general path: \(line)")
        #expect(Self.agree(quick, Self.general(bytes)), "\(line)")
    }

    @Test(arguments: left)
    func leavesEverythingElseToTheGeneralPath(line: String) {
        #expect(QuickRequest.itemsUpdate(Array(line.utf8)[...]) == nil, "\(line)")
    }

    /// Damaged lines (a byte replaced, removed, inserted or doubled, up to three times): whatever the quick path
    /// takes, the general path reads the same.
    @Test func agreesWithTheGeneralPathOnDamagedLines() {
        var random = SplitMix64(seed: 0x5eed_2026_1203)
        let alphabet = Array(#"0123456789-+.eE"{}[],: \ihdx"#.utf8) + [0x00, 0x0A, 0x7F, 0xC3, 0xA9]
        var taken = 0
        var disagreements: [String] = []
        for round in 0..<30_000 {
            var bytes = Array(Self.taken[round % Self.taken.count].utf8)
            for _ in 0...Int.random(in: 0...2, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                let byte = alphabet.randomElement(using: &random)!
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[at] = byte
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(byte, at: at)
                default: bytes.insert(bytes[at], at: at)
                }
            }
            guard let quick = QuickRequest.itemsUpdate(bytes[...]) else { continue }
            taken += 1
            if !Self.agree(quick, Self.general(bytes[...])) {
                disagreements.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Many damaged lines are still valid updates (a digit for a digit, a space added): the comparison is not
        // vacuous.
        #expect(taken > 1_000, "\(taken)")
    }

    /// Generated lines: members in any order, any spacing, numbers in every form and size, sometimes a member or a
    /// value the quick path leaves alone; the two paths agree on each line the quick path takes.
    @Test func agreesWithTheGeneralPathOnGeneratedLines() {
        var random = SplitMix64(seed: 0x9e1_2026)
        let numbers = [
            "0", "-0", "7", "120", "100.17", "0.1", "1e2", "1E+2", "2.5e-3", "-4", "9007199254740993", "1e308", "1e309",
            "4.9e-324", "1e-400", "123456789012345678901", "0.30000000000000004", "2147483647", "2147483648",
            "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1.0", "00", "1.", "null", "\"1\"",
        ]
        let spaces = ["", " ", "\t", "\r\n", "  "]
        var taken = 0
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            func space() -> String { spaces.randomElement(using: &random)! }
            func number() -> String { numbers.randomElement(using: &random)! }
            // Mostly a valid index, so that many lines are taken.
            func index() -> String {
                Int.random(in: 0..<4, using: &random) == 0
                    ? number() : String(Int.random(in: 0...2_000, using: &random))
            }
            func object(_ members: [String]) -> String {
                "{" + space() + members.shuffled(using: &random).joined(separator: space() + "," + space()) + space()
                    + "}"
            }
            func member(_ key: String, _ value: String) -> String { "\"\(key)\"" + space() + ":" + space() + value }
            let items = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                var members = [member("i", index()), member("h", number())]
                if Int.random(in: 0..<20, using: &random) == 0 { members.append(member("w", number())) }
                return object(members)
            }
            var params = [
                member("layout", ["\"feed\"", "\"a:b\"", "\"a b\"", "\"\\u0061\""].randomElement(using: &random)!),
                member("section", index()), member("items", "[" + items.joined(separator: ",") + "]"),
            ]
            if Bool.random(using: &random) {
                params.append(member("diff", ["true", "false", "null"].randomElement(using: &random)!))
            }
            var envelope = [
                member("id", index()), member("method", "\"items.update\""), member("params", object(params)),
            ]
            if Bool.random(using: &random) { envelope.append(member("jsonrpc", "\"2.0\"")) }
            let line = space() + object(envelope) + space()
            let bytes = Array(line.utf8)[...]
            guard let quick = QuickRequest.itemsUpdate(bytes) else { continue }
            taken += 1
            if !Self.agree(quick, Self.general(bytes)) { disagreements.append(line) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(taken > 1_500, "\(taken)")
    }

    @Test func aConnectionsReaderTakesTheQuickPath() {
        var reader = JSONReader.forRequests()
        let line = Array(Self.taken[0].utf8)[...]
        guard case .change(let change) = DecodedRequest(.line(line), reader: &reader, maxBatchOps: 10) else {
            Issue.record("not a change")
            return
        }
        #expect(Self.agree(change, Self.general(line)))
    }

    // MARK: Helpers

    private static func general(_ bytes: ArraySlice<UInt8>) -> DecodedRequest {
        var reader = JSONReader.forRequests()
        return DecodedRequest(parsing: bytes, reader: &reader, maxBatchOps: 10_000)
    }

    /// Whether `general` is the change `quick` is, member by member.
    private static func agree(_ quick: LayoutChange, _ general: DecodedRequest) -> Bool {
        guard case .change(let change) = general, case .single(let method, let params) = change.ops,
            case .single(let quickMethod, let quickParams) = quick.ops
        else { return false }
        return quick.id == change.id && quick.isNotification == change.isNotification
            && quick.layout == change.layout && quick.commands == change.commands && quickMethod == method
            && Array(quickParams) == Array(params) && quick.wantsDiff == change.wantsDiff
            && quick.anchor == change.anchor && quick.viewport == change.viewport
            && quick.width == change.width && heightBits(quick.commands) == heightBits(change.commands)
    }

    /// The heights' bits, which `==` on doubles does not compare (-0 and 0 are equal).
    private static func heightBits(_ commands: [LayoutCommand]) -> [UInt64] {
        commands.flatMap { command -> [UInt64] in
            guard case .updateItems(_, let updates) = command else { return [] }
            return updates.map(\.item.height.bitPattern)
        }
    }
}
