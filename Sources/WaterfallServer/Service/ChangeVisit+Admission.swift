import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

extension ChangeVisit {
    /// A change that admission let in: validated, its widths known, and its journal room, undo and growth taken.
    struct Admission {
        var validated: ValidatedChange
        /// Whether the change leaves the layout at its one width, `width` (the usual case, which needs no lists of
        /// widths: two allocations a change).
        var single: Bool
        var width: Double
        /// The widths before and after the change; empty when `single`.
        var before: [Double]
        var after: [Double]
        /// The weight the change took from the budget before it was applied.
        var growth: Int
        /// The commands that undo the change, when it has a small undo and no copy of the layout was taken yet.
        var inverse: [LayoutCommand]?

        /// The route of a reader that follows `wanted` (nil: the first width) through the change.
        func route(_ wanted: Double?) -> WidthRoute {
            single ? WidthRoute(wanted, only: width) : WidthRoute(wanted, before: before, after: after)
        }
    }

    /// The first stage of a change: validates it against `layout`, checks the width its result is asked at and its
    /// viewport, reserves its journal room, takes its undo (or a copy of the layout) and its growth from the budget.
    ///
    /// Nothing of the change is read before the engine has validated it, and a refusal takes nothing: the journal's
    /// room is reserved last but one and the budget last, and neither is taken when an earlier check refuses.
    ///
    /// Inlined into the visit's one change (`begin`), as each stage is: the stages are the visit's per-change
    /// path, and a call per stage showed in its cost.
    ///
    /// By index, as the visit reads its changes: a change passed on its own would be copied whole (a retain and a
    /// release of each of its arrays and strings), where read in place only the fields used are.
    @inline(__always)
    mutating func admit(_ changes: [LayoutChange], _ k: Int, to layout: borrowing LayoutWidths) throws(ProtocolError)
        -> Admission
    {
        let validated: ValidatedChange
        do {
            // A batch names the failing op in errors even when it holds one.
            validated = try layout.validate(
                changes[k].commands, anchor: changes[k].anchor, namingOps: changes[k].ops.isBatch)
        } catch {
            throw ProtocolError(error)
        }
        let width = layout.first.width
        let single = layout.staysAtOneWidth(after: validated)
        let before = single ? [] : layout.widths
        let after = single ? [] : layout.widths(after: validated)
        if let wanted = changes[k].width, single ? wanted != width : !after.contains(wanted) {
            throw WidthRoute.notAWidth(wanted, of: entry.name, single ? [width] : after)
        }
        if let viewport = changes[k].viewport {
            do throws(LayoutError) { try layout.first.check(viewport) } catch { throw ProtocolError(error) }
        }
        // Every width holds the change's items; the exact weight is settled after.
        let widthCount = single ? 1 : max(before.count, after.count)
        let growth = validated.commands.reduce(0) { $0 + $1.addedWeight } * widthCount
        var inverse: [LayoutCommand]?
        if durable {
            // The journal's room before anything changes: a full disk refuses the change and changes nothing.
            let bound = log.recordBound(validated)
            try log.reserve(entry.name, bytes: reserved + bound)
            reserved += bound
            if copy == nil {
                inverse = layout.undoing(validated)
                if inverse == nil { copy = copy layout }
            }
        }
        try LayoutRegistry.reserve(growth, limits, in: budget)
        return Admission(
            validated: validated, single: single, width: width, before: before, after: after, growth: growth,
            inverse: inverse)
    }
}
