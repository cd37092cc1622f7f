import Synchronization
import WaterfallLayout
import WaterfallProtocol

/// The request side of the daemon: the layout store, the daemon-wide counters and limits, and a `ClientSession`
/// per connection.
public final class LayoutService: SessionHandler {
    let store = LayoutStore()
    let budget = ItemBudget()
    let logger: Logger
    let transport: TransportCounters
    let started = MonotonicClock.now
    let requests = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    private let current: Mutex<Config>
    private let currentLimits: Mutex<RequestLimits>

    // MARK: Lifecycle

    public init(config: Config, logger: Logger, transport: TransportCounters) {
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
        let store = self.store
        Task {
            for entry in store.all() { await entry.layout.setLimits(limits) }
        }
    }

    // MARK: Internal

    var config: Config { current.withLock { $0 } }

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
    var maxReplyItems: Int
    var subscriberMaxPendingBytes: Int
    var layout: LayoutLimits

    init(_ config: Config) {
        maxLineBytes = config.maxLineBytes
        maxLayouts = config.maxLayouts
        maxTotalItems = config.maxTotalItems
        maxBatchOps = config.maxBatchOps
        maxReplyItems = config.maxReplyItems
        subscriberMaxPendingBytes = config.subscriberMaxPendingBytes
        layout = LayoutService.layoutLimits(config)
    }
}
