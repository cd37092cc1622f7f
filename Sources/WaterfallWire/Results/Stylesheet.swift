/// The result of `layout.css`: a stylesheet exact at every container width of a range, and what the page must
/// hold for it.
public struct Stylesheet: Sendable, Hashable {
    /// One section the stylesheet places: its element count, and whether it has a header and a footer.
    public struct Section: Sendable, Hashable {
        public var section: Int
        public var items: Int
        public var header: Bool
        public var footer: Bool

        public init(section: Int, items: Int, header: Bool, footer: Bool) {
            self.section = section
            self.items = items
            self.header = header
            self.footer = footer
        }
    }

    public var css: String
    public var pieces: Int
    public var sections: [Section]

    public init(css: String, pieces: Int, sections: [Section]) {
        self.css = css
        self.pieces = pieces
        self.sections = sections
    }
}
