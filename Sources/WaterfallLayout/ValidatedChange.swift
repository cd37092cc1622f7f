import WaterfallModel

/// A change that `Layout.validate(_:anchor:namingOps:)` (or `LayoutWidths.validate`) checked against a layout as it
/// stood: the only form of a change that `Layout.apply(_:listingItems:)`, `LayoutWidths.apply` and
/// `Layout.undoing(_:)` take, and so what a durable daemon's undo and
/// journal read.
///
/// Only the engine's validation makes one, so nothing can read a command before every index, count and value in it
/// is known to be in range: the durable daemon once computed an undo (`at + items.count`) from a client's unchecked
/// `at` of 2⁶³ − 1, before validation, and trapped.
public struct ValidatedChange: Sendable {
    /// The commands, in order, each in range of the layout as the ones before it leave it.
    public let commands: [LayoutCommand]
    /// The item the change follows, known to exist before it; nil when the change names none.
    public let anchor: ItemPath?
    /// The state it was checked against: a change applies to that state only.
    let stamp: Stamp
    /// The layout's item count after the change.
    let itemCount: Int
    /// The section of a change that is one plain item command (the usual request), which skips the batch
    /// machinery; nil for any other change.
    let plainSection: Int?

    /// What identifies the state a change was validated against, cheaply: the seq alone is not enough for a caller
    /// that validates against one layout and applies to another, which the counts catch in practice.
    struct Stamp: Hashable {
        var seq: Int
        var sectionCount: Int
        var itemCount: Int
    }
}

extension Layout {
    /// Checks `commands` (and `anchor`, an item by its indices before them) against the layout as it is, without
    /// changing it.
    ///
    /// - Throws: `LayoutError` for the first invalid command, naming the field and the value (with `ops[k].params`
    ///   before it when `namingOps`, by default when there are several commands).
    /// - Complexity: O(commands' size + sections) in general; O(1) plus the items' checks for one plain item
    ///   command.
    public func validate(
        _ commands: [LayoutCommand], anchor: ItemPath? = nil, namingOps: Bool? = nil
    ) throws(LayoutError) -> ValidatedChange {
        try validate(commands, anchor: anchor, namingOps: namingOps, alongside: [])
    }

    /// `validate(_:anchor:namingOps:)` for this layout as the first width of a layout also laid out as `others`:
    /// geometry is checked at every width, and the limits count every width's frames.
    func validate(
        _ commands: [LayoutCommand], anchor: ItemPath?, namingOps: Bool?, alongside others: [Layout]
    ) throws(LayoutError) -> ValidatedChange {
        if let anchor { try checkAnchor(anchor) }
        if let (section, count) = quickCheck(commands, widthCount: 1 + others.count) {
            return ValidatedChange(
                commands: commands, anchor: anchor, stamp: stamp, itemCount: count, plainSection: section)
        }
        let count = try validateOnShape(commands, namingOps: namingOps ?? (commands.count > 1), alongside: others)
        return ValidatedChange(commands: commands, anchor: anchor, stamp: stamp, itemCount: count, plainSection: nil)
    }

    /// The state a change validated now applies to.
    var stamp: ValidatedChange.Stamp {
        ValidatedChange.Stamp(seq: seq, sectionCount: sections.count, itemCount: itemCount)
    }

    /// Dry-runs `commands` on a shape and returns the item count they would leave.
    ///
    /// A function of its own so that the shape, which shares the sections' storage, is gone before the sections
    /// change: alive, it would make every change copy the sections it touches, whole.
    private func validateOnShape(
        _ commands: [LayoutCommand], namingOps: Bool, alongside others: [Layout]
    ) throws(LayoutError) -> Int {
        var shape = LayoutShape(self, alongside: others)
        for (k, command) in commands.enumerated() {
            do throws(LayoutError) {
                try shape.apply(command)
            } catch {
                throw namingOps ? error.prefixed("ops[\(k)].params") : error
            }
        }
        return shape.itemCount
    }

    /// The section and the item count after `commands` when they are one item command that plainly passes every
    /// check (the usual request), found without a `LayoutShape`; nil to validate them the general way, which also
    /// names what fails.
    private func quickCheck(_ commands: [LayoutCommand], widthCount: Int) -> (section: Int, itemCount: Int)? {
        // A horizontal layout's items have one more check (aspect heights), made the general way.
        guard commands.count == 1, axis == .vertical else { return nil }
        switch commands[0] {
        case .updateItems(let s, let updates):
            guard updates.count == 1, sections.indices.contains(s), metrics[s].count > updates[0].index,
                updates[0].index >= 0, Validation.isPlainlyValid(updates[0].item)
            else { return nil }
            return (s, itemCount)
        case .insertItems(let s, let at, let items):
            guard sections.indices.contains(s), at >= 0, at <= metrics[s].count,
                items.count <= limits.maxItems / widthCount - itemCount, Validation.isPlainlyValid(items)
            else { return nil }
            return (s, itemCount + items.count)
        case .deleteItems(let s, let indices):
            guard indices.count == 1, sections.indices.contains(s), metrics[s].count > indices[0], indices[0] >= 0
            else { return nil }
            return (s, itemCount - 1)
        default:
            return nil
        }
    }

    /// Checks that `anchor` names an item of the layout as it is.
    private func checkAnchor(_ anchor: ItemPath) throws(LayoutError) {
        guard anchor.section >= 0, anchor.section < sections.count else {
            throw .notFound(
                field: "anchor.section", value: String(anchor.section),
                reason: "is not a section (there are \(sections.count))")
        }
        let count = sections[anchor.section].count
        guard anchor.item >= 0, anchor.item < count else {
            throw .notFound(
                field: "anchor.i", value: String(anchor.item),
                reason: "is not an item of section \(anchor.section) (it has \(count))")
        }
    }
}
