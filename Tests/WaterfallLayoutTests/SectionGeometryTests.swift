import Testing

@testable import WaterfallLayout
@testable import WaterfallModel

/// The Geometry article's column rules, by hand: `cw = (width - insets.left - insets.right - (c - 1) * columnSpacing) / c`,
/// adaptive counts, the resolution of a section's properties against the defaults, and the snapping of `cw`.
@Suite struct SectionGeometryTests {
    /// One geometry case: the settings, and the column count, width and x positions worked out in `name`.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var width: Double
        var scale: Double = 0
        var defaults = SectionProperties()
        var own = SectionProperties()
        var columns: Int
        var columnWidth: Double
        /// The x of each column, left to right (before any mirroring).
        var xs: [Double]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "built-in: 2 columns, spacing 10: (375 - 10) / 2 = 182.5", width: 375, columns: 2,
            columnWidth: 182.5, xs: [0, 192.5]),
        Case(
            name: "fixed 3, insets 10/20, spacing 8: (400 - 30 - 16) / 3 = 118",
            width: 400,
            own: SectionProperties(
                columns: 3, columnSpacing: 8, insets: Insets(top: 0, left: 10, bottom: 0, right: 20)),
            columns: 3, columnWidth: 118, xs: [10, 136, 262]),
        Case(
            name: "fixed 1: the whole width", width: 320, own: SectionProperties(columns: 1), columns: 1,
            columnWidth: 320, xs: [0]),
        Case(
            name: "fixed 4, spacing 0: 300 / 4 = 75", width: 300,
            own: SectionProperties(columns: 4, columnSpacing: 0), columns: 4, columnWidth: 75, xs: [0, 75, 150, 225]),
        Case(
            name: "fixed columns ignore maxColumns", width: 420, own: SectionProperties(columns: 4, maxColumns: 2),
            columns: 4, columnWidth: 97.5, xs: [0, 107.5, 215, 322.5]),
        Case(
            name: "adaptive: floor((350 + 10) / (100 + 10)) = 3, cw (350 - 20) / 3 = 110", width: 350,
            own: SectionProperties(minColumnWidth: 100), columns: 3, columnWidth: 110, xs: [0, 120, 240]),
        Case(
            name: "adaptive, exactly 3: (320 + 10) / 110 = 3, cw 100", width: 320,
            own: SectionProperties(minColumnWidth: 100), columns: 3, columnWidth: 100, xs: [0, 110, 220]),
        Case(
            name: "adaptive, just under 3: floor(329 / 110) = 2, cw (319 - 10) / 2 = 154.5", width: 319,
            own: SectionProperties(minColumnWidth: 100), columns: 2, columnWidth: 154.5, xs: [0, 164.5]),
        Case(
            name: "adaptive capped by maxColumns: floor(1010 / 110) = 9, capped at 4, cw (1000 - 30) / 4 = 242.5",
            width: 1000, own: SectionProperties(minColumnWidth: 100, maxColumns: 4), columns: 4, columnWidth: 242.5,
            xs: [0, 252.5, 505, 757.5]),
        Case(
            name: "adaptive under maxColumns keeps its count: floor(420 / 110) = 3 < 5, cw (410 - 20) / 3 = 130",
            width: 410, own: SectionProperties(minColumnWidth: 100, maxColumns: 5), columns: 3, columnWidth: 130,
            xs: [0, 140, 280]),
        Case(
            name: "adaptive max(1, ...): floor(60 / 110) = 0 becomes 1", width: 50,
            own: SectionProperties(minColumnWidth: 100), columns: 1, columnWidth: 50, xs: [0]),
        Case(
            name: "adaptive over the available width: avail = 400 - 20 - 30 = 350, 3 columns of 110", width: 400,
            own: SectionProperties(minColumnWidth: 100, insets: Insets(top: 0, left: 20, bottom: 0, right: 30)),
            columns: 3, columnWidth: 110, xs: [20, 140, 260]),
        Case(
            name: "adaptive with its own spacing: floor((340 + 20) / (80 + 20)) = 3, cw (340 - 40) / 3 = 100",
            width: 340, own: SectionProperties(minColumnWidth: 80, columnSpacing: 20), columns: 3, columnWidth: 100,
            xs: [0, 120, 240]),
        Case(
            name: "zero column width is allowed: (20 - 20) / 3 = 0", width: 20, own: SectionProperties(columns: 3),
            columns: 3, columnWidth: 0, xs: [0, 10, 20]),
        // Resolution against the defaults.
        Case(
            name: "defaults' fixed columns apply to a section without a rule", width: 320,
            defaults: SectionProperties(columns: 3), columns: 3, columnWidth: 100, xs: [0, 110, 220]),
        Case(
            name: "defaults' adaptive rule applies to a section without a rule", width: 320,
            defaults: SectionProperties(minColumnWidth: 100), columns: 3, columnWidth: 100, xs: [0, 110, 220]),
        Case(
            name: "section's adaptive rule beats defaults' fixed columns", width: 210,
            defaults: SectionProperties(columns: 3), own: SectionProperties(minColumnWidth: 100), columns: 2,
            columnWidth: 100, xs: [0, 110]),
        Case(
            name: "section's fixed columns beat defaults' adaptive rule", width: 320,
            defaults: SectionProperties(minColumnWidth: 10), own: SectionProperties(columns: 1), columns: 1,
            columnWidth: 320, xs: [0]),
        Case(
            name: "section's maxColumns caps defaults' adaptive rule", width: 1000,
            defaults: SectionProperties(minColumnWidth: 100), own: SectionProperties(maxColumns: 2), columns: 2,
            columnWidth: 495, xs: [0, 505]),
        Case(
            name: "defaults' maxColumns caps section's adaptive rule", width: 1000,
            defaults: SectionProperties(maxColumns: 2), own: SectionProperties(minColumnWidth: 100), columns: 2,
            columnWidth: 495, xs: [0, 505]),
        Case(
            name: "section's maxColumns beats defaults' maxColumns", width: 1000,
            defaults: SectionProperties(minColumnWidth: 100, maxColumns: 2), own: SectionProperties(maxColumns: 4),
            columns: 4, columnWidth: 242.5, xs: [0, 252.5, 505, 757.5]),
        Case(
            name: "defaults' spacing and insets apply: (370 - 30 - 2 * 20) / 3 = 100", width: 370,
            defaults: SectionProperties(
                columns: 3, columnSpacing: 20, insets: Insets(top: 0, left: 30, bottom: 0, right: 0)),
            columns: 3, columnWidth: 100, xs: [30, 150, 270]),
        Case(
            name: "section's spacing 0 is set, and beats defaults' 20", width: 300,
            defaults: SectionProperties(columns: 3, columnSpacing: 20), own: SectionProperties(columnSpacing: 0),
            columns: 3, columnWidth: 100, xs: [0, 100, 200]),
        Case(
            name: "section's insets replace defaults' insets as a whole", width: 300,
            defaults: SectionProperties(columns: 1, insets: Insets(top: 0, left: 50, bottom: 0, right: 50)),
            own: SectionProperties(insets: Insets(top: 0, left: 0, bottom: 0, right: 100)), columns: 1,
            columnWidth: 200, xs: [0]),
        // Snapping of the column width: floor(cw * scale) / scale.
        Case(
            name: "scale 2: (100 - 20) / 3 = 26.67 snaps down to 26.5", width: 100, scale: 2,
            own: SectionProperties(columns: 3), columns: 3, columnWidth: 26.5, xs: [0, 36.5, 73]),
        Case(
            name: "scale 1: 26.67 snaps down to 26", width: 100, scale: 1, own: SectionProperties(columns: 3),
            columns: 3, columnWidth: 26, xs: [0, 36, 72]),
        Case(
            name: "scale 3: 45.5 snaps down to 136 / 3", width: 101, scale: 3, columns: 2,
            columnWidth: 136.0 / 3, xs: [0, 136.0 / 3 + 10]),
        Case(
            name: "scale 2 keeps a width already on the grid: 182.5", width: 375, scale: 2, columns: 2,
            columnWidth: 182.5, xs: [0, 192.5]),
    ]

    /// Places one item of height 10 per column: with equal heights, shortest-first fills the columns left to right,
    /// so item k sits in column k at the top and shows that column's x and the column width.
    @Test(arguments: cases)
    func columns(_ c: Case) async throws {
        let layout = try await build(
            spec(
                width: c.width, scale: c.scale, defaults: c.defaults, c.own,
                heights: Array(repeating: 10, count: c.columns + 1)))
        #expect(layout.sections[0].geometry.columnCount == c.columns)
        #expect(layout.sections[0].geometry.columnWidth == c.columnWidth)
        let frames = layout.itemFrames(0)
        for (k, x) in c.xs.enumerated() {
            #expect(frames[k] == rect(x, 0, c.columnWidth, 10), "item \(k)")
        }
        // One more item goes under column 0: the count is exactly `c.columns`.
        let rowSpacing = c.own.rowSpacing ?? c.defaults.rowSpacing ?? 10
        #expect(frames[c.columns] == rect(c.xs[0], 10 + rowSpacing, c.columnWidth, 10))
    }

    /// Every non-column property resolves on its own: own value, else the defaults', else the built-in default.
    @Test func eachPropertyResolvesOnItsOwn() async throws {
        let defaults = SectionProperties(
            columns: 1, rowSpacing: 4, headerHeight: 20, footerHeight: 6,
            headerInsets: Insets(top: 1, left: 2, bottom: 3, right: 4), placement: .next)
        let own = SectionProperties(
            rowSpacing: 0, footerHeight: 8, footerInsets: Insets(top: 5, left: 0, bottom: 0, right: 0))
        let layout = try await build(spec(width: 100, defaults: defaults, own, heights: [10, 10]))
        let geometry = layout.sections[0].geometry
        #expect(geometry.rowSpacing == 0)  // own 0 beats defaults' 4
        #expect(geometry.headerHeight == 20)  // defaults
        #expect(geometry.footerHeight == 8)  // own
        #expect(geometry.headerInsets == Insets(top: 1, left: 2, bottom: 3, right: 4))  // defaults
        #expect(geometry.footerInsets == Insets(top: 5, left: 0, bottom: 0, right: 0))  // own
        #expect(geometry.placement == .next)  // defaults
        #expect(geometry.tolerance == 0)  // built-in
        #expect(geometry.columnSpacing == 10)  // built-in
        #expect(geometry.insets == .zero)  // built-in
        // Header block 1 + 20 + 3 = 24; items at 24 and 34 (rowSpacing 0); footer at 44 + 5.
        let frames = layout.frames(ofSection: 0)
        #expect(frames.header == rect(2, 1, 94, 20))
        #expect(frames.items.map(\.frame) == [rect(0, 24, 100, 10), rect(0, 34, 100, 10)])
        #expect(frames.footer == rect(0, 49, 100, 8))
        #expect(frames.height == 57)
    }

    /// `tieBreak` and `pinHeader` are set and reset like every property: own value, else the defaults', else the
    /// built-ins (leftmost, false).
    @Test func tieBreakAndPinHeaderSetAndReset() async throws {
        var layout = try await build(
            LayoutSpec(
                width: 210, defaults: SectionProperties(pinHeader: true),
                sections: [SectionSpec(items: items([10, 10]))]))
        var geometry = layout.sections[0].geometry
        #expect(geometry.tieBreak == .leftmost)
        #expect(geometry.pinHeader)
        _ = try await layout.validateAndApply([
            .configureSection(0, Self.patch(.set(.cursor), .set(false)))
        ])
        #expect(layout.properties(ofSection: 0) == SectionProperties(tieBreak: .cursor, pinHeader: false))
        geometry = layout.sections[0].geometry
        #expect(geometry.tieBreak == .cursor)
        #expect(!geometry.pinHeader)
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch(.reset, .reset))])
        #expect(layout.properties(ofSection: 0) == SectionProperties())
        geometry = layout.sections[0].geometry
        #expect(geometry.tieBreak == .leftmost)
        #expect(geometry.pinHeader)  // the defaults' again
        _ = try await layout.validateAndApply([
            .configureLayout(LayoutPatch(defaults: SectionProperties(tieBreak: .cursor)))
        ])
        geometry = layout.sections[0].geometry
        #expect(geometry.tieBreak == .cursor)
        #expect(!geometry.pinHeader)  // built-in
    }

    private static func patch(_ tieBreak: PropertyChange<TieBreak>, _ pinHeader: PropertyChange<Bool>) -> SectionPatch {
        var patch = SectionPatch()
        patch.tieBreak = tieBreak
        patch.pinHeader = pinHeader
        return patch
    }

    @Test func bothColumnRulesOnOneSectionAreRejected() async {
        let own = SectionProperties(columns: 2, minColumnWidth: 100)
        let error = await thrown { _ = try await build(spec(width: 320, own, heights: [])) }
        #expect(
            error
                == .invalidValue(
                    field: "sections[0].minColumnWidth", value: "100", reason: "cannot be set together with columns"))
        let inDefaults = await thrown {
            _ = try await build(spec(width: 320, defaults: own, heights: []))
        }
        #expect(inDefaults?.description == "defaults.minColumnWidth: 100 cannot be set together with columns")
    }

    /// A section's column rule and the defaults' other rule are not "both on one section".
    @Test func ownColumnsWithDefaultsMinColumnWidthIsFine() async throws {
        let layout = try await build(
            spec(
                width: 320, defaults: SectionProperties(minColumnWidth: 50), SectionProperties(columns: 2), heights: [])
        )
        #expect(layout.sections[0].geometry.columnCount == 2)
    }

    /// Negative column widths: (100 - 2 * 60) / 3 < 0.
    @Test func negativeColumnWidthIsRejectedAtCreation() async {
        let own = SectionProperties(columns: 3, columnSpacing: 60)
        let error = await thrown { _ = try await build(spec(width: 100, own, heights: [10])) }
        #expect(error == .invalidGeometry(field: "sections[0]", section: 0, columnWidth: -20.0 / 3))
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        var name: String
        var command: LayoutCommand
        var testDescription: String { name }
    }

    /// Commands that would make a 3-column, spacing 10 section of a 320-wide layout have a negative `cw`.
    static let rejections: [Rejection] = [
        Rejection(name: "width 10: (10 - 20) / 3", command: .configureLayout(LayoutPatch(width: 10))),
        Rejection(
            name: "defaults' spacing 200 where the section has none",
            command: .configureLayout(LayoutPatch(defaults: SectionProperties(columnSpacing: 200)))),
        Rejection(
            name: "section insets 151 + 150: (19 - 20) / 3",
            command: .configureSection(
                0,
                {
                    var patch = SectionPatch()
                    patch.insets = .set(Insets(top: 0, left: 151, bottom: 0, right: 150))
                    return patch
                }())),
        Rejection(
            name: "section columns 40: (320 - 390) / 40",
            command: .configureSection(
                0,
                {
                    var patch = SectionPatch()
                    patch.columns = .set(40)
                    return patch
                }())),
        Rejection(
            name: "a new section with spacing 400: (320 - 400) / 2",
            command: .insertSections(at: 1, sections: [SectionSpec(properties: SectionProperties(columnSpacing: 400))])),
    ]

    @Test(arguments: rejections)
    func negativeColumnWidthChangesNothing(_ r: Rejection) async throws {
        var layout = try await build(spec(width: 320, SectionProperties(columns: 3), heights: [10, 20, 30, 40]))
        let before = Observed(layout)
        let error = await thrown { _ = try await layout.validateAndApply([r.command]) }
        guard case .invalidGeometry(_, let section, let cw)? = error else {
            Issue.record("expected invalidGeometry, got \(String(describing: error))")
            return
        }
        #expect(section == (r.name.hasPrefix("a new") ? 1 : 0))
        #expect(cw < 0)
        #expect(Observed(layout) == before)
    }

    /// Scale snaps `cw` down, and the snapped width is what item widths and x positions use.
    @Test func snappedColumnWidthFeedsSpansAndPositions() async throws {
        // width 100, 3 columns, spacing 10, scale 2: cw 26.5; a span of 2 is 2 * 26.5 + 10 = 63; a full span 99.5.
        let section = SectionSpec(
            properties: SectionProperties(columns: 3),
            items: [Item(height: 10), Item(height: 10, span: .columns(2)), Item(height: 10, span: .full)])
        let layout = try await build(LayoutSpec(width: 100, scale: 2, sections: [section]))
        // Item 1 (span 2): windows 0-1 and 1-2 have max 20 and 0 → start 1, x 36.5.
        #expect(layout.itemFrames(0) == [rect(0, 0, 26.5, 10), rect(36.5, 0, 63, 10), rect(0, 20, 99.5, 10)])
    }
}
