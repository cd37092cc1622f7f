import Foundation
import Glibc
import WaterfallTestSupport

/// Where the daemon's CPU goes on the request path: one `loadgen` client pipelining one-item `items.update`
/// requests 256 deep (the floor scenario's load), sampled by `perf record` on the daemon, each sample's function
/// put in a step, and each step's share of the samples turned into nanoseconds of the daemon's CPU per request.
///
/// Samples land in the function that was running: a step is what its functions do themselves, so work inlined into
/// a caller counts in the caller's step. Without `perf` on `PATH` (or with sampling refused) the scenario says so.
enum ProfileBenchmark {
    /// The steps, in the order the table lists them, with what puts a function in each.
    enum Step: String, CaseIterable {
        case decode = "decode"
        case engine = "engine"
        case visit = "route and visit"
        case encode = "encode"
        case connection = "connection and framing"
        case tasks = "tasks, locks and thread switches"
        case memory = "allocation and reference counting"
        case copies = "copies (memmove)"
        case socket = "kernel: socket reads and writes"
        case poll = "kernel: epoll"
        case other = "other"
    }

    static func run(requests: Int, rounds: Int, peers: PeerPrograms, table: inout Table) {
        guard let perf = PeerPrograms.which("perf") else {
            table.add("request path profile", "skipped: perf is not on PATH")
            return
        }
        guard let loadgen = peers.loadgen else {
            table.add("request path profile", "skipped: \(peers.missing.joined(separator: "; "))")
            return
        }
        guard let daemon = DaemonProcess.bench(arguments: ["--ephemeral"]),
            let setup = BenchClient(path: daemon.socketPath)
        else {
            table.add("request path profile", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        let heights = BenchLayouts.heights(1_000).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        setup.expectResult(
            #"{"id":1,"method":"layout.create","params":{"layout":"p","width":1000,"#
                + #""defaults":{"columns":3},"sections":[{"items":[\#(heights)]}],"diff":false}}"#)
        let line =
            #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"p","section":0,"#
            + #""items":[{"i":999,"h":100.%d}]}}"#
        let arguments = [daemon.socketPath, "pipelined", "\(requests)", "256", line]
        // A warm-up round, then the sampled rounds.
        _ = peers.run(loadgen, arguments)
        let samples = peers.directory + "/perf.data"
        guard
            let recorder = peers.spawn(
                perf, ["record", "-F", "2000", "-p", "\(daemon.pid)", "-o", samples], output: "perf-record")
        else { return }
        usleep(300_000)
        let cpu = daemon.cpuSeconds
        for _ in 0..<rounds { _ = peers.run(loadgen, arguments) }
        let perRequest = (daemon.cpuSeconds - cpu) / Double(requests * rounds)
        kill(recorder.pid, SIGINT)
        _ = peers.wait(recorder)
        guard
            let report = peers.run(
                perf, ["report", "-i", samples, "--no-children", "--sort", "dso,sym", "--stdio", "-g", "none"]),
            report.status == 0
        else {
            table.add("request path profile", "skipped: perf could not sample the daemon")
            return
        }
        let shares = Self.shares(report.output)
        let total = shares.values.reduce(0, +)
        guard total > 0 else {
            table.add("request path profile", "skipped: perf recorded no samples")
            return
        }
        let steps = Step.allCases.map { step in
            "\(step.rawValue) \(Int((shares[step, default: 0] / total * perRequest * 1e9).rounded())) ns"
        }
        table.add(
            "request path profile, pipelined one-item items.update (loadgen, 256 deep), ns of daemon CPU per request",
            steps.joined(separator: ", "), "daemon CPU \(Format.seconds(perRequest)) per request")
    }

    /// Each step's share of the samples in `perf report`'s flat listing (lines such as
    /// `  6.83%  libc.so.6  [.] __memmove_avx512_unaligned_erms`).
    static func shares(_ report: String) -> [Step: Double] {
        var shares: [Step: Double] = [:]
        for line in report.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard fields.count == 4, fields[0].hasSuffix("%"), let percent = Double(fields[0].dropLast()) else {
                continue
            }
            let kernel = fields[2] == "[k]"
            shares[step(dso: String(fields[1]), symbol: String(fields[3]), kernel: kernel), default: 0] += percent
        }
        return shares
    }

    /// The step of one function: by the module a Swift symbol belongs to and the type it names, by the library
    /// otherwise.
    static func step(dso: String, symbol: String, kernel: Bool) -> Step {
        if kernel {
            if symbol.contains("epoll") || symbol.hasPrefix("ep_") { return .poll }
            let scheduling = ["schedule", "switch", "futex", "wake", "hrtimer", "idle", "enqueue", "dequeue"]
            return scheduling.contains { symbol.contains($0) } ? .tasks : .socket
        }
        if dso.hasPrefix("libswift_Concurrency") || symbol.contains("swift_task") || symbol.contains("swift_job")
            || symbol.contains("runJob") || symbol.hasPrefix("pthread_") || symbol.contains("futex")
            || symbol.contains("Mutex")
        {
            return .tasks
        }
        if let (module, rest) = swiftModule(symbol), module.hasPrefix("Waterfall") {
            switch module {
            case "WaterfallServer":
                let transport = ["Connection", "OutputQueue", "EventLoop", "Server", "Socket", "Transport"]
                return transport.contains { rest.contains($0) } ? .connection : .visit
            case "WaterfallJSON":
                return rest.contains("JSONWriter") ? .encode : .decode
            case _ where module.contains("Protocol") || module.contains("Wire"):
                if rest.contains("LineFramer") { return .connection }
                let encoding = ["Encoding", "Reply", "Writer", "Encode"]
                return encoding.contains { rest.contains($0) } ? .encode : .decode
            default:
                // The engine and the value types it is made of.
                return .engine
            }
        }
        if symbol.contains("memmove") || symbol.contains("memcpy") { return .copies }
        let memory = [
            "malloc", "free", "alloc", "swift_retain", "swift_release", "swift_bridgeObject", "swift_isUniquely",
            "RefCounts", "arrayDestroy", "Storage", "chunk",
        ]
        if memory.contains(where: { symbol.contains($0) }) { return .memory }
        return .other
    }
}

extension ProfileBenchmark {
    /// The module a mangled Swift symbol (`$s15WaterfallLayout…`) belongs to, and the rest of the symbol.
    static func swiftModule(_ symbol: String) -> (String, Substring)? {
        guard symbol.hasPrefix("$s") else { return nil }
        let tail = symbol.dropFirst(2)
        let digits = tail.prefix { $0.isASCII && $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let name = tail.dropFirst(digits.count)
        guard name.count >= length else { return nil }
        return (String(name.prefix(length)), name.dropFirst(length))
    }
}
