import Testing
@_spi(Package) import WaterfallJSON
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// How a line is read as a JSON-RPC batch array, and which requests read as notifications, before anything runs.
@Suite struct BatchArrayDecodingTests {
    static func decoded(_ line: String, maxBatchOps: Int = 10) -> DecodedRequest {
        var reader = JSONReader.forRequests()
        return DecodedRequest(.line(ArraySlice(line.utf8)), reader: &reader, maxBatchOps: maxBatchOps)
    }

    /// A short description of a decoded request: its kind, id and, for a failure, its error kind.
    static func summary(_ request: DecodedRequest) -> String {
        switch request {
        case .tooLarge: "tooLarge"
        case .failed(let id, let error, let isNotification, _):
            "failed \(id) \(error.code.kind)" + (isNotification ? " notification" : "")
        case .change(let change): "change \(change.id)" + (change.isNotification ? " notification" : "")
        case .call(let id, let isNotification, let call):
            "call \(call.method) \(id)" + (isNotification ? " notification" : "")
        case .array(let elements): "[" + elements.map(summary).joined(separator: ", ") + "]"
        }
    }

    static let cases: [(line: String, summary: String)] = [
        ("[1,2,3]", "[failed none invalid_request, failed none invalid_request, failed none invalid_request]"),
        ("[[]]", "[failed none invalid_request]"),
        ("[]", "failed none invalid_request"),
        (" \t[ {\"id\":1,\"method\":\"ping\"} ]", "[call ping int(1)]"),
        (
            #"[{"jsonrpc":"2.0","method":"ping"},{"id":2,"method":"items.update","params":{"layout":"a","section":0,"items":[]}}]"#,
            "[call ping none notification, change int(2)]"
        ),
        (String(repeating: "1,", count: 10) + "1", "failed none parse_error"),
        ("[" + String(repeating: "1,", count: 10) + "1]", "failed none limit"),
        // A notification's faults are read, and never answered.
        (#"{"jsonrpc":"2.0","method":"ping","params":[1]}"#, "failed none bad_params notification"),
        (#"{"jsonrpc":"2.0","method":"nope"}"#, "failed none unknown_method notification"),
        (#"{"jsonrpc":"2.0","method":"ping","extra":1}"#, "failed none bad_params notification"),
        // Not readable as a request: answered.
        (#"{"jsonrpc":"2.0","method":1}"#, "failed none invalid_request"),
        (#"{"jsonrpc":"1.0","method":"ping"}"#, "failed none invalid_request"),
        // The method is looked up before params are read.
        (#"{"id":1,"method":"nope","params":[1,2]}"#, "failed int(1) unknown_method"),
    ]

    @Test(arguments: cases)
    func readsTheLine(_ c: (line: String, summary: String)) {
        let request = Self.decoded(c.line)
        #expect(Self.summary(request) == c.summary)
        #expect(request.isAnswered == !c.summary.hasSuffix("notification"))
    }

    @Test func anArrayOfNotificationsIsNotAnswered() {
        let request = Self.decoded(#"[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"nope"}]"#)
        #expect(!request.isAnswered)
        #expect(request.requestCount == 2)
    }

    @Test func theLimitErrorNamesTheCountAndTheLimit() {
        guard case .failed(_, let error, _, _) = Self.decoded("[1,2,3]", maxBatchOps: 2) else {
            Issue.record("not refused")
            return
        }
        #expect(error.message == "request: a batch array of 3 requests, over the limit of 2 (maxBatchOps)")
    }
}
