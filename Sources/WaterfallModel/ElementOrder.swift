/// The order of a query's elements (Geometry, "Reading order").
public enum ElementOrder: String, Sendable, Hashable, CaseIterable {
    /// By section, then header, items by index, footer: the order of the layout's inputs.
    case document
    /// Rows top to bottom, each left to right (right to left under `rtl`): the order a reader's eye takes.
    case reading
}
