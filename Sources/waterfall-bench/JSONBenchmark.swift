import Foundation
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// The project's reader and writer against Foundation's Codable coders on the same lines.
enum JSONBenchmark {
    /// A typical request: one item's new height.
    static let requestLine =
        #"{"jsonrpc":"2.0","id":7,"method":"items.update","params":{"layout":"feed","section":0,"#
        + #""items":[{"i":3,"h":120}]}}"#

    /// The diff of the reply to `requestLine`: one section, one item frame.
    static let replyDiff = LayoutDiff(sections: [
        SectionDiff(
            section: 0, origin: 0, height: 812, count: 31,
            items: [ItemFrame(index: 3, frame: Rect(x: 10, y: 700, width: 172.5, height: 102))])
    ])

    static func run(lines: Int, runs: Int, table: inout Table) async {
        let bytes = Array(requestLine.utf8)[...]
        var reader = JSONReader()
        var sink = 0
        let parseTime = Measure.median(runs: runs) {
            for _ in 0..<lines { sink &+= (try? reader.parse(bytes))?.nodeCount ?? -1 }
        }
        let data = Data(requestLine.utf8)
        let decoder = JSONDecoder()
        let foundationLines = max(1, lines / 20)
        // In turn, run by run, as the ratio to JSONDecoder is the figure that counts.
        let (readTime, decodeTime) = await Measure.interleaved(runs: runs) {
            for _ in 0..<lines { sink &+= decode(bytes, &reader) }
        } _: {
            for _ in 0..<foundationLines {
                sink &+= (try? decoder.decode(Wire.Request.self, from: data))?.params.items.count ?? -1
            }
        }
        var writer = JSONWriter(capacity: 512)
        let encoder = JSONEncoder()
        let reply = Wire.Reply(replyDiff)
        let (writeTime, encodeTime) = await Measure.interleaved(runs: runs) {
            for _ in 0..<lines {
                writer.reset()
                encode(replyDiff, &writer)
                sink &+= writer.byteCount
            }
        } _: {
            for _ in 0..<foundationLines { sink &+= (try? encoder.encode(reply))?.count ?? -1 }
        }
        let ns = (
            read: readTime / Double(lines), decode: decodeTime / Double(foundationLines),
            write: writeTime / Double(lines), encode: encodeTime / Double(foundationLines)
        )
        row("read + typed access, \(bytes.count)-byte items.update", ns.read, ns.decode, "JSONDecoder", &table)
        // Where the reading time goes: the tape parser alone, the rest is the protocol's typed decoding.
        row("parse only (JSONReader, no field access)", parseTime / Double(lines), ns.decode, "JSONDecoder", &table)
        row("write, \(writer.byteCount)-byte mutation reply", ns.write, ns.encode, "JSONEncoder", &table)
        row("read + write, both lines", ns.read + ns.write, ns.decode + ns.encode, "Foundation", &table)
        if sink == 42 { print(sink) }
    }

    /// What the daemon does with a request line before the engine: parse, envelope, typed params; a checksum.
    @inline(never)
    static func decode(_ line: ArraySlice<UInt8>, _ reader: inout JSONReader) -> Int {
        do {
            let document = try reader.parse(line)
            var id = RequestID.none
            let request = try Request(document, partialID: &id)
            guard case .change(let method) = request.knownMethod else { return -1 }
            var p = try Params(request.params, path: "params")
            let layout = try p.string("layout")
            let wantsDiff = try p.optionalBool("diff") ?? true
            let command = try CommandDecoding.command(method, &p)
            try p.finish()
            let count: Int
            switch command {
            case .updateItems(_, let updates): count = updates.count
            case .insertItems(_, _, let items): count = items.count
            default: count = 0
            }
            return layout.utf8.count + count + (wantsDiff ? 1 : 0)
        } catch {
            return -1
        }
    }

    /// What the daemon writes for a mutation with no subscriber: the reply line, with the diff (nil: none asked
    /// for) encoded in place.
    @inline(never)
    static func encode(_ diff: LayoutDiff?, _ w: inout JSONWriter) {
        ReplyEncoding.result(&w, id: .int(7)) { w in
            ReplyEncoding.mutation(&w, seq: 12, contentSize: Size(width: 375, height: 5210), diff: diff)
        }
    }

    private static func row(_ name: String, _ ours: Double, _ theirs: Double, _ what: String, _ table: inout Table) {
        let ratio = theirs / ours
        table.add(
            "JSON \(name)", "\(Format.seconds(ours)) per line (\(what) \(Format.seconds(theirs)))",
            "\(Format.ratio(ratio)) faster", "≥ 20×: \(ratio >= 20 ? "met" : "not met")")
    }
}

/// The same lines as Codable structs, for Foundation's coders.
enum Wire {
    struct Item: Codable { var i: Int, h: Double }
    struct Params: Codable { var layout: String, section: Int, items: [Item] }
    struct Request: Codable { var jsonrpc: String, id: Int, method: String, params: Params }
    struct Size: Codable { var w: Double, h: Double }
    struct Frame: Codable { var i: Int, x: Double, y: Double, w: Double, h: Double }
    struct Section: Codable { var section: Int, origin: Double, height: Double, count: Int, items: [Frame] }
    struct Diff: Codable { var sections: [Section] }
    struct Result: Codable { var seq: Int, contentSize: Size, diff: Diff }

    struct Reply: Codable {
        var jsonrpc = "2.0"
        var id = 7
        var result: Result

        init(_ diff: LayoutDiff) {
            let sections = diff.sections.map { s in
                Section(
                    section: s.section, origin: s.origin, height: s.height, count: s.count,
                    items: s.items.map {
                        Frame(i: $0.index, x: $0.frame.x, y: $0.frame.y, w: $0.frame.width, h: $0.frame.height)
                    })
            }
            result = Result(seq: 12, contentSize: Size(w: 375, h: 5210), diff: Diff(sections: sections))
        }
    }
}
