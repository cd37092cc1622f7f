import Testing
import WaterfallCommandLine
@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

/// Every method is a command of its own name, its flags its declared params.
@Suite struct MethodCommandTests {
    @Test func everyMethodButTheSubscriptionsIsACommand() {
        for method in Method.allCases where method != .subscribe && method != .unsubscribe {
            let command = Command(rawValue: method.rawValue)
            #expect(command?.method == method, "\(method.rawValue)")
            let params = MethodTable.declaration(method).params.map(\.name).filter { $0 != "layout" }
            #expect(command?.options.suffix(params.count).map(\.name).sorted() == params.map { "--" + $0 }.sorted())
        }
        #expect(Command(rawValue: "subscribe") == nil)
    }

    @Test(arguments: [
        (
            ["items.delete", "feed", "--section", "0", "--items", "3,4", "--width", "820"],
            #"{"layout":"feed","width":820.0,"section":0,"items":[3,4]}"#
        ),
        (["items.move", "feed", "--from", "0:1", "--to", "1:0"], #"{"layout":"feed","from":[0,1],"to":[1,0]}"#),
        (
            ["items.update", "feed", "--section", "0", "--items", #"[{"i":0,"h":5}]"#, "--diff", "false"],
            #"{"layout":"feed","diff":false,"section":0,"items":[{"i":0,"h":5}]}"#
        ),
        (["layout.drop", "feed"], #"{"layout":"feed"}"#),
        (["layout.list"], nil),
    ])
    func flagsBecomeParams(_ line: [String], _ json: String?) throws {
        let invocation = try Invocation(parsing: line)
        let method = try #require(invocation.command?.method)
        let params = try invocation.params(of: method)
        let expected = try json.map { try JSONValue(parsing: $0) }
        #expect(params.map { Self.sorted($0) } == expected.map { Self.sorted($0) })
    }

    @Test(arguments: [
        (["items.delete", "feed", "--section", "x", "--items", "1"], "--section: 'x' is not an integer"),
        (["items.move", "feed", "--from", "0,1", "--to", "1:0"], "--from: '0,1' is not SECTION:ITEM"),
        (["items.delete", "feed", "--section", "0", "--items", "1,,2"], "--items: '' is not an integer"),
        (["items.update", "feed", "--section", "0", "--items", "[{"], "--items: '[{' is not JSON"),
        (["items.delete", "feed", "--section", "0", "--items", "1", "--diff", "yes"], "--diff: 'yes' is not true"),
        (["items.delete", "feed", "--items", "1"], "items.delete needs --section N"),
        (["layout.get", "feed", "--sectoins", "1"], "unknown option '--sectoins'; did you mean '--sections'?"),
    ])
    func badFlagsNameTheFlagAndTheValue(_ line: [String], _ message: String) {
        #expect {
            let invocation = try Invocation(parsing: line)
            _ = try invocation.params(of: try #require(invocation.command?.method))
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix(message) == true
        }
    }

    /// Members in name order, so that a test need not follow the declaration's order.
    private static func sorted(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        return .object(members.sorted { $0.key < $1.key })
    }
}
