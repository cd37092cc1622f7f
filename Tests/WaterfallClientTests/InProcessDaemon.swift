import Foundation
import Glibc
import WaterfallServer
import WaterfallTestSupport

/// The real daemon (`Server` with the `LayoutService`) on a socket in a fresh temporary directory.
struct InProcessDaemon {
    let server: Server
    let service: LayoutService
    let directory: String
    let path: String

    /// Durable, on a private state directory inside the daemon's temporary directory.
    static func start(configure: (inout Config) -> Void = { _ in }) async throws -> InProcessDaemon {
        let directory = try makeTemporaryDirectory()
        var config = Config()
        config.socket = directory + "/waterfalld.sock"
        config.stateDirectory = directory + "/state"
        configure(&config)
        // Quiet: a test that fails prints its own findings.
        let logger = Logger(level: .error, style: .journal) { _ in }
        let counters = TransportCounters()
        let service = try await LayoutService.start(
            config: config, logger: logger, transport: counters, environment: [:]
        ).service
        let server = try Server(config: config, handler: service, logger: logger, counters: counters)
        try server.start()
        return InProcessDaemon(server: server, service: service, directory: directory, path: config.socket!)
    }

    func stop() async {
        await server.shutdown()
        service.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `body` with a started daemon, and stops it after, also when `body` throws.
    static func with<T>(_ body: (InProcessDaemon) async throws -> T) async throws -> T {
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
