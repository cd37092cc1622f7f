import WaterfallLayout

/// The params of `layout.css`, decoded and checked: a layout (stored, or its inputs inline), a range of container
/// widths, and optionally the sections to style, a first page (`items`) and the container's selector.
public struct StylesheetRequest: Sendable, Hashable {
    /// The layout to style: a stored one by name, or its inputs in the form `layout.export` returns, so that a
    /// daemon that holds nothing can style it.
    public enum Source: Sendable, Hashable {
        case stored(String)
        /// Inputs decoded to their wire ranges; `layout.create`'s checks against the daemon's limits come after.
        case inline(LayoutSpec)
    }

    public var source: Source
    public var minWidth: Double
    public var maxWidth: Double
    /// The sections whose elements the stylesheet places (nil: all), in the order given, none twice.
    public var sections: [Int]?
    /// Each section as if it held only its first `items` items.
    public var items: Int?
    public var selector: String

    /// The widest container width, in CSS px.
    public static let maxWidthLimit = 100_000.0
    /// The widest range of widths in one request, in CSS px.
    public static let maxRange = 10_000.0
    /// The longest selector, in bytes.
    public static let maxSelectorBytes = 256
    public static let defaultSelector = ".waterfall"

    public init(
        layout: String, minWidth: Double, maxWidth: Double, sections: [Int]? = nil, items: Int? = nil,
        selector: String = defaultSelector
    ) {
        self.init(
            source: .stored(layout), minWidth: minWidth, maxWidth: maxWidth, sections: sections, items: items,
            selector: selector)
    }

    public init(
        source: Source, minWidth: Double, maxWidth: Double, sections: [Int]? = nil, items: Int? = nil,
        selector: String = defaultSelector
    ) {
        self.source = source
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.sections = sections
        self.items = items
        self.selector = selector
    }

    /// Reads `layout.css`'s params; every range is checked here, the sections' existence against the layout later.
    public init(_ p: inout Params) throws(ProtocolError) {
        if let node = p.view("layout"), node.kind == .object {
            var inputs = try p.nested(node, path: "params.layout")
            source = .inline(try CommandDecoding.layoutSpec(&inputs))
            try inputs.finish()
        } else {
            source = .stored(try DecodedRequest.layoutName(&p))
        }
        minWidth = try p.double("minWidth")
        maxWidth = try p.double("maxWidth")
        guard minWidth.isFinite, minWidth > 0, minWidth <= Self.maxWidthLimit else {
            throw .badParams("params.minWidth", "\(Self.text(minWidth)) must be a number > 0 and ≤ 100000")
        }
        guard maxWidth.isFinite, maxWidth >= minWidth, maxWidth <= Self.maxWidthLimit else {
            throw .badParams(
                "params.maxWidth",
                "\(Self.text(maxWidth)) must be a number ≥ minWidth (\(Self.text(minWidth))) and ≤ 100000")
        }
        guard maxWidth - minWidth <= Self.maxRange else {
            throw .badParams(
                "params.maxWidth",
                "\(Self.text(maxWidth)) is more than 10000 px above minWidth (\(Self.text(minWidth))): ask in parts")
        }
        if p.contains("sections") {
            sections = try CommandDecoding.distinctIndices(p.array("sections"), "params.sections")
        }
        if let count = try p.optionalInt("items") {
            items = try WireRange.check(count, in: WireRange.index, "params.items")
        }
        selector = try p.optionalString("selector") ?? Self.defaultSelector
        try Self.check(selector: selector)
    }

    // MARK: Public

    /// The stylesheet of the inline inputs, after `layout.create`'s checks of them against `limits`.
    ///
    /// - Throws: what `layout.create` throws for the inputs (its fields under `params.layout`), then what
    ///   `stylesheet(of:columnLimit:)` throws.
    public func stylesheet(
        ofInline spec: LayoutSpec, limits: LayoutLimits
    ) throws(ProtocolError) -> (sheet: ResponsiveStylesheet, layout: ResponsiveLayout) {
        do {
            try Layout.check(spec, limits: limits)
        } catch {
            throw ProtocolError(error, prefix: "params.layout")
        }
        return try stylesheet(of: spec, columnLimit: limits.maxColumns)
    }

    /// The stylesheet of a layout with inputs `spec` (as `layout.export` gives them).
    ///
    /// - Throws: `bad_params` for a section the layout lacks or a layout with pixel snapping, `invalid_geometry`
    ///   when a section's column width is negative at `minWidth`, `limit` past the engine's bounds.
    public func stylesheet(
        of spec: LayoutSpec, columnLimit: Int
    ) throws(ProtocolError) -> (sheet: ResponsiveStylesheet, layout: ResponsiveLayout) {
        // not_found, as layout.get says of a section that does not exist (the Errors article).
        for (k, s) in (sections ?? []).enumerated() where s >= spec.sections.count {
            throw ProtocolError(
                .notFound, "params.sections[\(k)]: \(s) is not a section (there are \(spec.sections.count))")
        }
        // The stylesheet places items down a block's flow; a horizontal feed would need one written along x, which
        // is not made (the Methods article, `layout.css`): refused rather than answered with a vertical sheet.
        guard spec.axis == .vertical else {
            throw .badParams(
                "params.layout",
                "\(subject) has axis \"horizontal\": layout.css writes vertical layouts only (a horizontal feed's "
                    + "frames come from layout.get or query)")
        }
        guard spec.scale == 0 else {
            throw .badParams(
                "params.layout",
                "\(subject) has scale \(Self.text(spec.scale)): pixel snapping is not linear in the width, and layout.css "
                    + "needs scale 0")
        }
        if let s = spec.sections.indices.first(where: { spec.sections[$0].usesLookahead(defaults: spec.defaults) }) {
            throw .badParams(
                "params.layout",
                "\(subject) has lookahead in section \(s): each window's best order changes at widths of its own, "
                    + "more pieces than layout.css writes (its frames come from layout.get or query)")
        }
        let responsive: ResponsiveLayout
        do {
            responsive = try ResponsiveLayout.compute(
                spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: items, columnLimit: columnLimit)
        } catch {
            throw ProtocolError(error)
        }
        return (ResponsiveStylesheet(responsive, sections: sections, selector: selector), responsive)
    }

    // MARK: Private

    /// The layout as a message names it.
    private var subject: String {
        switch source {
        case .stored(let name): "'\(name)'"
        case .inline: "the inline layout"
        }
    }

    /// A number as a message shows it: `800`, not `800.0`.
    private static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// A selector is 1–256 bytes of ASCII letters, digits, spaces and `.#-_:[]=>~+*()'"`: enough for classes,
    /// ids, attributes and combinators, and nothing that could end a rule, a block or a `<style>` element.
    private static func check(selector: String) throws(ProtocolError) {
        let allowed = Set(" .#-_:[]=>~+*()'\"".utf8)
        let bytes = selector.utf8
        let valid =
            !bytes.isEmpty && bytes.count <= maxSelectorBytes
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return allowed.contains(byte)
                }
            }
        guard valid else {
            let shown = bytes.count > 40 ? String(selector.prefix(40)) + "…" : selector
            throw .badParams(
                "params.selector",
                "'\(shown)' is not 1–256 characters of A-Z a-z 0-9, spaces and . # - _ : [ ] = > ~ + * ( ) ' \"")
        }
    }
}
