import WaterfallClient

/// waterfallctl: parses a command line, runs it against the daemon and writes its output; returns the exit
/// status. Everything but the process's streams is here, so tests run commands in-process.
public enum WaterfallCtl {
    /// The exit statuses.
    public enum ExitStatus: Int32, Sendable {
        case success = 0
        /// The daemon answered an error.
        case daemonError = 1
        case usage = 2
        /// The socket could not be opened, or the connection was lost or timed out.
        case connection = 3
    }

    /// Runs `arguments` (without the program name).
    public static func run(
        _ arguments: [String], environment: [String: String], terminal: Terminal
    ) async -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try Invocation(parsing: arguments)
        } catch {
            terminal.writeError("waterfallctl: \(error.message)\n")
            let hint = error.command.map { "waterfallctl help \($0.rawValue)" } ?? "waterfallctl --help"
            terminal.writeError("Try '\(hint)'.\n")
            return .usage
        }
        guard let command = invocation.command else {
            terminal.write(Command.overview)
            return .success
        }
        if invocation.wantsHelp || command == .help {
            terminal.write(command.help)
            return .success
        }
        let path = invocation.socket ?? WaterfallClient.defaultSocketPath(environment: environment)
        do {
            let run = CommandRun(invocation: invocation, command: command, terminal: terminal)
            try await run.prepare()
            let client = try await WaterfallClient.connect(
                to: path, timeout: .milliseconds(Int(invocation.timeout * 1000)))
            defer { client.close() }
            return try await run.execute(client)
        } catch let error as UsageError {
            terminal.writeError("waterfallctl: \(error.message)\nTry 'waterfallctl help \(command.rawValue)'.\n")
            return .usage
        } catch let error as WaterfallClientError {
            terminal.writeError("waterfallctl: \(error.kind): \(error.message)\n")
            switch error.source {
            case .daemon, .reply: return .daemonError
            case .connection, .timeout, .cancelled: return .connection
            }
        } catch {
            terminal.writeError("waterfallctl: \(error)\n")
            return .daemonError
        }
    }
}
