import WaterfallLayout

/// The binary forms of the engine's input types: items, section properties, patches, specs and commands.
///
/// An item is one tag byte, then its height in the shortest exact form (an integer below 2^53 as a varint, else a
/// `Float` that round-trips, else the 8-byte `Double`), then only what it has: an aspect width the same way, a
/// span, an id, a kept column. A plain item of an integral height is 2 bytes below 128, 3 below 16,384; of any other height at
/// most 9.
extension ByteWriter {
    package mutating func item(_ item: Item) {
        let h = Self.numberKind(item.height)
        var tag = h
        var w: UInt8 = 0
        if let aspectWidth = item.aspectWidth {
            w = Self.numberKind(aspectWidth) + 1
            tag |= w << 2
        }
        switch item.span {
        case .columns(1): break
        case .columns: tag |= ItemTag.spanColumns
        case .full: tag |= ItemTag.spanFull
        }
        if item.id != nil { tag |= ItemTag.id }
        if item.column != nil { tag |= ItemTag.column }
        u8(tag)
        number(item.height, kind: h)
        if let aspectWidth = item.aspectWidth { number(aspectWidth, kind: w - 1) }
        if case .columns(let n) = item.span, n != 1 { int(n) }
        if let id = item.id { string(id) }
        if let column = item.column { varint(UInt64(clamping: column)) }
    }

    package mutating func items(_ items: [Item]) {
        self.items(ItemList(items))
    }

    /// The count of `list`, then its items.
    package mutating func items(_ list: ItemList) {
        varint(UInt64(list.count))
        itemSequence(list)
    }

    /// The items of `list` one after another, without their count (a snapshot's record of items): each as
    /// `item(_:)` writes it, bare heights straight from their array.
    ///
    /// A plain item is its tag, which is its height's kind, and the height. Written into room made once, with no
    /// `Item` made and no append per byte, so that a bulk insert's journal record costs little next to its load.
    package mutating func itemSequence(_ list: ItemList) {
        // Room for plain items up front (at most 9 bytes each): a bulk insert's record otherwise grows through
        // every power of two, copying itself each time.
        reserve(9 * list.count)
        guard let heights = list.heights else {
            for item in list { self.item(item) }
            return
        }
        let start = bytes.count
        // At most 9 bytes each: the tag and an 8-byte height (a varint below 2^53 takes at most 8).
        bytes.append(contentsOf: repeatElement(0, count: 9 * heights.count))
        let end = bytes.withUnsafeMutableBytes { out in
            var p = start
            for height in heights {
                let kind = Self.numberKind(height)
                out[p] = kind
                p &+= 1
                switch kind {
                case 0:
                    var v = UInt64(height)
                    while v >= 0x80 {
                        out[p] = UInt8(truncatingIfNeeded: v) | 0x80
                        v >>= 7
                        p &+= 1
                    }
                    out[p] = UInt8(v)
                    p &+= 1
                case 1:
                    out.storeBytes(of: Float(height).bitPattern.littleEndian, toByteOffset: p, as: UInt32.self)
                    p &+= 4
                default:
                    out.storeBytes(of: height.bitPattern.littleEndian, toByteOffset: p, as: UInt64.self)
                    p &+= 8
                }
            }
            return p
        }
        bytes.removeSubrange(end...)
    }

    package mutating func insets(_ insets: Insets) {
        double(insets.top)
        double(insets.left)
        double(insets.bottom)
        double(insets.right)
    }

    /// A presence mask (bit k: property k of `SectionPropertyTable.all`), then the present values in table order.
    package mutating func properties(_ p: SectionProperties) {
        let values = SectionPropertyTable.all.map { $0.value(in: p) }
        var mask: UInt64 = 0
        for (k, value) in values.enumerated() where value != nil { mask |= 1 << UInt64(k) }
        varint(mask)
        for case let value? in values { self.value(value) }
    }

    /// Two bits per property (0 kept, 1 set, 2 reset), then the values that are set, in table order.
    package mutating func patch(_ p: SectionPatch) {
        let changes = SectionPropertyTable.all.map { $0.change(in: p) }
        var mask: UInt64 = 0
        for (k, change) in changes.enumerated() { mask |= UInt64(Self.state(change)) << (2 * UInt64(k)) }
        varint(mask)
        for case .set(let value)? in changes { self.value(value) }
    }

    package mutating func patch(_ p: LayoutPatch) {
        var mask: UInt8 = 0
        if p.width != nil { mask |= 1 }
        if p.scale != nil { mask |= 2 }
        if p.direction != nil { mask |= 4 }
        if p.minContentHeight != nil { mask |= 8 }
        if p.defaults != nil { mask |= 16 }
        if p.widths != nil { mask |= 32 }
        if p.axis != nil { mask |= 64 }
        u8(mask)
        if let v = p.width { double(v) }
        if let v = p.scale { double(v) }
        if let v = p.direction { u8(v.code) }
        if let v = p.minContentHeight { double(v) }
        if let v = p.defaults { properties(v) }
        if let v = p.widths { doubles(v) }
        if let v = p.axis { u8(v.code) }
    }

    /// A count, then each value.
    mutating func doubles(_ values: [Double]) {
        varint(UInt64(values.count))
        for v in values { double(v) }
    }

    package mutating func section(_ section: SectionSpec) {
        properties(section.properties)
        items(section.items)
    }

    /// The settings of a layout, without its sections.
    ///
    /// A layout at several widths writes minus their count in the width's place, then the widths: a layout at one
    /// width is written byte for byte as before, and a reader from before refuses the others (a width < 0) rather
    /// than reading them as one width. The axis shares the direction's byte (bit 1: horizontal), so that files
    /// written before axes existed (0 or 1 there) read as vertical.
    package mutating func settings(
        widths: [Double], scale: Double, direction: Direction, axis: Axis, minContentHeight: Double,
        defaults: SectionProperties
    ) {
        if widths.count == 1 {
            double(widths[0])
        } else {
            double(-Double(widths.count))
            for v in widths { double(v) }
        }
        double(scale)
        u8(direction.code | axis.code << 1)
        double(minContentHeight)
        properties(defaults)
    }

    package mutating func spec(_ spec: LayoutSpec) {
        settings(
            widths: spec.widths, scale: spec.scale, direction: spec.direction, axis: spec.axis,
            minContentHeight: spec.minContentHeight, defaults: spec.defaults)
        varint(UInt64(spec.sections.count))
        for s in spec.sections { section(s) }
    }

    package mutating func command(_ command: LayoutCommand) {
        switch command {
        case .insertItems(let s, let at, let items):
            u8(CommandTag.insertItems)
            int(s)
            int(at)
            self.items(items)
        case .deleteItems(let s, let indices):
            u8(CommandTag.deleteItems)
            int(s)
            ints(indices)
        case .updateItems(let s, let updates):
            u8(CommandTag.updateItems)
            int(s)
            varint(UInt64(updates.count))
            for update in updates {
                int(update.index)
                item(update.item)
            }
        case .moveItem(let from, let to):
            u8(CommandTag.moveItem)
            int(from.section)
            int(from.item)
            int(to.section)
            int(to.item)
        case .insertSections(let at, let sections):
            u8(CommandTag.insertSections)
            int(at)
            varint(UInt64(sections.count))
            for s in sections { section(s) }
        case .deleteSections(let indices):
            u8(CommandTag.deleteSections)
            ints(indices)
        case .moveSection(let from, let to):
            u8(CommandTag.moveSection)
            int(from)
            int(to)
        case .configureSection(let s, let p):
            u8(CommandTag.configureSection)
            int(s)
            patch(p)
        case .configureLayout(let p):
            u8(CommandTag.configureLayout)
            patch(p)
        }
    }

    package mutating func commands(_ commands: [LayoutCommand]) {
        varint(UInt64(commands.count))
        for c in commands { command(c) }
    }

    // MARK: Private

    private mutating func ints(_ values: [Int]) {
        varint(UInt64(values.count))
        for v in values { int(v) }
    }

    /// 0: an integer in 0..<2^53 (not -0), as a varint; 1: a `Float` that converts back exactly; 2: the `Double`.
    @inline(__always)
    static func numberKind(_ v: Double) -> UInt8 {
        if v >= 0, v < 9_007_199_254_740_992, v.rounded(.towardZero) == v, v.sign == .plus { return 0 }
        if Double(Float(v)) == v { return 1 }
        return 2
    }

    @inline(__always)
    private mutating func number(_ v: Double, kind: UInt8) {
        switch kind {
        case 0: varint(UInt64(v))
        case 1: u32(Float(v).bitPattern)
        default: double(v)
        }
    }

    /// One property value: the storage format's one encoder per kind of value.
    private mutating func value(_ value: PropertyValue) {
        switch value {
        case .integer(let v): int(v)
        case .number(let v): double(v)
        case .insets(let v): insets(v)
        case .placement(let v): u8(v.code)
        case .tieBreak(let v): u8(v == .leftmost ? 0 : 1)
        case .flag(let v): u8(v ? 1 : 0)
        case .reflow(let v): u8(v == .exact ? 0 : 1)
        case .spanPlacement(let v): u8(v == .lowest ? 0 : 1)
        case .stamps(let v):
            varint(UInt64(v.count))
            for stamp in v {
                int(stamp.column)
                int(stamp.span)
                double(stamp.y)
                double(stamp.height)
            }
        case .weights(let v): doubles(v)
        case .lookahead(let v):
            u8(UInt8(truncatingIfNeeded: v.items))
            u32(UInt32(truncatingIfNeeded: v.limit))
        }
    }

    private static func state<V>(_ change: PropertyChange<V>?) -> UInt8 {
        switch change {
        case nil: return 0
        case .set: return 1
        case .reset: return 2
        }
    }
}

/// The bits of an item's tag byte above its two height bits and two aspect-width bits.
enum ItemTag {
    static let spanColumns: UInt8 = 1 << 4
    static let spanFull: UInt8 = 1 << 5
    static let id: UInt8 = 1 << 6
    /// A stable section's kept column follows the id (files written before `reflow` never set it).
    static let column: UInt8 = 1 << 7
}

/// The first byte of an encoded command.
enum CommandTag {
    static let insertItems: UInt8 = 1
    static let deleteItems: UInt8 = 2
    static let updateItems: UInt8 = 3
    static let moveItem: UInt8 = 4
    static let insertSections: UInt8 = 5
    static let deleteSections: UInt8 = 6
    static let moveSection: UInt8 = 7
    static let configureSection: UInt8 = 8
    static let configureLayout: UInt8 = 9
}

extension Placement {
    var code: UInt8 { self == .shortest ? 0 : 1 }
}

extension Direction {
    var code: UInt8 { self == .ltr ? 0 : 1 }
}

extension Axis {
    var code: UInt8 { self == .vertical ? 0 : 1 }
}
