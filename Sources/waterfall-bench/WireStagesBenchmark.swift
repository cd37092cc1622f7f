import Foundation
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallServer
import WaterfallWire

/// The two stages of a bulk load as the daemon runs them, in process and in thread CPU time: a connection's thread
/// parses and decodes each `items.insert` line while the session applies the one before, so the load's rate is
/// bounded by the slower of the two. Here they alternate on one thread, one command in flight as in the daemon,
/// under the daemon's allocator settings (`MemoryTuning`), and each is timed on its own.
///
/// CPU time rather than wall time: on this shared host the wall time of a loaded run says more about the other
/// processes than about the code.
enum WireStagesBenchmark {
    static func run(lines: [(name: String, lines: [[UInt8]], items: Int)], runs: Int, table: inout Table) async {
        MemoryTuning.apply()
        for (name, bytes, items) in lines {
            var decode: [Double] = []
            var apply: [Double] = []
            for run in 0...runs {
                guard let times = await load(bytes) else {
                    table.add("bulk load stages, \(name) heights", "failed")
                    return
                }
                // The first round warms up.
                if run > 0 {
                    decode.append(times.decode)
                    apply.append(times.apply)
                }
            }
            let perItem = (
                decode: decode.sorted()[runs / 2] / Double(items), apply: apply.sorted()[runs / 2] / Double(items)
            )
            table.add(
                "bulk load stages in process, \(bytes.count) items.insert of \(name) heights",
                "decode \(Format.seconds(perItem.decode)), apply \(Format.seconds(perItem.apply)) CPU per item",
                "bound \(Format.rate(1 / max(perItem.decode, perItem.apply))) items")
        }
    }

    /// The connection's reading of a pipelined one-item `items.update` line (the floor scenario's), through the
    /// general path (parse into a tape, then decode) and through the one-pass path that takes such lines
    /// (`QuickRequest`), timed in turn.
    static func requestLine(count: Int, runs: Int, table: inout Table) async {
        let line = Array(
            (#"{"jsonrpc":"2.0","id":17,"method":"items.update","params":{"layout":"floor-0","section":0,"#
                + #""items":[{"i":999,"h":100.17}]}}"#).utf8)[...]
        func read(quick: Bool) -> () async -> Void {
            // The connection's own reading, or the general reading it falls back to for other lines.
            let decode: (ArraySlice<UInt8>, inout JSONReader) -> DecodedRequest =
                quick
                ? { DecodedRequest(.line($0), reader: &$1, maxBatchOps: 10_000) }
                : { DecodedRequest(parsing: $0, reader: &$1, maxBatchOps: 10_000) }
            return {
                var reader = JSONReader.forRequests()
                var changes = 0
                for _ in 0..<count {
                    if case .change = decode(line, &reader) {
                        changes += 1
                    }
                }
                precondition(changes == count, "the line was not read as a change")
            }
        }
        let (general, quick) = await Measure.interleaved(runs: runs, read(quick: false), read(quick: true))
        table.add(
            "request line, pipelined one-item items.update: general path vs one pass",
            "\(Format.seconds(general / Double(count))) vs \(Format.seconds(quick / Double(count))) per line",
            "\(Format.ratio(general / quick)) faster")
    }

    /// The CPU seconds of decoding and of applying `lines` in turn into a fresh layout of one 3-column section.
    private static func load(_ lines: [[UInt8]]) async -> (decode: Double, apply: Double)? {
        let spec = LayoutSpec(width: 1000, defaults: SectionProperties(columns: 3), sections: [SectionSpec()])
        guard var layout = try? await Layout.make(spec).layout else { return nil }
        var reader = JSONReader.forRequests()
        var decode = 0.0
        var apply = 0.0
        var pending: LayoutCommand?
        for line in lines + [[]] {
            var next: LayoutCommand?
            if !line.isEmpty {
                let start = Measure.threadCPUSeconds()
                next = decodeInsert(line[...], &reader)
                decode += Measure.threadCPUSeconds() - start
                guard next != nil else { return nil }
            }
            if let command = pending {
                pending = nil
                let start = Measure.threadCPUSeconds()
                guard (try? await layout.validateAndApply([command], listingItems: false)) != nil else { return nil }
                apply += Measure.threadCPUSeconds() - start
            }
            pending = next
        }
        return (decode, apply)
    }

    /// What `PreparedRequest` does with an `items.insert` line: parse, read the envelope, decode the command.
    private static func decodeInsert(_ line: ArraySlice<UInt8>, _ reader: inout JSONReader) -> LayoutCommand? {
        guard let document = try? reader.parse(line) else { return nil }
        var id = RequestID.none
        do throws(ProtocolError) {
            let request = try Request(document, partialID: &id)
            var p = try Params(request.params, path: "params")
            _ = try p.string("layout")
            _ = try p.optionalBool("diff")
            let command = try CommandDecoding.command(.itemsInsert, &p)
            try p.finish()
            return command
        } catch {
            return nil
        }
    }
}
