import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// One change to the set of layouts or to a layout, as the registry reports it to its `MutationLog`.
enum MutationRecord: Sendable {
    /// A layout was made from `spec` (replacing any of the same name), at `seq`.
    case created(layout: String, seq: Int, spec: LayoutSpec)
    /// A validated change was applied to a layout, taking it to `seq`.
    case applied(layout: String, seq: Int, change: ValidatedChange)
    /// A layout was dropped.
    case dropped(layout: String)
}

/// Where the registry makes its changes durable, in order per layout, before their replies and events are
/// released: the seam for the journal and snapshots.
///
/// A visit to a layout's actor (`ChangeVisit`) calls `reserve` for each change once it is validated (a refusal
/// changes nothing), applies the changes, then calls `commit` once with all of them (group commit) and `committed`
/// after; create and drop commit
/// one record each, on the registry's lane for the set of layouts. A failed commit makes the registry restore the
/// layout as it was before the visit and refuse the visit's changes.
protocol MutationLog: Sendable {
    /// Whether anything is kept: when not, the registry skips collecting records and keeping the layout's
    /// previous value.
    var isDurable: Bool { get }

    /// Makes sure that records of `bytes` bytes in all (see `recordBound`) can be committed for layout `name`.
    ///
    /// - Throws: the `storage` error when they cannot (the disk is full).
    func reserve(_ name: String, bytes: Int) throws(ProtocolError)

    /// The most bytes the record of `change` can take.
    func recordBound(_ change: ValidatedChange) -> Int

    /// Makes `records` durable (as far as the fsync policy says), blocking the caller: called on a thread that
    /// may block (the registry's lane), never on the cooperative pool.
    func commitNow(_ records: [MutationRecord]) throws(ProtocolError)

    /// Makes `records`, one visit's records of one layout, durable without blocking the cooperative pool.
    func commit(_ records: [MutationRecord]) async throws(ProtocolError)

    /// Called after a successful commit of layout `name`'s changes, with the layout as of the last of them.
    func committed(_ name: String, _ layout: @autoclosure () -> LayoutWidths)
}

/// The log of a daemon that keeps layouts in memory only (`--ephemeral`): it keeps nothing.
struct MemoryOnlyLog: MutationLog {
    var isDurable: Bool { false }
    func reserve(_ name: String, bytes: Int) throws(ProtocolError) {}
    func recordBound(_ change: ValidatedChange) -> Int { 0 }
    func commitNow(_ records: [MutationRecord]) throws(ProtocolError) {}
    func commit(_ records: [MutationRecord]) async throws(ProtocolError) {}
    func committed(_ name: String, _ layout: @autoclosure () -> LayoutWidths) {}
}
