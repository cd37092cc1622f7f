import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// Which of a change's per-width outcomes a reader gets: the width whose frames it has after the change (`to`) and
/// the one whose frames it had before (`from`), for a reader that follows `wanted` (nil: the first width).
///
/// A width the change adds has no frames before it: its diff starts from the first width's. A reader whose width the
/// change removes moves to the first width, its diff leading there from the width it had (`isMove`).
struct WidthRoute: Hashable {
    var to: Double
    var from: Double
    var isMove: Bool

    init(_ wanted: Double?, before: [Double], after: [Double]) {
        if let wanted, !after.contains(wanted) {
            to = after[0]
            from = before.contains(wanted) ? wanted : before[0]
            isMove = true
        } else {
            to = wanted ?? after[0]
            from = before.contains(to) ? to : before[0]
            isMove = false
        }
    }

    /// The route of a reader that follows `wanted` through a change that leaves the layout at its one width,
    /// `width`, as `init(_:before:after:)` finds it with both lists `[width]`, without making them.
    init(_ wanted: Double?, only width: Double) {
        to = width
        from = width
        isMove = wanted.map { $0 != width } ?? false
    }

    /// The outcome of this route among a change's.
    func outcome(in outcomes: WidthOutcomes) -> WidthOutcome {
        // A layout at one width, the usual case: its one outcome, without a search through the collection's generic
        // iterator (a copy of every outcome it passes).
        if case .one(let only) = outcomes, only.width == to, only.from == from { return only }
        guard let found = outcomes.first(where: { $0.width == to && $0.from == from }) else {
            // Every route's outcome is asked of the engine; a miss is a bug, answered with the first width's.
            assertionFailure("no outcome for \(self)")
            return outcomes[0]
        }
        return found
    }

    /// The `bad_params` error for `width`, which is not one of `widths`, the widths of layout `layout`.
    static func notAWidth(_ width: Double, of layout: String, _ widths: [Double]) -> ProtocolError {
        let listed = widths.map { LayoutError.text($0) }.joined(separator: ", ")
        return .badParams(
            "params.width", "\(LayoutError.text(width)) is not a width of layout '\(layout)' (its widths: \(listed))")
    }
}
