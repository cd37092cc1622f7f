import Foundation
import WaterfallTestSupport

/// A layout at several widths, through the real daemon: a one-item change to a million items laid out at
/// 4 widths against the same layout at 1 width (goal ≤ 1.6×), the two changed alternately so that the host's drift
/// falls on both sides of the ratio. The widths are phones' (375, 390, 414, 428) with adaptive columns at least 180
/// wide, two at each, and fixed heights: the case the sharing of placement between widths is for.
enum WidthsBenchmark {
    struct Sizes {
        var items: Int
        var perInsert: Int
        var updates: Int
    }

    static let widths = [375, 390, 414, 428]

    static func run(_ sizes: Sizes, table: inout Table) {
        guard let daemon = DaemonProcess.bench(arguments: ["--ephemeral"]),
            let control = BenchClient(path: daemon.socketPath)
        else {
            table.add("widths", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        let texts = BulkFeed(count: sizes.items).itemTexts.real
        for (name, widths) in [("one", [widths[0]]), ("four", widths)] {
            let list = widths.map(String.init).joined(separator: ",")
            control.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"\#(name)","widths":[\#(list)],"#
                    + #""defaults":{"minColumnWidth":180},"sections":[{}],"diff":false}}"#)
            for line in BulkFeed.insertLines(texts, sizes.perInsert) {
                control.expectResult(line.replacingOccurrences(of: #""layout":"bulk""#, with: #""layout":"\#(name)""#))
            }
        }
        for (position, at) in [("middle", sizes.items / 2), ("start", 10)] {
            for diff in [true, false] { update(daemon, control, sizes, at: at, position, diff: diff, &table) }
        }
    }

    // MARK: Private

    /// Item `at`'s height changed on each layout in turn, one request at a time, with its diff in the reply or
    /// without (then the placement is most of the cost, not the reply's JSON, which is the first width's only).
    private static func update(
        _ daemon: DaemonProcess, _ control: BenchClient, _ sizes: Sizes, at: Int, _ position: String, diff: Bool,
        _ table: inout Table
    ) {
        var seconds = (one: [Double](), four: [Double]())
        var cpu = (one: [Double](), four: [Double]())
        for k in 0..<(2 * sizes.updates + 4) {
            let four = k % 2 == 1
            let height = (k / 2) % 2 == 0 ? 333.25 : 111.5
            let line = Array(
                (#"{"id":\#(k),"method":"items.update","params":{"layout":"\#(four ? "four" : "one")","section":0,"#
                    + #""items":[{"i":\#(at),"h":\#(height)}]\#(diff ? "" : #","diff":false"#)}}"#).utf8)
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
        table.add(
            "update item \(at) (\(position)) of \(sizes.items)\(diff ? "" : ", \"diff\": false"), at 4 widths "
                + "(\(widths.map(String.init).joined(separator: ", "))) vs 1",
            "\(Format.seconds(four)) vs \(Format.seconds(one)); daemon CPU \(Format.seconds(WireBenchmark.median(cpu.four))) "
                + "vs \(Format.seconds(WireBenchmark.median(cpu.one)))",
            "\(Format.ratio(four / one)) of 1 width",
            "≤ 1.6×: \(four / one <= 1.6 ? "met" : "not met")")
    }
}
