import Dispatch
import Foundation
import Glibc
import Synchronization
import WaterfallProtocol
import WaterfallWire

/// The daemon's transport: listens, accepts, checks peers, runs connections, and handles signals and systemd.
package final class Server: Sendable {
    // MARK: Lifecycle

    /// Prepares a server; nothing is bound until `start()` or `run()`.
    ///
    /// - Parameters:
    ///   - counters: shared with whoever answers the `stats` method (give the same object to the handler).
    ///   - descriptors: the open-file limit's shares; connections past theirs are refused like those past
    ///     `maxConnections`.
    ///   - reloadConfig: reads the config again on SIGHUP (file, then flags); nil when there is nothing to reload.
    ///   - trustedUIDs: replaces the always-allowed uids (root and our own), so tests running as root can meet a
    ///     refusal; nil keeps them.
    package init(
        config: Config,
        handler: any SessionHandler,
        logger: Logger,
        counters: TransportCounters = TransportCounters(),
        reloadConfig: (@Sendable () throws -> Config)? = nil,
        descriptors: DescriptorBudget? = nil,
        trustedUIDs: Set<UInt32>? = nil
    ) throws(ConfigError) {
        self.handler = handler
        self.logger = logger
        self.counters = counters
        self.reloadConfig = reloadConfig
        connectionShare = descriptors?.connections ?? Int.max
        self.context = TransportContext(
            limits: TransportLimits(config: config, connectionShare: connectionShare), counters: counters,
            logger: logger)
        var policy = try CredentialPolicy(config: config)
        if let trustedUIDs { policy.trustedUIDs = trustedUIDs }
        self.state = Mutex(State(config: config, policy: policy))
    }

    // MARK: Internal

    /// The transport's counters now.
    package var stats: TransportStats { counters.snapshot() }

    /// The path served (nil before start and for a socket passed in by systemd).
    package var socketPath: String? { state.withLock { $0.listener?.path } }

    /// The config in force (after any reload).
    package var config: Config { state.withLock { $0.config } }

    /// Starts serving, handles SIGTERM/SIGINT (graceful shutdown) and SIGHUP (reload), and returns after shutdown.
    ///
    /// - Parameter signals: the handlers the daemon installed before recovering its state, which this server
    ///   takes over; without them it installs its own.
    package func run(signals: StartupSignals? = nil) async throws(ServerError) {
        let handler: @Sendable (Int32) -> Void = { [self] signal in
            if signal == SIGHUP {
                reload()
            } else {
                logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); shutting down")
                Task { await shutdown() }
            }
        }
        if let signals {
            // On the control queue, as with a watcher of the server's own: reloads stay in order with its timers.
            signals.route { [controlQueue] signal in controlQueue.async { handler(signal) } }
        } else {
            let watcher = SignalWatcher(signals: [SIGTERM, SIGINT, SIGHUP], queue: controlQueue, handler: handler)
            state.withLock { $0.signalWatcher = watcher }
            // No socket before a signal can stop the daemon cleanly (waiting a second at most).
            for _ in 0..<1000 where !watcher.isReady {
                try? await Task.sleep(for: .milliseconds(1))
            }
            if !watcher.isReady { logger.warning("signal handlers are not installed after 1 s; starting anyway") }
        }
        try start()
        await waitUntilStopped()
    }

    /// Binds (or takes systemd's socket), starts accepting and tells systemd it is ready.
    package func start() throws(ServerError) {
        signal(SIGPIPE, SIG_IGN)
        MemoryTuning.apply()
        // Started here, where a failure is a clear startup error, not at the first connection.
        guard !EventLoop.shared.isEmpty else {
            throw ServerError("cannot start the event loop (epoll, eventfd): \(describeErrno())")
        }
        let config = self.config
        let listener = try openListener(config)
        let started = state.withLock { state in
            guard state.phase == .idle else { return false }
            // Created inside the lock: a dispatch source is not Sendable, so it must not cross into it.
            let source = DispatchSource.makeReadSource(fileDescriptor: listener.fd, queue: acceptQueue)
            source.setEventHandler { [self] in acceptConnections() }
            // Only the descriptor: `shutdown` removes the file itself, as a cancel handler may never run if the
            // process exits first.
            source.setCancelHandler { listener.closeDescriptor() }
            state.phase = .running
            state.listener = listener
            state.acceptSource = source
            state.timers = makeTimers(config)
            source.activate()
            return true
        }
        guard started else {
            // A signal came while binding: stop as cleanly as after serving.
            listener.close()
            logger.info("stopped before serving")
            return
        }
        logger.info("listening on \(listener.path ?? "the socket passed by systemd (fd 3)")")
        notifier.notify("READY=1\nSTATUS=serving")
    }

    /// Stops accepting, answers what was read, flushes, closes every connection (and its session), removes the
    /// socket file; returns within `shutdownTimeoutSeconds` plus a little. Later calls wait for the first.
    package func shutdown() async {
        let (first, deadline) = state.withLock { state -> (Bool, Double) in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return (false, 0)
            case .running:
                state.phase = .stopping
                return (true, state.config.shutdownTimeoutSeconds)
            case .stopping, .stopped:
                return (false, 0)
            }
        }
        guard first else {
            await waitUntilStopped()
            return
        }
        notifier.notify("STOPPING=1")
        state.withLock { state in
            for timer in state.timers { timer.cancel() }
            state.timers = []
            if let source = state.acceptSource {
                source.cancel()
                if state.acceptSuspended { source.resume() }
                state.acceptSuspended = false
            }
            state.acceptSource = nil
            // Now, synchronously: the process exits soon after the last connection closes.
            state.listener?.removeFile()
        }
        for connection in context.openConnections { connection.close() }
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        while context.openCount > 0, elapsed() < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        let stragglers = context.openConnections
        if !stragglers.isEmpty {
            logger.warning("\(stragglers.count) connection(s) still busy after \(deadline) s; closing them")
            for connection in stragglers { connection.abort(reason: "shutdown timeout") }
            while context.openCount > 0, elapsed() < deadline + Self.abortGraceSeconds {
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        // Logged before the waiters resume: the process may exit as soon as they do.
        logger.info("stopped")
        let waiters = state.withLock { state in
            state.phase = .stopped
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Reads the config again; a bad one keeps the old and logs why. The socket settings need a restart.
    package func reload() {
        guard let reloadConfig else {
            logger.info("SIGHUP: no config file was given; nothing to reload")
            return
        }
        let new: Config
        let policy: CredentialPolicy
        do {
            new = try reloadConfig()
            policy = try CredentialPolicy(config: new)
        } catch {
            logger.error("SIGHUP: keeping the old config: \(error)")
            return
        }
        let applied = state.withLock { state -> Config in
            var applied = new
            let old = state.config
            // The keys declared to apply at the next start keep their old values until then.
            let deferred = ConfigKey.all.filter { $0.reload == .atNextStart && $0.differs(new, old) }
            if !deferred.isEmpty {
                let names = deferred.map(\.key).joined(separator: ", ")
                logger.warning("SIGHUP: changes to \(names) take effect at the next start")
                for key in deferred { key.copy(old, &applied) }
            }
            var newPolicy = policy
            newPolicy.trustedUIDs = state.policy.trustedUIDs
            state.policy = newPolicy
            state.config = applied
            return applied
        }
        let limits = TransportLimits(config: applied, connectionShare: connectionShare)
        context.limits = limits
        for connection in context.openConnections { connection.apply(limits) }
        logger.level = applied.logLevel
        handler.configDidReload(applied)
        logger.info("SIGHUP: config reloaded (log level \(applied.logLevel.rawValue))")
    }

    // MARK: Private

    enum Phase {
        case idle
        case running
        case stopping
        case stopped
    }

    struct State {
        var config: Config
        var policy: CredentialPolicy
        var phase = Phase.idle
        var listener: SocketListener?
        var acceptSource: (any DispatchSourceRead)?
        var acceptSuspended = false
        var timers: [any DispatchSourceTimer] = []
        var signalWatcher: SignalWatcher?
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// After the deadline, how long aborted connections get to close their sessions.
    private static let abortGraceSeconds = 0.15

    let handler: any SessionHandler
    let logger: Logger
    let context: TransportContext
    /// The connections' share of the open-file limit (`DescriptorBudget.connections`).
    let connectionShare: Int
    let state: Mutex<State>
    let acceptQueue = DispatchQueue(label: "waterfalld.accept")
    let counters: TransportCounters
    private let reloadConfig: (@Sendable () throws -> Config)?
    private let controlQueue = DispatchQueue(label: "waterfalld.control")
    private let notifier = SystemdNotifier()

    private func openListener(_ config: Config) throws(ServerError) -> SocketListener {
        if let activated = try SocketListener.fromSystemd(logger: logger) {
            if config.socket != nil { logger.info("socket activation: ignoring the configured socket path") }
            return activated
        }
        let path: String
        let gid: UInt32?
        do {
            path = try SocketPath.resolve(
                configured: config.socket, environment: ProcessInfo.processInfo.environment, createDirectory: true
            )
            gid = try config.socketGroup.map { name throws(ConfigError) in
                try SystemAccounts.groupID(named: name, key: "socketGroup")
            }
        } catch {
            throw ServerError(error.message)
        }
        return try SocketListener.bind(path: path, mode: config.socketMode, gid: gid, logger: logger)
    }

    /// The stall check and, when systemd asks for it, the watchdog ping.
    private func makeTimers(_ config: Config) -> [any DispatchSourceTimer] {
        var timers: [any DispatchSourceTimer] = []
        let stall = DispatchSource.makeTimerSource(queue: controlQueue)
        let period = min(1, max(0.05, config.outputStallSeconds / 4))
        stall.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(50))
        stall.setEventHandler { [self] in
            let now = DispatchTime.now().uptimeNanoseconds
            for connection in context.openConnections { connection.checkStall(now: now) }
        }
        stall.activate()
        timers.append(stall)
        if let interval = notifier.watchdogInterval {
            let watchdog = DispatchSource.makeTimerSource(queue: controlQueue)
            watchdog.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(100))
            watchdog.setEventHandler { [notifier] in notifier.notify("WATCHDOG=1") }
            watchdog.activate()
            timers.append(watchdog)
            logger.debug("sending WATCHDOG=1 every \(interval) s")
        }
        return timers
    }

    private func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { state in
                if state.phase == .stopped { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() }
        }
    }
}
