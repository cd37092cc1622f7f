/// One item of a section, as a client describes it.
public struct Item: Sendable, Hashable {
    /// The height at the laid-out width, or with `aspectWidth` the height of the aspect size.
    public var height: Double
    /// The width of the aspect size (`w`); nil means `height` is the laid-out height.
    public var aspectWidth: Double?
    public var span: Span
    /// Opaque, echoed back with the item's frames.
    public var id: String?
    /// In a section with `reflow: stable`, the start column the item keeps (nil: chosen when it is inserted); read
    /// back for every item of such a section. Sections with exact reflow ignore it.
    public var column: Int?

    // Inlinable: the wire module builds one per item of every request it decodes.
    @inlinable
    public init(
        height: Double, aspectWidth: Double? = nil, span: Span = .columns(1), id: String? = nil, column: Int? = nil
    ) {
        self.height = height
        self.aspectWidth = aspectWidth
        self.span = span
        self.id = id
        self.column = column
    }
}
