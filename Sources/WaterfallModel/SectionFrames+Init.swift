extension SectionFrames {
    /// Frames read back from the wire (a client's `layout.get`), rather than from a layout.
    public init(
        section: Int, origin: Double, height: Double, count: Int, items: [ItemFrame], header: Rect? = nil,
        pinMaxY: Double? = nil, footer: Rect? = nil, screen: ScreenMapping = .identity
    ) {
        self.screen = screen
        self.section = section
        self.origin = origin
        self.height = height
        self.count = count
        self.header = header
        self.pinMaxY = pinMaxY
        self.footer = footer
        self.items = items
    }
}
