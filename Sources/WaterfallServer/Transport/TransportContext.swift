import Synchronization

/// The limits a connection applies, taken from the config and swapped on reload.
struct TransportLimits: Sendable, Equatable {
    var maxLineBytes: Int
    /// `maxConnections`, or the connections' share of the open-file limit where that is smaller.
    var maxConnections: Int
    /// Whether the open-file limit, not `maxConnections`, sets `maxConnections`.
    var connectionsLimitedByDescriptors: Bool
    var outputPauseBytes: Int
    var outputStallSeconds: Double

    /// The limits of `config`, with at most `connectionShare` connections (`DescriptorBudget.connections`).
    init(config: Config, connectionShare: Int) {
        maxLineBytes = config.maxLineBytes
        maxConnections = min(config.maxConnections, connectionShare)
        connectionsLimitedByDescriptors = connectionShare < config.maxConnections
        outputPauseBytes = config.outputPauseBytes
        outputStallSeconds = config.outputStallSeconds
    }

    /// Reading resumes once pending output falls below this, so a paused client is not flipped on every write.
    var outputResumeBytes: Int { outputPauseBytes / 2 }

    /// The output limits a connection's state machine applies.
    var output: OutputLimits {
        OutputLimits(pauseBytes: outputPauseBytes, resumeBytes: outputResumeBytes, stallSeconds: outputStallSeconds)
    }
}

/// What every connection of one server shares: counters, logger, current limits and the set of open connections.
final class TransportContext: Sendable {
    // MARK: Lifecycle

    init(limits: TransportLimits, counters: TransportCounters, logger: Logger) {
        self.limitsStorage = Mutex(limits)
        self.counters = counters
        self.logger = logger
    }

    // MARK: Internal

    let counters: TransportCounters
    let logger: Logger

    /// The limits in force; a reload replaces them for all connections at once.
    var limits: TransportLimits {
        get { limitsStorage.withLock { $0 } }
        set { limitsStorage.withLock { $0 = newValue } }
    }

    /// Open connections, including those draining; counts against `maxConnections`.
    var openCount: Int { connections.withLock { $0.count } }

    /// All open connections, for shutdown and the stall check.
    var openConnections: [Connection] { connections.withLock { Array($0.values) } }

    /// Hands out connection ids, which appear in log lines.
    func nextConnectionID() -> UInt64 {
        connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
    }

    func register(_ connection: Connection) {
        connections.withLock { $0[connection.id] = connection }
        counters.connectionsOpen.add(1)
    }

    /// Called once per connection, after its session has closed.
    func unregister(_ connection: Connection) {
        let removed = connections.withLock { $0.removeValue(forKey: connection.id) }
        if removed != nil { counters.connectionsOpen.add(-1) }
    }

    // MARK: Private

    private let limitsStorage: Mutex<TransportLimits>
    private let connections = Mutex<[UInt64: Connection]>([:])
    private let connectionIDs = Atomic<UInt64>(0)
}
