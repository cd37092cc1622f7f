import Foundation
import Testing
@_spi(Package) import WaterfallJSON
import WaterfallTestSupport

/// Layouts at several widths through the built daemon every width survives a durable restart, and bad
/// widths are refused naming the field and the value, changing nothing, on a durable daemon and an ephemeral one.
@Suite(.tags(.process)) struct WidthsTests {
    static let create =
        #"{"id":1,"method":"layout.create","params":{"layout":"feed","widths":[375,428,820],"#
        + #""defaults":{"minColumnWidth":180},"sections":[{"headerHeight":30,"items":[{"h":120},{"h":80},"#
        + #"{"w":4,"h":3},{"h":100,"span":"full"},{"h":60}]}]}}"#

    @Test func everyWidthSurvivesADurableRestart() async throws {
        let state = try makeTemporaryDirectory()
        defer { removeDirectory(state) }
        let changes = [
            #"{"id":2,"method":"items.update","params":{"layout":"feed","section":0,"items":[{"i":1,"h":200}],"width":820}}"#,
            #"{"id":3,"method":"layout.configure","params":{"layout":"feed","widths":[428,1024,375]}}"#,
            #"{"id":4,"method":"items.insert","params":{"layout":"feed","section":0,"at":1,"items":[{"h":70}],"width":1024}}"#,
        ]
        let first = try await DaemonProcess.start(.init(arguments: ["--state-dir", state]))
        let writer = try TestClient(path: first.socketPath)
        try await writer.write(([Self.create] + changes).map { $0 + "\n" }.joined())
        let replies = try await writer.readLines(4)
        #expect(replies.allSatisfy { $0.contains(#""result""#) }, "\(replies)")
        let before = try await frames(at: [428, 1024, 375], first.socketPath)
        _ = await first.stop()

        let second = try await DaemonProcess.start(.init(arguments: ["--state-dir", state]))
        let reader = try TestClient(path: second.socketPath)
        try await reader.write(#"{"id":1,"method":"layout.list"}"# + "\n")
        #expect(try await reader.readLines(1).first?.contains(#""seq":4,"widths":[428,1024,375]"#) == true)
        #expect(try await frames(at: [428, 1024, 375], second.socketPath) == before)
        // Each width's frames are those of a fresh layout at that one width from the export.
        try await reader.write(#"{"id":2,"method":"layout.export","params":{"layout":"feed"}}"# + "\n")
        let export = try JSONValue(parsing: try await reader.readLines(1)[0])
        guard case .object(let members) = export,
            case .object(let result)? = members.first(where: { $0.key == "result" })?.value,
            case .object(var spec)? = result.first(where: { $0.key == "layout" })?.value
        else { throw TestFailure("no export: \(export)") }
        spec.removeAll { $0.key == "widths" }
        for width in [428, 1024, 375] {
            let name = "fresh\(width)"
            let params = JSONValue.object([("layout", .string(name)), ("width", .int(Int64(width)))] + spec)
            try await reader.write(#"{"id":3,"method":"layout.create","params":"# + params.jsonText + "}\n")
            _ = try await reader.readLines(1)
            let fresh = try await frames(of: name, at: nil, second.socketPath)
            #expect(fresh.replacingOccurrences(of: #""seq":1"#, with: #""seq":4"#) == before[width], "\(width)")
        }
        _ = await second.stop()
    }

    @Test(arguments: [false, true])
    func badWidthsAreRefusedAndChangeNothing(durable: Bool) async throws {
        let state = try makeTemporaryDirectory()
        defer { removeDirectory(state) }
        let daemon = try await DaemonProcess.start(
            .init(arguments: durable ? ["--state-dir", state] : ["--ephemeral"]))
        let client = try TestClient(path: daemon.socketPath)
        try await client.write(Self.create + "\n")
        _ = try await client.readLines(1)
        let seventeen = (1...17).map { String(100 + $0) }.joined(separator: ",")
        // A non-finite width cannot be written in JSON: a number past the doubles is refused as the line is read.
        let cases: [(String, String)] = [
            (#""widths":[]"#, "params.widths: 0 widths must list 1 to 16 widths"),
            (#""widths":[\#(seventeen)]"#, "params.widths: more than 16 widths"),
            (#""widths":[375,375]"#, "params.widths[1]: 375 is listed twice (as widths[0])"),
            (#""widths":[375,-1]"#, "params.widths[1]: -1 must be a number ≥ 0"),
            (#""widths":[375,1e400]"#, "number out of range at byte 76\",\"data\":{\"kind\":\"parse_error"),
            (#""widths":[375,"a"]"#, #"params.widths[1]: must be a number, not string \"a\""#),
            (#""widths":[375],"width":375"#, "params.widths: cannot be given with width"),
        ]
        let before = try await frames(at: [375, 428, 820], daemon.socketPath)
        for (k, (params, message)) in cases.enumerated() {
            try await client.write(
                #"{"id":\#(k),"method":"layout.configure","params":{"layout":"feed",\#(params)}}"# + "\n")
            let reply = try await client.readLines(1)[0]
            let kind = message.contains("parse_error") ? "parse_error" : "bad_params"
            #expect(reply.contains(message) && reply.contains(#""kind":"\#(kind)""#), "\(params): \(reply)")
        }
        for method in [
            #""method":"layout.get","params":{"layout":"feed","width":500}"#,
            #""method":"query","params":{"layout":"feed","rect":{"x":0,"y":0,"w":1,"h":1},"width":500}"#,
            #""method":"items.neighbors","params":{"layout":"feed","section":0,"i":0,"width":500}"#,
            #""method":"subscribe","params":{"layout":"feed","width":500}"#,
            #""method":"items.delete","params":{"layout":"feed","section":0,"items":[0],"width":500}"#,
        ] {
            try await client.write(#"{"id":9,\#(method)}"# + "\n")
            let reply = try await client.readLines(1)[0]
            #expect(
                reply.contains("params.width: 500 is not a width of layout 'feed' (its widths: 375, 428, 820)"),
                "\(method): \(reply)")
        }
        #expect(try await frames(at: [375, 428, 820], daemon.socketPath) == before)
        _ = await daemon.stop()
    }

    // MARK: Private

    /// `layout.get` of `feed` at each width, by width.
    private func frames(at widths: [Int], _ path: String) async throws -> [Int: String] {
        var result: [Int: String] = [:]
        for width in widths { result[width] = try await frames(of: "feed", at: width, path) }
        return result
    }

    private func frames(of name: String, at width: Int?, _ path: String) async throws -> String {
        let client = try TestClient(path: path)
        let selector = width.map { #","width":\#($0)"# } ?? ""
        try await client.write(#"{"id":1,"method":"layout.get","params":{"layout":"\#(name)"\#(selector)}}"# + "\n")
        return try await client.readLines(1)[0]
    }
}
