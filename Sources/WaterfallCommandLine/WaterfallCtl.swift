import WaterfallClient

/// waterfallctl: parses a command line, runs it against the daemon and writes its output; returns the exit
/// status. Everything but the process's streams is here, so tests run commands in-process.
package enum WaterfallCtl {
    /// The exit statuses.
    package enum ExitStatus: Int32, Sendable {
        case success = 0
        /// The daemon answered an error.
        case daemonError = 1
        case usage = 2
        /// The socket could not be opened, or the connection was lost or timed out.
        case connection = 3
    }

    /// Runs `arguments` (without the program name).
    package static func run(
        _ arguments: [String], environment: [String: String], terminal: Terminal
    ) async -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try Invocation(parsing: arguments)
        } catch {
            terminal.writeError(error.line)
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
        if command == .completion {
            let name = invocation.arguments[0]
            guard let shell = CompletionScript.Shell(rawValue: name) else {
                let shells = CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
                terminal.writeError(
                    UsageError("completion: '\(name)' is not one of \(shells)", command: .completion).line)
                return .usage
            }
            terminal.write(CompletionScript.script(for: shell))
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
            terminal.writeError(error.line)
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
