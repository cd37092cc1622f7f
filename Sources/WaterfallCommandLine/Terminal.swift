import Foundation
import Synchronization

/// Where waterfallctl's output goes and its input comes from: the process's standard streams, or buffers in
/// tests that run commands in-process.
package struct Terminal: Sendable {
    /// Writes to standard output, unbuffered (a `watch` line appears when its event does).
    package var write: @Sendable (String) -> Void
    /// Writes to standard error.
    package var writeError: @Sendable (String) -> Void
    /// All of standard input.
    package var readInput: @Sendable () async -> String
    /// Writes a whole file (render's `--output`); throws with the reason.
    package var writeFile: @Sendable (_ path: String, _ text: String) throws -> Void

    package init(
        write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        readInput: @escaping @Sendable () async -> String,
        writeFile: @escaping @Sendable (_ path: String, _ text: String) throws -> Void
    ) {
        self.write = write
        self.writeError = writeError
        self.readInput = readInput
        self.writeFile = writeFile
    }

    /// The process's standard streams and files.
    package static let standard = Terminal(
        write: { FileHandle.standardOutput.write(Data($0.utf8)) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) },
        readInput: {
            // Read on a thread of its own: a blocking read must not hold one of the cooperative pool's threads.
            await withCheckedContinuation { continuation in
                Thread {
                    let data = FileHandle.standardInput.readDataToEndOfFile()
                    continuation.resume(returning: String(decoding: data, as: UTF8.self))
                }.start()
            }
        },
        writeFile: { path, text in try Data(text.utf8).write(to: URL(fileURLWithPath: path)) })

    /// A terminal whose output is kept, for tests.
    package static func capturing(input: String = "") -> (terminal: Terminal, output: CapturedOutput) {
        let output = CapturedOutput()
        let terminal = Terminal(
            write: { text in output.standard.withLock { $0 += text } },
            writeError: { text in output.error.withLock { $0 += text } }, readInput: { input },
            writeFile: { path, text in output.files.withLock { $0[path] = text } })
        return (terminal, output)
    }
}

/// What a capturing terminal received.
package final class CapturedOutput: Sendable {
    package let standard = Mutex("")
    package let error = Mutex("")
    package let files = Mutex<[String: String]>([:])

    package var standardText: String { standard.withLock { $0 } }
    package var errorText: String { error.withLock { $0 } }
}
