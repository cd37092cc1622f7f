import Foundation
import Glibc
import WaterfallTestSupport

/// The programs the daemon is measured against, compiled at bench time: `floor.c`, a line server that
/// parses nothing and answers each line with a reply the size of a one-frame `items.update` result; `loadgen.c`, a
/// pipelining client independent of the project's code; and `simdjson-sum.cpp`, simdjson's on-demand parser reading
/// every number of a bulk load.
///
/// Their sources are the repository's copies in `Peers/` beside this file (excluded from the Swift target), found
/// through this file's path at build time, or under the current directory. They are built with `cc` and `c++` from
/// `PATH` into a temporary directory; a missing compiler or `libsimdjson-dev` leaves that program out, and `missing`
/// says why, so that only the ratios that need it are skipped. `@unchecked Sendable`: its fields are set by `init`
/// only, and read after.
final class PeerPrograms: @unchecked Sendable {
    // MARK: Lifecycle

    init() {
        var template = Array("/tmp/waterfall-peers-XXXXXX".utf8CString)
        directory = mkdtemp(&template).map { String(cString: $0) } ?? "/tmp"
        guard let sources = Self.sourceDirectory() else {
            missing.append("the peers' sources (Sources/waterfall-bench/Peers) are not found: run from the repository")
            return
        }
        if let cc = Self.which("cc") ?? Self.which("gcc") ?? Self.which("clang") {
            floor = compile(cc, ["-O2", "-o", directory + "/floor", sources + "/floor.c"], "floor")
            loadgen = compile(cc, ["-O2", "-o", directory + "/loadgen", sources + "/loadgen.c"], "loadgen")
        } else {
            missing.append("no C compiler (cc, gcc or clang) on PATH: floor and loadgen are not built")
        }
        if let cxx = Self.which("c++") ?? Self.which("g++") ?? Self.which("clang++") {
            if FileManager.default.fileExists(atPath: "/usr/include/simdjson.h") {
                simdjsonSum = compile(
                    cxx,
                    [
                        "-O2", "-std=c++17", "-o", directory + "/simdjson-sum", sources + "/simdjson-sum.cpp",
                        "-lsimdjson",
                    ],
                    "simdjson-sum")
            } else {
                missing.append(
                    "libsimdjson-dev is not installed (no /usr/include/simdjson.h): simdjson-sum is not built")
            }
        } else {
            missing.append("no C++ compiler (c++, g++ or clang++) on PATH: simdjson-sum is not built")
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    // MARK: Internal

    let directory: String
    private(set) var floor: String?
    private(set) var loadgen: String?
    private(set) var simdjsonSum: String?
    /// Why a program is missing, one sentence each.
    private(set) var missing: [String] = []

    /// Runs `executable` to its end; its exit status and standard output (nil if it could not start).
    func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String)? {
        guard let child = spawn(executable, arguments, output: "out-\(UInt32.random(in: 0...UInt32.max))") else {
            return nil
        }
        return wait(child)
    }

    /// Starts `executable` in the background, with its output going to `output` in the directory.
    func spawn(_ executable: String, _ arguments: [String], output: String) -> ChildProcess? {
        let path = directory + "/" + output
        do {
            return try ChildProcess(executable, arguments, output: path, errors: path + ".err")
        } catch {
            print("  could not \(error)")
            return nil
        }
    }

    /// Waits for a program started by `spawn`; its exit status and output (errors appended).
    func wait(_ child: ChildProcess) -> (status: Int32, output: String) {
        let exited: Int32 =
            switch child.waitForExit() {
            case .exited(let status): status
            case .killed(let signal): 128 + signal
            }
        return (exited, child.standardOutput + child.standardError)
    }

    /// The first number before `unit` in `text` (as in "= 1234567 req/s" or "= 21.5 M items/s").
    static func number(before unit: String, in text: String) -> Double? {
        guard let range = text.range(of: unit) else { return nil }
        let head = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        return head.split(separator: " ").last.flatMap { Double($0) }
    }

    // MARK: Private

    private func compile(_ compiler: String, _ arguments: [String], _ name: String) -> String? {
        guard let started = spawn(compiler, arguments, output: "build-\(name)") else { return nil }
        let result = wait(started)
        let built = directory + "/" + name
        if result.status == 0, FileManager.default.isExecutableFile(atPath: built) { return built }
        let why = result.output.split(separator: "\n").first.map(String.init) ?? "exit status \(result.status)"
        missing.append("\(compiler) could not build \(name): \(why)")
        return nil
    }

    private static func sourceDirectory() -> String? {
        let beside = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers").path
        let candidates = [beside, FileManager.default.currentDirectoryPath + "/Sources/waterfall-bench/Peers"]
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/floor.c") }
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
