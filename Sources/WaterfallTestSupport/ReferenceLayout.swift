import WaterfallLayout

/// A deliberately simple layout written straight from LAYOUT.md: a list of sections, every command applied to plain
/// arrays, every layout computed from scratch. The engine must agree with it bit for bit.
///
/// The one rule taken from the project's docs rather than LAYOUT.md's text: positions are computed relative to the
/// section's origin and then added to it (README, "Arithmetic"), which is how the engine can move a section without
/// placing it again.
public struct ReferenceLayout: Sendable {
    public var spec: LayoutSpec
    public var columnLimit: Int

    public init(_ spec: LayoutSpec, columnLimit: Int = 1024) {
        self.spec = spec
        self.columnLimit = columnLimit
        settleColumns()
    }

    /// The frames of one section, as the reference computes them.
    public struct Section: Sendable, Equatable {
        public var origin: Double
        public var height: Double
        public var header: Rect?
        /// A pinned header's `pinMaxY`.
        public var pinMaxY: Double?
        public var footer: Rect?
        public var items: [Rect]
        public var ids: [String?]
        /// Each item's start column.
        public var columns: [Int]
    }

    /// Lays everything out from scratch.
    public func layout() -> (sections: [Section], contentHeight: Double) {
        var origin = 0.0
        var result: [Section] = []
        for section in spec.sections {
            let placed = place(section, origin: origin)
            result.append(placed)
            origin += placed.height
        }
        return (result, max(origin, spec.minContentHeight))
    }

    /// The column width a section would get, to tell whether a command is valid.
    public func columnWidth(_ own: SectionProperties) -> Double {
        Resolved(own, spec.defaults, spec, columnLimit).columnWidth
    }

    /// What decides a section's columns: the reflow, the column count and the rule (Geometry, "Stable reflow": a
    /// stable section whose key changes chooses its columns again).
    func columnKey(_ own: SectionProperties) -> ColumnKey {
        let r = Resolved(own, spec.defaults, spec, columnLimit)
        return ColumnKey(
            reflow: r.reflow, columns: r.columns, placement: r.placement, tolerance: r.tolerance, tieBreak: r.tieBreak)
    }

    struct ColumnKey: Equatable {
        var reflow: Reflow
        var columns: Int
        var placement: Placement
        var tolerance: Double
        var tieBreak: TieBreak
    }

    /// After each command: a stable section keeps, on each item, the column it was placed in (chosen now for the
    /// items that had none); other sections keep none.
    mutating func settleColumns() {
        for s in spec.sections.indices {
            let stable = columnKey(spec.sections[s].properties).reflow == .stable
            let columns = stable ? place(spec.sections[s], origin: 0).columns : []
            for k in spec.sections[s].items.indices { spec.sections[s].items[k].column = stable ? columns[k] : nil }
        }
    }

    // MARK: Private

    private func place(_ section: SectionSpec, origin: Double) -> Section {
        let r = Resolved(section.properties, spec.defaults, spec, columnLimit)
        let width = spec.width
        func mirror(_ frame: Rect) -> Rect {
            spec.direction == .rtl
                ? Rect(x: width - frame.x - frame.width, y: frame.y, width: frame.width, height: frame.height) : frame
        }
        func absolute(_ frame: Rect) -> Rect {
            Rect(x: frame.x, y: origin + frame.y, width: frame.width, height: frame.height)
        }
        var header: Rect?
        var headerBlock = 0.0
        if r.headerHeight > 0 {
            header = Rect(
                x: r.headerInsets.left, y: r.headerInsets.top,
                width: width - r.headerInsets.left - r.headerInsets.right, height: r.headerHeight)
            headerBlock = r.headerInsets.top + r.headerHeight + r.headerInsets.bottom
        }
        let top = headerBlock + r.insets.top
        let c = r.columns
        var colY = [Double](repeating: top, count: c)
        var cursor = 0
        var tieCursor = 0
        var itemsBottom = top
        var frames: [Rect] = []
        var columns: [Int] = []
        for item in section.items {
            var s: Int
            switch item.span {
            case .full: s = c
            case .columns(let n): s = min(n, c)
            }
            s = max(1, s)
            var j = 0
            if r.reflow == .stable, let kept = item.column {
                // Geometry, "Stable reflow": a kept column, moved left as far as the span needs.
                j = min(kept, c - s)
                cursor = (j + s) % c
                tieCursor = j + s
            } else if r.placement == .shortest {
                var cands: [Double] = []
                for start in 0...(c - s) { cands.append(colY[start..<(start + s)].max()!) }
                let m = cands.min()!
                let tied = cands.indices.filter { cands[$0] <= m + r.tolerance }
                if r.tieBreak == .cursor {
                    // CSS grid-lanes: the smallest tied start at or after the cursor, else the smallest tied one.
                    j = tied.first { $0 >= tieCursor } ?? tied[0]
                    tieCursor = j + s
                } else {
                    j = tied[0]
                }
            } else {
                if cursor + s > c { cursor = 0 }
                j = cursor
                cursor = (j + s) % c
            }
            let y = colY[j..<(j + s)].max()!
            let x = r.insets.left + Double(j) * (r.columnWidth + r.columnSpacing)
            let w = Double(s) * r.columnWidth + Double(s - 1) * r.columnSpacing
            var h = item.height
            if let aw = item.aspectWidth { h = (item.height * w) / aw }
            if spec.scale > 0 { h = (h * spec.scale).rounded(.toNearestOrAwayFromZero) / spec.scale }
            for k in j..<(j + s) { colY[k] = y + h + r.rowSpacing }
            frames.append(Rect(x: x, y: y, width: w, height: h))
            columns.append(j)
            itemsBottom = max(itemsBottom, y + h)
        }
        var footer: Rect?
        var footerBlock = 0.0
        if r.footerHeight > 0 {
            footer = Rect(
                x: r.footerInsets.left, y: itemsBottom + r.insets.bottom + r.footerInsets.top,
                width: width - r.footerInsets.left - r.footerInsets.right, height: r.footerHeight)
            footerBlock = r.footerInsets.top + r.footerHeight + r.footerInsets.bottom
        }
        let bottom = itemsBottom + r.insets.bottom + footerBlock
        // LAYOUT.md, pinned headers: max(header.y, itemsBottom + insets.bottom - headerHeight), local, then + origin.
        var pinMaxY: Double?
        if r.pinHeader, let header {
            pinMaxY = origin + max(header.y, itemsBottom + r.insets.bottom - r.headerHeight)
        }
        return Section(
            origin: origin, height: bottom, header: header.map { absolute(mirror($0)) }, pinMaxY: pinMaxY,
            footer: footer.map { absolute(mirror($0)) }, items: frames.map { absolute(mirror($0)) },
            ids: section.items.map(\.id), columns: columns)
    }
}

/// LAYOUT.md's property resolution, written out on its own.
private struct Resolved {
    var columns: Int
    var columnWidth: Double
    var columnSpacing: Double
    var rowSpacing: Double
    var insets: Insets
    var headerHeight: Double
    var footerHeight: Double
    var headerInsets: Insets
    var footerInsets: Insets
    var placement: Placement
    var tolerance: Double
    var tieBreak: TieBreak
    var pinHeader: Bool
    var reflow: Reflow

    init(_ own: SectionProperties, _ defaults: SectionProperties, _ spec: LayoutSpec, _ columnLimit: Int) {
        columnSpacing = own.columnSpacing ?? defaults.columnSpacing ?? 10
        rowSpacing = own.rowSpacing ?? defaults.rowSpacing ?? 10
        insets = own.insets ?? defaults.insets ?? .zero
        headerHeight = own.headerHeight ?? defaults.headerHeight ?? 0
        footerHeight = own.footerHeight ?? defaults.footerHeight ?? 0
        headerInsets = own.headerInsets ?? defaults.headerInsets ?? .zero
        footerInsets = own.footerInsets ?? defaults.footerInsets ?? .zero
        placement = own.placement ?? defaults.placement ?? .shortest
        tolerance = own.tolerance ?? defaults.tolerance ?? 0
        tieBreak = own.tieBreak ?? defaults.tieBreak ?? .leftmost
        pinHeader = own.pinHeader ?? defaults.pinHeader ?? false
        reflow = own.reflow ?? defaults.reflow ?? .exact
        let avail = spec.width - insets.left - insets.right
        let maxColumns = own.maxColumns ?? defaults.maxColumns
        let spacing = columnSpacing
        func adaptive(_ minWidth: Double) -> Int {
            var n = max(1, Int(min(((avail + spacing) / (minWidth + spacing)).rounded(.down), 1e6)))
            if let maxColumns { n = min(n, maxColumns) }
            return max(1, min(n, columnLimit))
        }
        if let n = own.columns {
            columns = n
        } else if let m = own.minColumnWidth {
            columns = adaptive(m)
        } else if let n = defaults.columns {
            columns = n
        } else if let m = defaults.minColumnWidth {
            columns = adaptive(m)
        } else {
            columns = 2
        }
        var cw = (avail - Double(columns - 1) * columnSpacing) / Double(columns)
        if spec.scale > 0 { cw = (cw * spec.scale).rounded(.down) / spec.scale }
        columnWidth = cw
    }
}
