import WaterfallLayout
import WaterfallProtocol

/// One change to the set of layouts or to a layout, as the registry reports it to its `MutationLog`.
enum MutationRecord: Sendable {
    /// A layout was made from `spec` (replacing any of the same name), at `seq`.
    case created(layout: String, seq: Int, spec: LayoutSpec)
    /// `commands` were applied to a layout, taking it to `seq`.
    case applied(layout: String, seq: Int, commands: [LayoutCommand])
    /// A layout was dropped.
    case dropped(layout: String)
}

/// Where the registry reports every change it makes, in order per layout, before the change's reply is released:
/// the seam for durability (a journal and snapshots), which today's daemon does not have.
///
/// Called synchronously from inside the layout's actor visit (or the registry's lock, for create and drop), so the
/// records of one layout arrive in seq order. An implementation must not block: a journal would queue the record
/// here and make it durable before the visit's replies are sent.
protocol MutationLog: Sendable {
    func record(_ record: MutationRecord)
}

/// The log of a daemon that keeps layouts in memory only: it keeps nothing.
struct MemoryOnlyLog: MutationLog {
    func record(_ record: MutationRecord) {}
}
