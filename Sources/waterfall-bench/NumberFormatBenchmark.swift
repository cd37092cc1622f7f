import Glibc
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

/// Doubles written as JSON: nanoseconds a double, the writer's shortest-digits conversion against the
/// standard library's `Double.write(to:)`, timed in turn; and a reply of frames written through the
/// protocol's fragment writer, in MB/s. Each figure is the thread's CPU time (the wall time in parentheses): on a
/// shared host the other tenants' load stretches the wall time of a single-threaded loop far more, and less evenly,
/// than its CPU time.
enum NumberFormatBenchmark {
    static func run(count: Int, runs: Int, table: inout Table) async {
        guard let feed = await photoFeed(items: count) else { return }
        var rng = SplitMix64(seed: 42)
        let sets: [(String, [Double])] = [
            ("uniform in [20, 400)", (0..<count).map { _ in Double.random(in: 20..<400, using: &rng) }),
            ("y of a photo feed's frames", feed.items.map(\.frame.y)),
            (
                "short (172.5, 60.25, 0.125)",
                (0..<count).map { _ in
                    Double(Int.random(in: 1...99_999, using: &rng)) / [2, 4, 8, 10][Int(rng.next() % 4)]
                }
            ),
            ("integers below 10^5", (0..<count).map { _ in Double(Int.random(in: 0..<100_000, using: &rng)) }),
        ]
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: count * JSONFragment.numberLength + 32)
        defer { buffer.deallocate() }
        var sink = 0
        for (name, values) in sets {
            let times = inTurn(
                runs: runs,
                [
                    { sink &+= writeAll(values, to: buffer) }, { sink &+= writeAllReference(values, to: buffer) },
                ])
            let (new, old) = (times[0], times[1])
            let n = Double(count)
            table.add(
                "numformat, \(name)",
                "\(Format.seconds(new.cpu / n)) (\(Format.seconds(new.wall / n))) a double; Double.write(to:) "
                    + "\(Format.seconds(old.cpu / n)) (\(Format.seconds(old.wall / n)))",
                Format.ratio(old.cpu / new.cpu) + " as fast (" + Format.ratio(old.wall / new.wall) + ")",
                "well under 15 ns")
        }
        frames(feed, runs: runs, table: &table)
        if sink == 42 { print(sink) }
    }

    // MARK: Private

    /// A photo feed 375 points wide: two columns of 172.5 at x 10 and 192.5, items as tall as their images' aspect
    /// ratios make them (17 significant digits, mostly), so y is too.
    private static func photoFeed(items: Int) async -> SectionFrames? {
        var rng = SplitMix64(seed: 7)
        let photos = (0..<items).map { _ in
            Item(
                height: Double(Int.random(in: 400...1_600, using: &rng)),
                aspectWidth: Double(Int.random(in: 600...1_600, using: &rng)))
        }
        let properties = SectionProperties(
            columns: 2, columnSpacing: 10, rowSpacing: 8, insets: Insets(top: 0, left: 10, bottom: 0, right: 10))
        var spec = LayoutSpec(width: 375, defaults: properties)
        spec.sections = [SectionSpec(items: photos)]
        return try? await Layout.make(spec, allowsParallelism: false).layout.frames(ofSection: 0)
    }

    /// The frames of `feed` as `layout.get` sends them: through `ReplyEncoding` (x and w from its per-call cache,
    /// the others by the writer's own), then with the reference number writers for every number.
    private static func frames(_ feed: SectionFrames, runs: Int, table: inout Table) {
        var writer = JSONWriter(capacity: feed.items.count * 64)
        var reference = JSONWriter(capacity: feed.items.count * 64)
        let times = inTurn(
            runs: runs,
            [
                {
                    writer.reset()
                    ReplyEncoding.section(feed, &writer)
                },
                {
                    reference.reset()
                    writeItems(
                        feed.items, &reference, number: { $0.referenceNumber($1) }, integer: { $0.referenceInteger($1) }
                    )
                },
            ])
        let (new, old) = (times[0], times[1])
        // The same frame text both ways (`ReplyEncoding`'s text also has the section's own members first).
        let items = Array(reference.bytes.dropFirst(9))
        guard writer.bytes.suffix(items.count).elementsEqual(items) else {
            table.add("numformat, frames", "the two writers disagree on the frames' text")
            return
        }
        func rate(_ time: (wall: Double, cpu: Double), _ bytes: Int) -> String {
            "\(Int(Double(bytes) / time.cpu / 1e6)) MB/s (\(Int(Double(bytes) / time.wall / 1e6)))"
        }
        let count = Double(feed.items.count)
        let frameBytes = reference.byteCount / feed.items.count
        table.add(
            "numformat, \(feed.items.count) frames (~\(frameBytes) B each) via ReplyEncoding.section",
            "\(rate(new, writer.byteCount)), \(Format.seconds(new.cpu / count)) a frame",
            Format.ratio(old.cpu / new.cpu) + " the old writer's \(rate(old, reference.byteCount))", "≥ 1000 MB/s")
    }

    /// Runs `bodies` in turn, `runs` times after a warm-up, so a burst of load on this shared host falls on all of
    /// them; returns the median wall and thread CPU seconds of each.
    private static func inTurn(runs: Int, _ bodies: [() -> Void]) -> [(wall: Double, cpu: Double)] {
        var times = Array(repeating: (wall: [Double](), cpu: [Double]()), count: bodies.count)
        for run in 0...runs {
            for (k, body) in bodies.enumerated() {
                let cpu = Measure.threadCPUSeconds()
                let wall = Measure.time(body)
                if run > 0 {
                    times[k].wall.append(wall)
                    times[k].cpu.append(Measure.threadCPUSeconds() - cpu)
                }
            }
        }
        return times.map { (median($0.wall), median($0.cpu)) }
    }

    private static func median(_ times: [Double]) -> Double { times.sorted()[times.count / 2] }

    /// `{"items":[…]}` as `ReplyEncoding` writes a section's items, with the given number writers.
    @inline(__always)
    private static func writeItems(
        _ items: [ItemFrame], _ w: inout JSONWriter, number: (inout JSONFragment, Double) -> Void,
        integer: (inout JSONFragment, Int) -> Void
    ) {
        w.beginObject()
        w.key("items")
        w.beginArray()
        for item in items {
            w.fragment(maximumLength: 30 + 5 * JSONFragment.numberLength) { f in
                f.text(#"{"i":"#)
                integer(&f, item.index)
                f.text(#","x":"#)
                number(&f, item.frame.x)
                f.text(#","y":"#)
                number(&f, item.frame.y)
                f.text(#","w":"#)
                number(&f, item.frame.width)
                f.text(#","h":"#)
                number(&f, item.frame.height)
                f.text("}")
            }
        }
        w.endArray()
        w.endObject()
    }

    /// Writes every value one after the other, as a reply would; returns the bytes.
    @inline(never)
    private static func writeAll(_ values: [Double], to p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        for value in values { count += NumberFormatting.number(value, to: p + count) }
        return count
    }

    /// `writeAll` through the standard library's printer.
    @inline(never)
    private static func writeAllReference(_ values: [Double], to p: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        for value in values { count += NumberFormatting.referenceNumber(value, to: p + count) }
        return count
    }
}
