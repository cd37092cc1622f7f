import Foundation
import Synchronization

/// Node.js on `PATH` (which `.ci/run` installs), or nil; and a script run with it whose output lines a test waits
/// for.
enum Node {
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["node", "nodejs"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// Starts `script` with `arguments`; its standard output is collected line by line.
    static func start(_ script: String, _ arguments: [String]) throws -> ChildProcessLines {
        try ChildProcessLines(executable: path ?? "/usr/bin/node", arguments: [script] + arguments)
    }
}

/// A child process whose standard output is read on a thread of its own, so that waiting for a line never blocks
/// the test's tasks.
final class ChildProcessLines: Sendable {
    private let process: Process
    private let lines = Mutex<[String]>([])

    init(executable: String, arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let output = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            var partial = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                partial.append(chunk)
                while let end = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: partial[partial.startIndex..<end], as: UTF8.self)
                    partial = Data(partial[(end + 1)...])
                    self.lines.withLock { $0.append(line) }
                }
            }
        }
    }

    /// The first line that starts with `prefix`, waiting up to `seconds` for it; nil if none came.
    func line(startingWith prefix: String, within seconds: Double) async throws -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = lines.withLock({ $0.first { $0.hasPrefix(prefix) } }) { return line }
            guard process.isRunning else { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
