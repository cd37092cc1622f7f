import WaterfallLayout

/// Reads back what `ByteWriter+Model` writes; every malformed field throws, naming the field and its file offset.
extension ByteReader {
    @inline(__always)
    package mutating func item() throws(FormatError) -> Item {
        let tag = try u8("item tag")
        guard tag & 3 != 3, tag & (ItemTag.spanFull | ItemTag.spanColumns) != 0x30 else {
            throw malformed("item tag \(tag)")
        }
        var item = Item(height: try number(kind: tag & 3, "item height"))
        let w = (tag >> 2) & 3
        if w != 0 { item.aspectWidth = try number(kind: w - 1, "item w") }
        if tag & ItemTag.spanColumns != 0 { item.span = .columns(try int("item span")) }
        if tag & ItemTag.spanFull != 0 { item.span = .full }
        if tag & ItemTag.id != 0 { item.id = try string("item id") }
        if tag & ItemTag.column != 0 {
            let column = try varint("item column")
            guard column < 1024 else { throw malformed("item column \(column)") }
            item.column = Int(column)
        }
        return item
    }

    /// The items of an insert: bare heights while every item is only a height (its tag is only its height's
    /// kind), as the wire decodes a bulk load's, so that a replayed insert is held as it was first applied.
    package mutating func itemList() throws(FormatError) -> ItemList {
        let n = try count("item count", limit: remaining)
        var heights: [Double] = []
        heights.reserveCapacity(n)
        while heights.count < n, let tag = peekU8(), tag < 3 {
            offset += 1
            heights.append(try number(kind: tag, "item height"))
        }
        guard heights.count < n else { return ItemList(heights: heights) }
        var items = heights.map { Item(height: $0) }
        items.reserveCapacity(n)
        while items.count < n { items.append(try item()) }
        return ItemList(items)
    }

    package mutating func items() throws(FormatError) -> [Item] {
        // Every item takes at least one byte, so the count is bounded by what is left.
        let n = try count("item count", limit: remaining)
        var items: [Item] = []
        items.reserveCapacity(n)
        for _ in 0..<n { items.append(try item()) }
        return items
    }

    package mutating func insets(_ what: String) throws(FormatError) -> Insets {
        Insets(
            top: try double("\(what).top"), left: try double("\(what).left"), bottom: try double("\(what).bottom"),
            right: try double("\(what).right"))
    }

    /// A presence mask (bit k: property k of `SectionPropertyTable.all`), then the present values in table order.
    ///
    /// Files written before a property was added never set its bit, so they read as before.
    package mutating func properties() throws(FormatError) -> SectionProperties {
        let table = SectionPropertyTable.all
        let mask = try varint("properties mask")
        guard mask >> UInt64(table.count) == 0 else { throw malformed("properties mask \(mask)") }
        var p = SectionProperties()
        for (k, property) in table.enumerated() where mask & (1 << UInt64(k)) != 0 {
            property.set(try value(of: property), in: &p)
        }
        return p
    }

    /// Two bits per property (0 kept, 1 set, 2 reset), then the values that are set, in table order.
    package mutating func sectionPatch() throws(FormatError) -> SectionPatch {
        let table = SectionPropertyTable.all
        let mask = try varint("patch mask")
        guard mask >> (2 * UInt64(table.count)) == 0 else { throw malformed("patch mask \(mask)") }
        var states: [UInt64] = []
        for k in table.indices {
            let state = (mask >> (2 * UInt64(k))) & 3
            guard state != 3 else { throw malformed("patch mask \(mask)") }
            states.append(state)
        }
        var p = SectionPatch()
        for (property, state) in zip(table, states) {
            switch state {
            case 0: break
            case 1: property.set(.set(try value(of: property)), in: &p)
            default: property.set(.reset, in: &p)
            }
        }
        return p
    }

    package mutating func layoutPatch() throws(FormatError) -> LayoutPatch {
        let mask = try u8("layout patch mask")
        guard mask >> 7 == 0 else { throw malformed("layout patch mask \(mask)") }
        var p = LayoutPatch()
        if mask & 1 != 0 { p.width = try double("width") }
        if mask & 2 != 0 { p.scale = try double("scale") }
        if mask & 4 != 0 { p.direction = try direction() }
        if mask & 8 != 0 { p.minContentHeight = try double("minContentHeight") }
        if mask & 16 != 0 { p.defaults = try properties() }
        if mask & 32 != 0 { p.widths = try widths(count: try count("width count", limit: Validation.maxWidths)) }
        if mask & 64 != 0 { p.axis = try axis() }
        return p
    }

    package mutating func section() throws(FormatError) -> SectionSpec {
        SectionSpec(properties: try properties(), items: try items())
    }

    /// A layout's settings, as `ByteWriter.settings` writes them, in a spec without sections.
    package mutating func settings() throws(FormatError) -> LayoutSpec {
        // Minus the count of several widths, then the widths (see `ByteWriter.settings`).
        let first = try double("width")
        var widths = [first]
        if first < 0, first >= -Double(Validation.maxWidths), first == first.rounded() {
            widths = try self.widths(count: Int(-first))
        }
        let scale = try double("scale")
        // The axis shares the direction's byte (see `ByteWriter.settings`).
        let flow = try u8("direction")
        guard flow >> 2 == 0 else { throw malformed("direction \(flow)") }
        var spec = LayoutSpec(
            width: first, scale: scale, direction: flow & 1 == 0 ? .ltr : .rtl,
            axis: flow >> 1 == 0 ? .vertical : .horizontal, minContentHeight: try double("minContentHeight"),
            defaults: try properties())
        spec.widths = widths
        return spec
    }

    /// `count` widths.
    private mutating func widths(count: Int) throws(FormatError) -> [Double] {
        var widths: [Double] = []
        for _ in 0..<count { widths.append(try double("width")) }
        return widths
    }

    package mutating func spec() throws(FormatError) -> LayoutSpec {
        var spec = try settings()
        let n = try count("section count", limit: remaining)
        spec.sections.reserveCapacity(n)
        for _ in 0..<n { spec.sections.append(try section()) }
        return spec
    }

    package mutating func command() throws(FormatError) -> LayoutCommand {
        let tag = try u8("command tag")
        switch tag {
        case CommandTag.insertItems:
            return .insertItems(section: try int("section"), at: try int("at"), items: try itemList())
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

    package mutating func commands() throws(FormatError) -> [LayoutCommand] {
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

    /// One property value: the storage format's one decoder per kind of value.
    private mutating func value(of property: AnySectionProperty) throws(FormatError) -> PropertyValue {
        switch property.kind {
        case .columns, .count: return .integer(try int(property.name))
        case .length, .positiveLength: return .number(try double(property.name))
        case .insets: return .insets(try insets(property.name))
        case .placement: return .placement(try placement())
        case .tieBreak:
            switch try u8(property.name) {
            case 0: return .tieBreak(.leftmost)
            case 1: return .tieBreak(.cursor)
            case let v: throw malformed("tieBreak \(v)")
            }
        case .flag:
            switch try u8(property.name) {
            case 0: return .flag(false)
            case 1: return .flag(true)
            case let v: throw malformed("\(property.name) \(v)")
            }
        case .reflow:
            switch try u8(property.name) {
            case 0: return .reflow(.exact)
            case 1: return .reflow(.stable)
            case let v: throw malformed("reflow \(v)")
            }
        case .spanPlacement:
            switch try u8(property.name) {
            case 0: return .spanPlacement(.lowest)
            case 1: return .spanPlacement(.leastWhitespace)
            case let v: throw malformed("spanPlacement \(v)")
            }
        case .stamps: return .stamps(try stamps())
        case .weights:
            // As many as a section can have columns: a damaged count reserves nothing large.
            let n = try count("\(property.name) count", limit: 1024)
            var weights: [Double] = []
            weights.reserveCapacity(n)
            for _ in 0..<n { weights.append(try double(property.name)) }
            return .weights(weights)
        case .lookahead:
            let items = Int(try u8("lookahead.items"))
            let limit = Int(try u32("lookahead.limit"))
            guard (1...Lookahead.maxItems).contains(items), (1...Lookahead.maxLimit).contains(limit) else {
                throw malformed("lookahead \(items), \(limit)")
            }
            return .lookahead(Lookahead(items: items, limit: limit))
        }
    }

    /// A list of stamps: a count, then each stamp's column, span, y and h, the columns in the engine's range.
    private mutating func stamps() throws(FormatError) -> [Stamp] {
        let n = try count("stamps count", limit: Stamp.maxCount)
        var stamps: [Stamp] = []
        for _ in 0..<n {
            let column = try int("stamp column")
            let span = try int("stamp span")
            guard column >= 0, column < 1024, span >= 1, span <= 1024 - column else {
                throw malformed("stamp columns \(column) and \(span)")
            }
            stamps.append(Stamp(column: column, span: span, y: try double("stamp y"), height: try double("stamp h")))
        }
        return stamps
    }

    private mutating func placement() throws(FormatError) -> Placement {
        switch try u8("placement") {
        case 0: return .shortest
        case 1: return .next
        case let v: throw malformed("placement \(v)")
        }
    }

    private mutating func axis() throws(FormatError) -> Axis {
        switch try u8("axis") {
        case 0: return .vertical
        case 1: return .horizontal
        case let v: throw malformed("axis \(v)")
        }
    }

    private mutating func direction() throws(FormatError) -> Direction {
        switch try u8("direction") {
        case 0: return .ltr
        case 1: return .rtl
        case let v: throw malformed("direction \(v)")
        }
    }
}
