import Synchronization
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// The request side of the daemon: the layout registry, the daemon-wide counters and limits, and a `ClientSession`
/// per connection.
package final class LayoutService: SessionHandler {
    let registry: LayoutRegistry
    let logger: Logger
    let transport: TransportCounters
    let started = MonotonicClock.now
    /// What `version` reports as `instance`: random, so that it changes at every start.
    let instance = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    /// Where layouts are kept, or nil for an ephemeral daemon.
    let store: DurableStore?
    /// The open-file limit's shares, when the daemon set them at start.
    let descriptors: DescriptorBudget?
    let requests = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    /// Requests, errors and latency by method: each session adds its read's counts once per read.
    let tally = Mutex(RequestTally())
    private let current: Mutex<Config>
    private let currentLimits: Mutex<RequestLimits>

    // MARK: Lifecycle

    /// A service that keeps its layouts in memory only.
    package convenience init(
        config: Config, logger: Logger, transport: TransportCounters, descriptors: DescriptorBudget? = nil
    ) {
        self.init(config: config, logger: logger, transport: transport, store: nil, descriptors: descriptors)
    }

    /// A service whose layouts are kept by `store` (none: in memory only), starting with `recovered`, the
    /// layouts the store read back (adopted with their weight in the item budget); `descriptors` is the
    /// open-file limit's shares that `stats` reports.
    package init(
        config: Config, logger: Logger, transport: TransportCounters, store: DurableStore?,
        recovered: [RecoveredLayout] = [], descriptors: DescriptorBudget? = nil
    ) {
        registry = LayoutRegistry(log: store.map { DurableLog(store: $0) } ?? MemoryOnlyLog())
        self.store = store
        self.descriptors = descriptors
        current = Mutex(config)
        currentLimits = Mutex(RequestLimits(config))
        self.logger = logger
        self.transport = transport
        for layout in recovered { registry.adopt(layout.name, layout.layout) }
    }

    /// Opens the state directory `config` names (unless it is ephemeral), recovering its layouts (repairing
    /// first if `repair`, each action logged), and makes the service that holds them, with at most
    /// `descriptors.journals` journals open (shared out from the open-file limit now, without it).
    ///
    /// - Throws: `StorageError`: the directory is in use (naming the pid), damaged (naming file and offset),
    ///   or cannot be made.
    package static func start(
        config: Config, logger: Logger, transport: TransportCounters, environment: [String: String],
        repair: Bool = false, descriptors: DescriptorBudget? = nil
    ) async throws(StorageError) -> (service: LayoutService, repairs: [String]) {
        // Shared out from the limit as it is (not raised: that is the daemon's to do at start) when not given.
        let descriptors =
            descriptors
            ?? (try? DescriptorBudget(
                limit: DescriptorBudget.softLimit(), maxOpenJournals: config.maxOpenJournals, durable: true))
        guard !config.ephemeral else {
            return (LayoutService(config: config, logger: logger, transport: transport, descriptors: descriptors), [])
        }
        let options = StoreOptions(
            policy: config.fsync, limits: layoutLimits(config),
            maxOpenJournals: descriptors?.journals ?? config.maxOpenJournals)
        let started = MonotonicClock.now
        let opening = try await DurableStore.open(
            directory: config.stateDirectory, environment: environment, options: options, repair: repair,
            logger: logger)
        opening.store.counters.setRecovery(seconds: MonotonicClock.now - started)
        let service = LayoutService(
            config: config, logger: logger, transport: transport, store: opening.store, recovered: opening.layouts,
            descriptors: descriptors)
        return (service, opening.repairs)
    }

    /// Closes the store (the journals synced, the directory's lock released); the daemon calls it once the
    /// server has stopped.
    package func close() { store?.close() }

    // MARK: Package

    package func openSession(peer: PeerCredentials, output: any OutputSink) -> any Session {
        ClientSession(service: self, output: output, peer: peer)
    }

    package func configDidReload(_ config: Config) {
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
            server: BuildInfo.name, version: BuildInfo.version, instance: instance, durable: store != nil,
            limits: config.versionLimits)
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
        report.transport = transport
        report.residentBytes = ResidentMemory.bytes
        report.tally = tally.withLock { $0 }
        report.eventsSent = registry.events.sent.load(ordering: .relaxed)
        report.eventsDropped = registry.events.dropped.load(ordering: .relaxed)
        report.layoutRows = await registry.summaries()
        report.storage = store?.counters.snapshot
        report.descriptors = descriptorStats
        return report
    }

    /// The open-file limit's shares and what uses them now.
    var descriptorStats: DescriptorStats {
        var stats = DescriptorStats()
        stats.open = DescriptorBudget.inUse()
        if let descriptors {
            stats.limit = descriptors.limit
            stats.reserved = DescriptorBudget.reserved
            stats.connections = descriptors.connections
        }
        // The store's capacity is the journals' share, or `maxOpenJournals` when the limit was not shared out.
        if let journals = store?.openJournals {
            stats.journals = journals.capacity
            stats.journalsOpen = journals.open
            stats.journalEvictions = journals.evictions
            stats.journalReopens = journals.reopens
        }
        return stats
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
