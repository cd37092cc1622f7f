import Dispatch
import Foundation

/// Timing: the median of several runs after a warm-up, on the monotonic clock; and the CPU time of this thread or
/// process, for runs that a shared host would otherwise slow at random.
enum Measure {
    /// Seconds of CPU (user and system) this thread has used.
    static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds of CPU (user and system) this process has used, all its threads.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Seconds taken by `body`.
    static func time(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// The median time of `runs` runs of `body` after one warm-up run.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        body()
        var times: [Double] = []
        for _ in 0..<runs { times.append(time(body)) }
        times.sort()
        return times[times.count / 2]
    }

    /// The median time of `runs` runs of an async `body` after one warm-up run.
    static func median(runs: Int, _ body: () async -> Void) async -> Double {
        await body()
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            await body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        times.sort()
        return times[times.count / 2]
    }

    /// The median times of `a` and `b` run in turn, `runs` times each after a warm-up of each: on a shared machine
    /// a burst of load then falls on both sides of a comparison rather than on one.
    static func interleaved(
        runs: Int, _ a: () async -> Void, _ b: () async -> Void
    ) async -> (a: Double, b: Double) {
        await a()
        await b()
        var times: (a: [Double], b: [Double]) = ([], [])
        for _ in 0..<runs {
            var start = DispatchTime.now().uptimeNanoseconds
            await a()
            times.a.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            start = DispatchTime.now().uptimeNanoseconds
            await b()
            times.b.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return (times.a.sorted()[runs / 2], times.b.sorted()[runs / 2])
    }

    /// The median time of `runs` runs where `setup` (untimed) prepares the input of the timed `body`.
    static func median<T>(runs: Int, setup: () async -> T, _ body: (inout T) async -> Void) async -> Double {
        var times: [Double] = []
        for run in 0...runs {
            var input = await setup()
            let start = DispatchTime.now().uptimeNanoseconds
            await body(&input)
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if run > 0 { times.append(elapsed) }
        }
        times.sort()
        return times[times.count / 2]
    }
}

/// The one table the benchmark prints.
struct Table {
    private var rows: [(String, String, String, String)] = []

    mutating func add(_ scenario: String, _ figure: String, _ ratio: String = "", _ target: String = "") {
        rows.append((scenario, figure, ratio, target))
        print("  \(scenario): \(figure) \(ratio)")
    }

    func render() -> String {
        var lines = ["| scenario | figure | ratio | target |", "|---|---|---|---|"]
        for row in rows { lines.append("| \(row.0) | \(row.1) | \(row.2) | \(row.3) |") }
        return lines.joined(separator: "\n")
    }
}

/// Formats numbers for the table.
enum Format {
    static func rate(_ perSecond: Double) -> String {
        if perSecond >= 1e6 { return "\(round(perSecond / 1e5) / 10) M/s" }
        if perSecond >= 1e3 { return "\(round(perSecond / 1e2) / 10) k/s" }
        return "\(round(perSecond * 10) / 10) /s"
    }

    static func seconds(_ s: Double) -> String {
        if s < 1e-6 { return "\(round(s * 1e10) / 10) ns" }
        if s < 1e-3 { return "\(round(s * 1e7) / 10) µs" }
        if s < 1 { return "\(round(s * 1e4) / 10) ms" }
        return "\(round(s * 100) / 100) s"
    }

    static func ratio(_ r: Double) -> String {
        if r >= 100 { return "\(Int(r.rounded()))×" }
        if r >= 0.01 { return "\(round(r * 100) / 100)×" }
        return "1/\(Int((1 / r).rounded()))"
    }
}
