/// One row of `layout.list`.
public struct LayoutSummary: Sendable, Hashable {
    public var layout: String
    public var sections: Int
    public var items: Int
    public var seq: Int
    /// The widths the layout is laid out at, the first first.
    public var widths: [Double]

    public init(layout: String, sections: Int, items: Int, seq: Int, widths: [Double] = []) {
        self.layout = layout
        self.sections = sections
        self.items = items
        self.seq = seq
        self.widths = widths
    }
}
