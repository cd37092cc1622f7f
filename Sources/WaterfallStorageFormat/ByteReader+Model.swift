import WaterfallLayout

/// Reads back what `ByteWriter+Model` writes; every malformed field throws, naming the field and its file offset.
extension ByteReader {
    @inline(__always)
    public mutating func item() throws(FormatError) -> Item {
        let tag = try u8("item tag")
        guard tag & ItemTag.unused == 0, tag & 3 != 3, tag & (ItemTag.spanFull | ItemTag.spanColumns) != 0x30 else {
            throw malformed("item tag \(tag)")
        }
        var item = Item(height: try number(kind: tag & 3, "item height"))
        let w = (tag >> 2) & 3
        if w != 0 { item.aspectWidth = try number(kind: w - 1, "item w") }
        if tag & ItemTag.spanColumns != 0 { item.span = .columns(try int("item span")) }
        if tag & ItemTag.spanFull != 0 { item.span = .full }
        if tag & ItemTag.id != 0 { item.id = try string("item id") }
        return item
    }

    public mutating func items() throws(FormatError) -> [Item] {
        // Every item takes at least one byte, so the count is bounded by what is left.
        let n = try count("item count", limit: remaining)
        var items: [Item] = []
        items.reserveCapacity(n)
        for _ in 0..<n { items.append(try item()) }
        return items
    }

    public mutating func insets(_ what: String) throws(FormatError) -> Insets {
        Insets(
            top: try double("\(what).top"), left: try double("\(what).left"), bottom: try double("\(what).bottom"),
            right: try double("\(what).right"))
    }

    public mutating func properties() throws(FormatError) -> SectionProperties {
        let mask = try varint("properties mask")
        guard mask >> 12 == 0 else { throw malformed("properties mask \(mask)") }
        func has(_ k: Int) -> Bool { mask & (1 << k) != 0 }
        var p = SectionProperties()
        if has(0) { p.columns = try int("columns") }
        if has(1) { p.minColumnWidth = try double("minColumnWidth") }
        if has(2) { p.maxColumns = try int("maxColumns") }
        if has(3) { p.columnSpacing = try double("columnSpacing") }
        if has(4) { p.rowSpacing = try double("rowSpacing") }
        if has(5) { p.insets = try insets("insets") }
        if has(6) { p.headerHeight = try double("headerHeight") }
        if has(7) { p.footerHeight = try double("footerHeight") }
        if has(8) { p.headerInsets = try insets("headerInsets") }
        if has(9) { p.footerInsets = try insets("footerInsets") }
        if has(10) { p.placement = try placement() }
        if has(11) { p.tolerance = try double("tolerance") }
        return p
    }

    public mutating func sectionPatch() throws(FormatError) -> SectionPatch {
        let mask = try varint("patch mask")
        guard mask >> 24 == 0 else { throw malformed("patch mask \(mask)") }
        var states: [UInt64] = []
        for k in 0..<12 {
            let state = (mask >> (2 * UInt64(k))) & 3
            guard state != 3 else { throw malformed("patch mask \(mask)") }
            states.append(state)
        }
        var p = SectionPatch()
        p.columns = try change(states[0]) { (r: inout Self) throws(FormatError) in try r.int("columns") }
        p.minColumnWidth = try change(states[1]) { (r: inout Self) throws(FormatError) in
            try r.double("minColumnWidth")
        }
        p.maxColumns = try change(states[2]) { (r: inout Self) throws(FormatError) in try r.int("maxColumns") }
        p.columnSpacing = try change(states[3]) { (r: inout Self) throws(FormatError) in
            try r.double("columnSpacing")
        }
        p.rowSpacing = try change(states[4]) { (r: inout Self) throws(FormatError) in try r.double("rowSpacing") }
        p.insets = try change(states[5]) { (r: inout Self) throws(FormatError) in try r.insets("insets") }
        p.headerHeight = try change(states[6]) { (r: inout Self) throws(FormatError) in
            try r.double("headerHeight")
        }
        p.footerHeight = try change(states[7]) { (r: inout Self) throws(FormatError) in
            try r.double("footerHeight")
        }
        p.headerInsets = try change(states[8]) { (r: inout Self) throws(FormatError) in
            try r.insets("headerInsets")
        }
        p.footerInsets = try change(states[9]) { (r: inout Self) throws(FormatError) in
            try r.insets("footerInsets")
        }
        p.placement = try change(states[10]) { (r: inout Self) throws(FormatError) in try r.placement() }
        p.tolerance = try change(states[11]) { (r: inout Self) throws(FormatError) in try r.double("tolerance") }
        return p
    }

    public mutating func layoutPatch() throws(FormatError) -> LayoutPatch {
        let mask = try u8("layout patch mask")
        guard mask >> 5 == 0 else { throw malformed("layout patch mask \(mask)") }
        var p = LayoutPatch()
        if mask & 1 != 0 { p.width = try double("width") }
        if mask & 2 != 0 { p.scale = try double("scale") }
        if mask & 4 != 0 { p.direction = try direction() }
        if mask & 8 != 0 { p.minContentHeight = try double("minContentHeight") }
        if mask & 16 != 0 { p.defaults = try properties() }
        return p
    }

    public mutating func section() throws(FormatError) -> SectionSpec {
        SectionSpec(properties: try properties(), items: try items())
    }

    /// A layout's settings, as `ByteWriter.settings` writes them, in a spec without sections.
    public mutating func settings() throws(FormatError) -> LayoutSpec {
        LayoutSpec(
            width: try double("width"), scale: try double("scale"), direction: try direction(),
            minContentHeight: try double("minContentHeight"), defaults: try properties())
    }

    public mutating func spec() throws(FormatError) -> LayoutSpec {
        var spec = try settings()
        let n = try count("section count", limit: remaining)
        spec.sections.reserveCapacity(n)
        for _ in 0..<n { spec.sections.append(try section()) }
        return spec
    }

    public mutating func command() throws(FormatError) -> LayoutCommand {
        let tag = try u8("command tag")
        switch tag {
        case CommandTag.insertItems:
            return .insertItems(section: try int("section"), at: try int("at"), items: try items())
        case CommandTag.deleteItems:
            return .deleteItems(section: try int("section"), indices: try ints("indices"))
        case CommandTag.updateItems:
            let s = try int("section")
            let n = try count("update count", limit: remaining)
            var updates: [ItemUpdate] = []
            updates.reserveCapacity(n)
            for _ in 0..<n { updates.append(ItemUpdate(index: try int("update index"), item: try item())) }
            return .updateItems(section: s, updates: updates)
        case CommandTag.moveItem:
            let from = ItemPath(section: try int("from.section"), item: try int("from.item"))
            return .moveItem(from: from, to: ItemPath(section: try int("to.section"), item: try int("to.item")))
        case CommandTag.insertSections:
            let at = try int("at")
            let n = try count("section count", limit: remaining)
            var sections: [SectionSpec] = []
            sections.reserveCapacity(n)
            for _ in 0..<n { sections.append(try section()) }
            return .insertSections(at: at, sections: sections)
        case CommandTag.deleteSections:
            return .deleteSections(try ints("indices"))
        case CommandTag.moveSection:
            return .moveSection(from: try int("from"), to: try int("to"))
        case CommandTag.configureSection:
            return .configureSection(try int("section"), try sectionPatch())
        case CommandTag.configureLayout:
            return .configureLayout(try layoutPatch())
        default:
            offset -= 1
            throw malformed("command tag \(tag)")
        }
    }

    public mutating func commands() throws(FormatError) -> [LayoutCommand] {
        let n = try count("command count", limit: remaining)
        var commands: [LayoutCommand] = []
        commands.reserveCapacity(n)
        for _ in 0..<n { commands.append(try command()) }
        return commands
    }

    // MARK: Private

    private mutating func ints(_ what: String) throws(FormatError) -> [Int] {
        let n = try count("\(what) count", limit: remaining)
        var values: [Int] = []
        values.reserveCapacity(n)
        for _ in 0..<n { values.append(try int(what)) }
        return values
    }

    @inline(__always)
    private mutating func number(kind: UInt8, _ what: @autoclosure () -> String) throws(FormatError) -> Double {
        switch kind {
        case 0:
            let v = try varint(what())
            guard v < 9_007_199_254_740_992 else { throw malformed("\(what()) \(v) is not below 2^53") }
            return Double(v)
        case 1: return Double(Float(bitPattern: try u32(what())))
        default: return try double(what())
        }
    }

    private mutating func placement() throws(FormatError) -> Placement {
        switch try u8("placement") {
        case 0: return .shortest
        case 1: return .next
        case let v: throw malformed("placement \(v)")
        }
    }

    private mutating func direction() throws(FormatError) -> Direction {
        switch try u8("direction") {
        case 0: return .ltr
        case 1: return .rtl
        case let v: throw malformed("direction \(v)")
        }
    }

    private mutating func change<V>(
        _ state: UInt64, _ read: (inout Self) throws(FormatError) -> V
    ) throws(FormatError) -> PropertyChange<V>? {
        switch state {
        case 0: return nil
        case 1: return .set(try read(&self))
        default: return .reset
        }
    }
}
