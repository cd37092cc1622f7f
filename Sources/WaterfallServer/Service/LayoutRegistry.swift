import Dispatch
import Synchronization
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// The daemon's named layouts and everything about their life: creating, replacing and dropping them, applying runs
/// of changes, the daemon-wide item budget, subscriptions and the events they get, and reporting every change to the
/// `MutationLog` (the seam for durability).
///
/// The names are under a lock, not in an actor: every request looks its layout up here, and a lookup under a lock
/// is far cheaper than the hop (and a queue, under load) an actor would add on the way to the layout's own actor,
/// which is where the work and the ordering are.
final class LayoutRegistry: Sendable {
    // MARK: Lifecycle

    init(log: any MutationLog = MemoryOnlyLog()) {
        self.log = log
    }

    // MARK: Internal

    let budget = ItemBudget()
    let log: any MutationLog
    let events = EventCounters()

    /// The layout named `name`, if any.
    func entry(_ name: String) -> LayoutEntry? { entries.withLock { $0[name] } }

    /// All entries, by name.
    func all() -> [LayoutEntry] { entries.withLock { Array($0.values) }.sorted { $0.name < $1.name } }

    /// The layout named `name`, or the `not_found` error.
    func existing(_ name: String) throws(ProtocolError) -> LayoutEntry {
        guard let entry = entry(name) else { throw Self.missing(name) }
        return entry
    }

    static func missing(_ name: String) -> ProtocolError {
        ProtocolError(.notFound, "params.layout: layout '\(name)' does not exist")
    }

    /// Builds and adds the layout `creation` describes, replacing one of the same name only if it says so (whose
    /// subscribers then get `layout.dropped`); never past `maxLayouts` or the item budget.
    func create(_ creation: LayoutCreateRequest, limits: RequestLimits) async throws(ProtocolError) -> (
        Layout, LayoutDiff
    ) {
        let name = creation.layout
        if !creation.replace, entry(name) != nil { throw Self.exists(name) }
        // Reserved for its items and sections, settled with its columns once it is built.
        let estimate =
            LayoutCommand.insertSections(at: 0, sections: creation.spec.sections).addedWeight
            * creation.spec.widths.count
        try Self.reserve(estimate, limits, in: budget)
        let made: (layouts: LayoutWidths, diff: LayoutDiff)
        do {
            made = try await LayoutWidths.make(creation.spec, limits: limits.layout)
        } catch {
            budget.adjust(-estimate)
            throw ProtocolError(error)
        }
        let weight = made.layouts.weight
        budget.adjust(weight - estimate)
        let entry = LayoutEntry(name: name, layout: LayoutActor(made.layouts))
        entry.weight.withLock { $0 = weight }
        let outcome = await changeSet(replacing: creation.replace ? self.entry(name) : nil) {
            () -> Result<LayoutEntry?, ProtocolError> in
            let old = self.entries.withLock { $0[name] }
            if old != nil, !creation.replace { return .failure(Self.exists(name)) }
            if old == nil, self.entries.withLock({ $0.count }) >= limits.maxLayouts {
                return .failure(
                    ProtocolError(.limit, "params.layout: the daemon holds \(limits.maxLayouts) layouts, its limit"))
            }
            do throws(ProtocolError) {
                try self.log.commitNow([.created(layout: name, seq: made.layouts.seq, spec: creation.spec)])
            } catch {
                return .failure(error)
            }
            old?.retired.store(true, ordering: .releasing)
            self.entries.withLock { $0[name] = entry }
            return .success(old)
        }
        switch outcome {
        case .failure(let error):
            budget.adjust(-weight)
            throw error
        case .success(let replaced):
            if let replaced { retire(replaced) }
        }
        return (made.layouts.first, made.diff)
    }

    /// Removes the layout named `name`; its subscribers get `layout.dropped`.
    func drop(_ name: String) async throws(ProtocolError) {
        let outcome = await changeSet(replacing: entry(name)) { () -> Result<LayoutEntry, ProtocolError> in
            guard let entry = self.entries.withLock({ $0[name] }) else { return .failure(Self.missing(name)) }
            do throws(ProtocolError) {
                try self.log.commitNow([.dropped(layout: name)])
            } catch {
                return .failure(error)
            }
            entry.retired.store(true, ordering: .releasing)
            self.entries.withLock { _ = $0.removeValue(forKey: name) }
            return .success(entry)
        }
        retire(try outcome.get())
    }

    /// Adopts layouts read back from the state directory at start (before the daemon listens), with their weight
    /// in the budget; they are already durable.
    func adopt(_ name: String, _ layout: LayoutWidths) {
        let entry = LayoutEntry(name: name, layout: LayoutActor(layout))
        let weight = layout.weight
        entry.weight.withLock { $0 = weight }
        budget.adjust(weight)
        entries.withLock { $0[name] = entry }
    }

    /// An immutable copy of the layout named `name`, taken between two changes (free until the next change); at
    /// `width` when given (its frames are that width's), else at its first width.
    func snapshot(_ name: String, width: Double? = nil) async throws(ProtocolError) -> Layout {
        let layout = try await snapshotOfEveryWidth(name)
        guard let width else { return layout.first }
        guard let there = layout.at(width: width) else { throw WidthRoute.notAWidth(width, of: name, layout.widths) }
        return there
    }

    /// An immutable copy of the layout named `name` at every width (its settings and inputs are the same at each),
    /// taken between two changes.
    func snapshotOfEveryWidth(_ name: String) async throws(ProtocolError) -> LayoutWidths {
        try await existing(name).layout.read { $0 }
    }

    /// Subscribes `sink` (the connection of session `id`) to the layout named `name` at `width` (nil: the first),
    /// scoped to `viewport` when there is one (replacing the width and viewport of a subscription it already has);
    /// with a viewport, returns the layout at that width at that moment, from which the answer's snapshot of the
    /// viewport is taken.
    func subscribe(
        _ name: String, _ id: ObjectIdentifier, _ sink: any OutputSink, viewport: Viewport? = nil,
        width: Double? = nil
    ) async throws(ProtocolError) -> Layout? {
        let entry = try existing(name)
        // Through the layout's actor, so that a subscription starts (or its viewport moves) between two changes,
        // never inside one: each change decides there what its events need, and the layout returned is the one
        // the next event follows.
        let subscribers = entry.subscribers
        let outcome = await entry.layout.read { layout -> Result<Layout?, ProtocolError> in
            let there = width.map { layout.at(width: $0) } ?? layout.first
            guard let there, let key = Optional(AudienceKey(width: width, viewport: viewport)) else {
                return .failure(WidthRoute.notAWidth(width ?? 0, of: name, layout.widths))
            }
            if let viewport {
                do throws(LayoutError) {
                    try layout.first.check(viewport)
                } catch {
                    return .failure(ProtocolError(error))
                }
            }
            subscribers.add(id, sink, key)
            return .success(viewport == nil ? nil : there)
        }
        return try outcome.get()
    }

    /// Ends the subscription of session `id` to the layout named `name`; a no-op if there is none.
    func unsubscribe(_ name: String, _ id: ObjectIdentifier) throws(ProtocolError) {
        try existing(name).subscribers.remove(id)
    }

    /// One row per layout, by name, for `layout.list`.
    func summaries() async -> [LayoutSummary] {
        var rows: [LayoutSummary] = []
        for entry in all() {
            let row = await entry.layout.read { ($0.first.sectionCount, $0.first.itemCount, $0.seq, $0.widths) }
            rows.append(
                LayoutSummary(layout: entry.name, sections: row.0, items: row.1, seq: row.2, widths: row.3))
        }
        return rows
    }

    /// Layouts, sections, items and subscriptions in all, for `stats`.
    func totals() async -> (layouts: Int, sections: Int, items: Int, subscriptions: Int) {
        let entries = all()
        var sections = 0
        var items = 0
        var subscriptions = 0
        for entry in entries {
            let counts = await entry.layout.read { ($0.first.sectionCount, $0.first.itemCount) }
            sections += counts.0
            items += counts.1
            subscriptions += entry.subscribers.count
        }
        return (entries.count, sections, items, subscriptions)
    }

    /// Gives every layout new limits (after a reload).
    func setLimits(_ limits: LayoutLimits) async {
        for entry in all() { await entry.layout.setLimits(limits) }
    }

    /// Reserves `count` more items in the daemon's budget, or throws the `limit` error.
    static func reserve(_ count: Int, _ limits: RequestLimits, in budget: ItemBudget) throws(ProtocolError) {
        guard count > 0 else { return }
        guard budget.reserve(count, limit: limits.maxTotalItems) else {
            throw ProtocolError(
                .limit, "params: \(count) more items would pass the daemon's limit of \(limits.maxTotalItems)")
        }
    }

    // MARK: Private

    private let entries = Mutex<[String: LayoutEntry]>([:])
    /// Where a durable registry commits creates and drops and changes its map, one at a time: the map and the
    /// journal then see them in one order, and the commit blocks a thread of its own, not the cooperative pool.
    private let lane = DispatchQueue(label: "waterfalld.layouts")

    /// Runs `body`, a change to the set of layouts, on the lane when durable (inside a visit to the actor of
    /// `previous`, the entry it may retire, so that no change to that layout is under way meanwhile), or at once.
    private func changeSet<T: Sendable>(
        replacing previous: LayoutEntry?, _ body: @escaping @Sendable () -> T
    ) async -> T {
        guard log.isDurable else { return body() }
        let lane = self.lane
        let run: @Sendable () async -> T = {
            await withCheckedContinuation { continuation in lane.async { continuation.resume(returning: body()) } }
        }
        guard let previous else { return await run() }
        return await previous.layout.withLayout { _ in await run() }
    }

    private static func exists(_ name: String) -> ProtocolError {
        ProtocolError(.exists, "params.layout: '\(name)' exists (say \"replace\": true to replace it)")
    }

    /// Gives a removed layout's weight back and tells its subscribers, forgetting them.
    private func retire(_ entry: LayoutEntry) {
        budget.adjust(-entry.weight.withLock { $0 })
        let line = ReplyEncoding.droppedEvent(entry.name)
        for sink in entry.subscribers.removeAll() { sink.send(line) }
    }
}
