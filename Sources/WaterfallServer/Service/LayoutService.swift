import Synchronization
import WaterfallLayout
import WaterfallProtocol

/// The request side of the daemon: the layout registry, the daemon-wide counters and limits, and a `ClientSession`
/// per connection.
public final class LayoutService: SessionHandler {
    let registry: LayoutRegistry
    let logger: Logger
    let transport: TransportCounters
    let started = MonotonicClock.now
    let requests = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    private let current: Mutex<Config>
    private let currentLimits: Mutex<RequestLimits>

    // MARK: Lifecycle

    public convenience init(config: Config, logger: Logger, transport: TransportCounters) {
        self.init(config: config, logger: logger, transport: transport, log: MemoryOnlyLog())
    }

    /// A service whose registry reports its changes to `log`.
    init(config: Config, logger: Logger, transport: TransportCounters, log: any MutationLog) {
        registry = LayoutRegistry(log: log)
        current = Mutex(config)
        currentLimits = Mutex(RequestLimits(config))
        self.logger = logger
        self.transport = transport
    }

    // MARK: Public

    public func openSession(peer: PeerCredentials, output: any OutputSink) -> any Session {
        ClientSession(service: self, output: output, peer: peer)
    }

    public func configDidReload(_ config: Config) {
        current.withLock { $0 = config }
        currentLimits.withLock { $0 = RequestLimits(config) }
        let limits = Self.layoutLimits(config)
        let registry = self.registry
        Task { await registry.setLimits(limits) }
    }

    // MARK: Internal

    var config: Config { current.withLock { $0 } }

    /// The daemon-wide item budget.
    var budget: ItemBudget { registry.budget }

    /// What `version` reports.
    var versionReport: VersionReport {
        let config = self.config
        return VersionReport(
            server: BuildInfo.name, version: BuildInfo.version,
            limits: [
                ("maxLineBytes", config.maxLineBytes), ("maxConnections", config.maxConnections),
                ("maxLayouts", config.maxLayouts), ("maxItemsPerLayout", config.maxItemsPerLayout),
                ("maxSectionsPerLayout", config.maxSectionsPerLayout), ("maxTotalItems", config.maxTotalItems),
                ("maxColumns", config.maxColumns), ("maxBatchOps", config.maxBatchOps),
            ])
    }

    /// What `stats` reports now.
    func statsReport() async -> StatsReport {
        let totals = await registry.totals()
        let transport = self.transport.snapshot()
        var report = StatsReport()
        report.uptimeSeconds = MonotonicClock.now - started
        report.requests = requests.load(ordering: .relaxed)
        report.errors = errors.load(ordering: .relaxed)
        report.layouts = totals.layouts
        report.sections = totals.sections
        report.items = totals.items
        report.subscriptions = totals.subscriptions
        report.connectionsOpen = transport.connectionsOpen
        report.connectionsAccepted = transport.connectionsAccepted
        report.connectionsForbidden = transport.connectionsForbidden
        report.connectionsOverLimit = transport.connectionsOverLimit
        report.connectionsClosedSlow = transport.connectionsClosedSlow
        report.bytesRead = transport.bytesRead
        report.bytesWritten = transport.bytesWritten
        report.linesRead = transport.linesRead
        report.linesTooLarge = transport.linesTooLarge
        report.residentBytes = ResidentMemory.bytes
        return report
    }

    /// The limits requests check, as plain numbers: cheaper to read per request than the whole `Config`.
    var limits: RequestLimits { currentLimits.withLock { $0 } }

    static func layoutLimits(_ config: Config) -> LayoutLimits {
        LayoutLimits(
            maxItems: config.maxItemsPerLayout, maxSections: config.maxSectionsPerLayout,
            maxColumns: config.maxColumns)
    }
}

/// The limits a request is checked against, from the config.
struct RequestLimits: Sendable {
    var maxLineBytes: Int
    var maxLayouts: Int
    var maxTotalItems: Int
    var maxBatchOps: Int
    var subscriberMaxPendingBytes: Int
    var layout: LayoutLimits

    init(_ config: Config) {
        maxLineBytes = config.maxLineBytes
        maxLayouts = config.maxLayouts
        maxTotalItems = config.maxTotalItems
        maxBatchOps = config.maxBatchOps
        subscriberMaxPendingBytes = config.subscriberMaxPendingBytes
        layout = LayoutService.layoutLimits(config)
    }
}
