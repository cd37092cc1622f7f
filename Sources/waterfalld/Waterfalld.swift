import Foundation
import WaterfallServer

/// The daemon's entry point: argv → options → config → logger → service → server, until a signal stops it.
@main
enum Waterfalld {
    static func main() async {
        let options: CommandLineOptions
        do {
            options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            StandardError.write("waterfalld: \(error) (try 'waterfalld --help')\n")
            CommandLineOptions.ExitStatus.usage.exit()
        }
        if options.showVersion {
            print("\(BuildInfo.name) \(BuildInfo.version)")
            CommandLineOptions.ExitStatus.success.exit()
        }
        if options.showHelp {
            printHelp(options)
            CommandLineOptions.ExitStatus.success.exit()
        }

        let config: Config
        do {
            config = try options.loadConfig()
        } catch {
            StandardError.write("waterfalld: \(error)\n")
            CommandLineOptions.ExitStatus.config.exit()
        }
        let logger = Logger(level: config.logLevel)
        let counters = TransportCounters()
        // Before anything opens a file: recovery and every later open stay within the shares.
        let descriptors: DescriptorBudget
        do {
            descriptors = try DescriptorBudget.atStart(
                maxOpenJournals: config.maxOpenJournals, durable: !config.ephemeral)
        } catch {
            StandardError.write("waterfalld: \(error)\n")
            CommandLineOptions.ExitStatus.failure.exit()
        }
        descriptors.log(to: logger, maxConnections: config.maxConnections)
        // Before recovery, which can take seconds: SIGTERM then stops the daemon at once, and SIGHUP is ignored.
        let signals = await StartupSignals(logger: logger)
        // Recovered before the socket is bound: the first answered request, and READY=1, see every layout.
        let service: LayoutService
        do {
            let started = try await LayoutService.start(
                config: config, logger: logger, transport: counters, environment: ProcessInfo.processInfo.environment,
                repair: options.repair, descriptors: descriptors)
            for action in started.repairs { StandardError.write("waterfalld: repair: \(action)\n") }
            service = started.service
        } catch {
            StandardError.write("waterfalld: \(error)\n")
            CommandLineOptions.ExitStatus.failure.exit()
        }
        // SIGHUP re-reads the same file and re-applies the same flags; without a file there is nothing to re-read.
        let reload: (@Sendable () throws -> Config)? =
            options.configPath == nil ? nil : { @Sendable in try options.loadConfig() }
        do {
            let server = try Server(
                config: config, handler: service, logger: logger, counters: counters, reloadConfig: reload,
                descriptors: descriptors)
            try await server.run(signals: signals)
            service.close()
        } catch let error as ConfigError {
            // Like every start-up error: one plain line, not a log line.
            StandardError.write("waterfalld: \(error)\n")
            CommandLineOptions.ExitStatus.config.exit()
        } catch {
            StandardError.write("waterfalld: \(error)\n")
            CommandLineOptions.ExitStatus.failure.exit()
        }
        CommandLineOptions.ExitStatus.success.exit()
    }

    /// Prints the usage with the socket the daemon would use; a broken config must not hide the help.
    private static func printHelp(_ options: CommandLineOptions) {
        let configured = (try? options.loadConfig())?.socket ?? options.socket
        let socket: String
        do {
            socket = try SocketPath.resolve(configured: configured, createDirectory: false)
        } catch {
            socket = "unavailable (\(error))"
        }
        let program = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "waterfalld") }
        print(CommandLineOptions.usage(program: program ?? "waterfalld", resolvedSocket: socket))
    }
}
