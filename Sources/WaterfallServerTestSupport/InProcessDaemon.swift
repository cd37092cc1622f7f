import WaterfallServer
import WaterfallTestSupport

/// The real daemon (`Server` with the `LayoutService`) in this process, on a socket in a fresh temporary directory.
package struct InProcessDaemon: Sendable {
    package let server: Server
    package let service: LayoutService
    package let directory: String
    package let path: String

    /// Durable, as a user would start it, on a private state directory inside the daemon's temporary directory
    /// (`configure` may say `ephemeral`). Quiet: a test that fails prints its own findings.
    package static func start(configure: (inout Config) -> Void = { _ in }) async throws -> InProcessDaemon {
        let directory = try makeTemporaryDirectory()
        var config = Config()
        config.socket = directory + "/waterfalld.sock"
        config.stateDirectory = directory + "/state"
        configure(&config)
        let logger = Logger(level: .error, style: .journal) { _ in }
        let counters = TransportCounters()
        let service = try await LayoutService.start(
            config: config, logger: logger, transport: counters, environment: [:]
        ).service
        let server = try Server(config: config, handler: service, logger: logger, counters: counters)
        try server.start()
        return InProcessDaemon(server: server, service: service, directory: directory, path: config.socket!)
    }

    /// Stops accepting, closes every connection and the store, and removes the directory.
    package func stop() async {
        await server.shutdown()
        service.close()
        removeDirectory(directory)
    }

    /// Runs `body` with a started daemon, and stops it after, also when `body` throws.
    package static func with<T>(_ body: (InProcessDaemon) async throws -> T) async throws -> T {
        let daemon = try await start()
        do {
            let value = try await body(daemon)
            await daemon.stop()
            return value
        } catch {
            await daemon.stop()
            throw error
        }
    }
}
