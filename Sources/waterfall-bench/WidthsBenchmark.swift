import Foundation
import WaterfallTestSupport

/// A layout at several widths, through the real daemon: a one-item change to a long feed laid out at 4 widths
/// against the same layout at 1 width (goal ≤ 1.6×), the two changed alternately so that the host's drift falls on
/// both sides of the ratio. The widths are phones' (375, 390, 414, 428). The fixed feed has adaptive columns at least
/// 180 wide, two at each, and fixed heights: the case the sharing of placement between widths is for. The aspect
/// feed has 2 columns of aspect-ratio items, whose heights differ at every width, so every width is placed.
enum WidthsBenchmark {
    struct Sizes {
        var items: Int
        var perInsert: Int
        var updates: Int
    }

    /// What the layouts hold: their section defaults, their items and the item an update sets.
    struct Feed {
        var label: String
        var defaults: String
        var items: [String]
        /// The update of item `at` to height `height` (or aspect height, over an aspect width).
        var update: (_ at: Int, _ height: Double) -> String
        /// The positions updated, each with and without its diff.
        var positions: [(name: String, at: Int)]

        /// Fixed heights under adaptive columns at least 180 wide.
        static func fixed(_ sizes: Sizes) -> Feed {
            Feed(
                label: "", defaults: #"{"minColumnWidth":180}"#, items: BulkFeed(count: sizes.items).itemTexts.real,
                update: { at, height in #"{"i":\#(at),"h":\#(height)}"# },
                positions: [("middle", sizes.items / 2), ("start", 10)])
        }

        /// Aspect-ratio items 300 wide and 20 to 400 high (the bulk feed's heights), in 2 columns.
        static func aspect(_ sizes: Sizes) -> Feed {
            Feed(
                label: " aspect items in 2 columns", defaults: #"{"columns":2}"#,
                items: BulkFeed(count: sizes.items).heights.map { #"{"w":300,"h":\#($0)}"# },
                update: { at, height in #"{"i":\#(at),"w":300,"h":\#(height)}"# },
                positions: [("middle", sizes.items / 2)])
        }
    }

    static let widths = [375, 390, 414, 428]

    static func run(_ sizes: Sizes, feed: Feed, table: inout Table, ratios: inout RatioTable) {
        guard let daemon = DaemonProcess.bench(arguments: ["--ephemeral"]),
            let control = BenchClient(path: daemon.socketPath)
        else {
            table.add("widths", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        for (name, widths) in [("one", [widths[0]]), ("four", widths)] {
            let list = widths.map(String.init).joined(separator: ",")
            control.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"\#(name)","widths":[\#(list)],"#
                    + #""defaults":\#(feed.defaults),"sections":[{}],"diff":false}}"#)
            for line in BulkFeed.insertLines(feed.items, sizes.perInsert) {
                control.expectResult(line.replacingOccurrences(of: #""layout":"bulk""#, with: #""layout":"\#(name)""#))
            }
        }
        for (position, at) in feed.positions {
            for diff in [true, false] {
                update(daemon, control, sizes, feed, at: at, position, diff: diff, &table, &ratios)
            }
        }
    }

    // MARK: Private

    /// Item `at`'s height changed on each layout in turn, one request at a time, with its diff in the reply or
    /// without (then the placement is most of the cost, not the reply's JSON, which is the first width's only).
    private static func update(
        _ daemon: DaemonProcess, _ control: BenchClient, _ sizes: Sizes, _ feed: Feed, at: Int, _ position: String,
        diff: Bool, _ table: inout Table, _ ratios: inout RatioTable
    ) {
        var seconds = (one: [Double](), four: [Double]())
        var cpu = (one: [Double](), four: [Double]())
        for k in 0..<(2 * sizes.updates + 4) {
            let four = k % 2 == 1
            let height = (k / 2) % 2 == 0 ? 333.25 : 111.5
            let line = Array(
                (#"{"id":\#(k),"method":"items.update","params":{"layout":"\#(four ? "four" : "one")","section":0,"#
                    + #""items":[\#(feed.update(at, height))]\#(diff ? "" : #","diff":false"#)}}"#).utf8)
            guard let (_, wall, used) = control.timedCall(line, on: daemon) else { return }
            guard k >= 4 else { continue }
            if four {
                seconds.four.append(wall)
                cpu.four.append(used)
            } else {
                seconds.one.append(wall)
                cpu.one.append(used)
            }
        }
        let one = WireBenchmark.median(seconds.one)
        let four = WireBenchmark.median(seconds.four)
        let name =
            "update item \(at) (\(position)) of \(sizes.items)\(feed.label)\(diff ? "" : ", \"diff\": false"), at 4 widths "
            + "(\(widths.map(String.init).joined(separator: ", "))) vs 1"
        let cpuFigures =
            "daemon CPU \(Format.seconds(WireBenchmark.median(cpu.four))) vs "
            + "\(Format.seconds(WireBenchmark.median(cpu.one)))"
        table.add(
            name, "\(Format.seconds(four)) vs \(Format.seconds(one)); \(cpuFigures)",
            "\(Format.ratio(four / one)) of 1 width", "≤ 1.6×: \(four / one <= 1.6 ? "met" : "not met")")
        // The ratio table's row is the aspect feed's: the fixed feed shares placement between widths.
        guard !feed.label.isEmpty else { return }
        ratios.add(
            "one change to a feed of aspect items at 4 widths / at 1 width: \(name)",
            daemon: "\(Format.seconds(four)), \(cpuFigures)", peer: Format.seconds(one), ratio: four / one, atMost: 1.6)
    }
}
