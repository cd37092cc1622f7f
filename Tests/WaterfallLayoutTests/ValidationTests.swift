import Testing
import WaterfallLayout

/// Validation: each error kind with the field and value it names, batches that fail as a whole, `seq`, and the
/// resource limits. The layout is `MutationTests.base` (section 0: items 10, 20, 30, 40 in 2 columns; section 1: one
/// item of 5 in 1 column).
@Suite struct ValidationTests {
    static let base = MutationTests.base

    static func patch(_ edit: (inout SectionPatch) -> Void) -> SectionPatch {
        MutationTests.patch(edit)
    }

    /// `seq` is 1 after creation and grows by one per successful request, a batch counting once.
    @Test func seqCountsRequests() async throws {
        var layout = try await build(Self.base)
        #expect(layout.seq == 1)
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 0, items: plainItems([1]))])
        #expect(layout.seq == 2)
        _ = try await layout.validateAndApply([
            .insertItems(section: 0, at: 0, items: plainItems([1])), .deleteItems(section: 0, indices: [0]),
            .configureLayout(LayoutPatch(width: 300)),
        ])
        #expect(layout.seq == 3)
        _ = try? await layout.validateAndApply([.deleteSections([7])])
        #expect(layout.seq == 3)
    }

    struct Batch: Sendable, CustomTestStringConvertible {
        var name: String
        var commands: [LayoutCommand]
        var field: String
        var testDescription: String { name }
    }

    static let failingBatches: [Batch] = [
        Batch(
            name: "insert, update, then delete an index past the end",
            commands: [
                .insertItems(section: 0, at: 0, items: plainItems([5])),
                .updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 7))]),
                .deleteItems(section: 0, indices: [5]),
            ], field: "ops[2].params.items[0]"),
        Batch(
            name: "insert a section, configure it, then an invalid width",
            commands: [
                .insertSections(at: 2, sections: [SectionSpec(items: items([1, 2, 3]))]),
                .configureSection(2, patch { $0.columns = .set(3) }),
                .configureLayout(LayoutPatch(width: -1)),
            ], field: "ops[2].params.width"),
        Batch(
            name: "delete a section, then the indices have moved",
            commands: [
                .deleteSections([0]), .moveSection(from: 0, to: 0),
                .insertItems(section: 1, at: 0, items: plainItems([1])),
            ], field: "ops[2].params.section"),
        Batch(
            name: "move an item, then a negative height",
            commands: [
                .moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 1, item: 1)),
                .configureLayout(LayoutPatch(direction: .rtl)),
                .insertItems(section: 1, at: 0, items: [Item(height: 1), Item(height: -2)]),
            ], field: "ops[2].params.items[1].h"),
    ]

    /// A batch whose third command fails changes nothing, `seq` included, and names the failing command.
    @Test(arguments: failingBatches)
    func failingBatchChangesNothing(_ batch: Batch) async throws {
        var layout = try await build(Self.base)
        _ = try await layout.validateAndApply([.insertItems(section: 1, at: 1, items: plainItems([3]))])
        let before = Observed(layout)
        let error = await thrown { _ = try await layout.validateAndApply(batch.commands) }
        #expect(error?.field == batch.field)
        #expect(Observed(layout) == before)
        // The layout still works after the rejection.
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 4, items: plainItems([25]))])
        #expect(layout.itemFrames(0).last == rect(0, 60, 100, 25))
        #expect(layout.seq == 3)
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        var name: String
        var command: LayoutCommand
        var kind: Kind
        var field: String
        var value: String
        var testDescription: String { name }

        enum Kind: Sendable { case invalidValue, notFound, limit }
    }

    static let longID = String(repeating: "é", count: 129)

    static let rejections: [Rejection] = [
        Rejection(
            name: "negative height", command: .insertItems(section: 0, at: 0, items: plainItems([1, 2, 3, -1])),
            kind: .invalidValue, field: "items[3].h", value: "-1"),
        Rejection(
            name: "NaN height", command: .insertItems(section: 0, at: 0, items: plainItems([.nan])),
            kind: .invalidValue,
            field: "items[0].h", value: "nan"),
        Rejection(
            name: "infinite height", command: .insertItems(section: 0, at: 0, items: plainItems([.infinity])),
            kind: .invalidValue, field: "items[0].h", value: "inf"),
        Rejection(
            name: "height over 1e9", command: .insertItems(section: 0, at: 0, items: plainItems([2e9])),
            kind: .invalidValue, field: "items[0].h", value: "2000000000"),
        Rejection(
            name: "aspect width 0", command: .insertItems(section: 0, at: 0, items: [Item(height: 1, aspectWidth: 0)]),
            kind: .invalidValue, field: "items[0].w", value: "0"),
        Rejection(
            name: "span 0", command: .insertItems(section: 0, at: 0, items: [Item(height: 1, span: .columns(0))]),
            kind: .invalidValue, field: "items[0].span", value: "0"),
        Rejection(
            name: "id over 256 bytes", command: .insertItems(section: 0, at: 0, items: [Item(height: 1, id: longID)]),
            kind: .invalidValue, field: "items[0].id", value: "258 bytes"),
        Rejection(
            name: "insert into a missing section", command: .insertItems(section: 2, at: 0, items: plainItems([1])),
            kind: .notFound, field: "section", value: "2"),
        Rejection(
            name: "insert past the end", command: .insertItems(section: 0, at: 5, items: plainItems([1])),
            kind: .notFound,
            field: "at", value: "5"),
        Rejection(
            name: "delete an index twice", command: .deleteItems(section: 0, indices: [1, 1]), kind: .invalidValue,
            field: "items", value: "1"),
        Rejection(
            name: "delete a missing index", command: .deleteItems(section: 0, indices: [0, 4]), kind: .notFound,
            field: "items[1]", value: "4"),
        Rejection(
            name: "update a negative index",
            command: .updateItems(section: 0, updates: [ItemUpdate(index: -1, item: Item(height: 1))]),
            kind: .notFound, field: "items[0]", value: "-1"),
        Rejection(
            name: "update to a negative height",
            command: .updateItems(
                section: 0,
                updates: [ItemUpdate(index: 0, item: Item(height: 1)), ItemUpdate(index: 2, item: Item(height: -3))]),
            kind: .invalidValue, field: "items[1].h", value: "-3"),
        Rejection(
            name: "move a missing item",
            command: .moveItem(from: ItemPath(section: 0, item: 4), to: ItemPath(section: 0, item: 0)),
            kind: .notFound, field: "from[1]", value: "4"),
        Rejection(
            name: "move past the end of the same section",
            command: .moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 4)),
            kind: .notFound, field: "to[1]", value: "4"),
        Rejection(
            name: "move to a missing section",
            command: .moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 3, item: 0)),
            kind: .notFound, field: "to[0]", value: "3"),
        Rejection(
            name: "insert sections past the end", command: .insertSections(at: 3, sections: [SectionSpec()]),
            kind: .notFound, field: "at", value: "3"),
        Rejection(
            name: "a new section with 0 columns",
            command: .insertSections(
                at: 0, sections: [SectionSpec(), SectionSpec(properties: SectionProperties(columns: 0))]),
            kind: .invalidValue, field: "sections[1].columns", value: "0"),
        Rejection(
            name: "a new section with 1025 columns",
            command: .insertSections(at: 0, sections: [SectionSpec(properties: SectionProperties(columns: 1025))]),
            kind: .invalidValue, field: "sections[0].columns", value: "1025"),
        Rejection(
            name: "a new section with a negative inset",
            command: .insertSections(
                at: 0,
                sections: [
                    SectionSpec(properties: SectionProperties(insets: Insets(top: 0, left: -1, bottom: 0, right: 0)))
                ]),
            kind: .invalidValue, field: "sections[0].insets.left", value: "-1"),
        Rejection(
            name: "a new section with a bad item",
            command: .insertSections(at: 0, sections: [SectionSpec(items: items([1, -5]))]), kind: .invalidValue,
            field: "sections[0].items[1].h", value: "-5"),
        Rejection(
            name: "delete a missing section", command: .deleteSections([1, 2]), kind: .notFound,
            field: "sections[1]", value: "2"),
        Rejection(
            name: "move a missing section", command: .moveSection(from: 2, to: 0), kind: .notFound, field: "from",
            value: "2"),
        Rejection(
            name: "move a section past the end", command: .moveSection(from: 0, to: 2), kind: .notFound, field: "to",
            value: "2"),
        Rejection(
            name: "configure a missing section", command: .configureSection(2, SectionPatch()), kind: .notFound,
            field: "section", value: "2"),
        Rejection(
            name: "configure a negative rowSpacing", command: .configureSection(0, patch { $0.rowSpacing = .set(-1) }),
            kind: .invalidValue, field: "rowSpacing", value: "-1"),
        Rejection(
            name: "configure maxColumns 0", command: .configureSection(0, patch { $0.maxColumns = .set(0) }),
            kind: .invalidValue, field: "maxColumns", value: "0"),
        Rejection(
            name: "configure both column rules",
            command: .configureSection(
                0,
                patch {
                    $0.columns = .set(2)
                    $0.minColumnWidth = .set(50)
                }), kind: .invalidValue, field: "minColumnWidth", value: "50"),
        Rejection(
            name: "configure minColumnWidth 0", command: .configureSection(0, patch { $0.minColumnWidth = .set(0) }),
            kind: .invalidValue, field: "minColumnWidth", value: "0"),
        Rejection(
            name: "width 0", command: .configureLayout(LayoutPatch(width: 0)), kind: .invalidValue, field: "width",
            value: "0"),
        Rejection(
            name: "negative scale", command: .configureLayout(LayoutPatch(scale: -1)), kind: .invalidValue,
            field: "scale", value: "-1"),
        Rejection(
            name: "negative minContentHeight", command: .configureLayout(LayoutPatch(minContentHeight: -0.5)),
            kind: .invalidValue, field: "minContentHeight", value: "-0.5"),
        Rejection(
            name: "negative default tolerance",
            command: .configureLayout(LayoutPatch(defaults: SectionProperties(tolerance: -2))), kind: .invalidValue,
            field: "defaults.tolerance", value: "-2"),
    ]

    /// Each error kind, with the field and the value at fault at the start of its description.
    @Test(arguments: rejections)
    func rejection(_ r: Rejection) async throws {
        var layout = try await build(Self.base)
        let before = Observed(layout)
        let error = await thrown { _ = try await layout.validateAndApply([r.command]) }
        switch (r.kind, error) {
        case (.invalidValue, .invalidValue?), (.notFound, .notFound?), (.limit, .limit?): break
        default: Issue.record("expected \(r.kind), got \(String(describing: error))")
        }
        #expect(error?.field == r.field)
        #expect(error?.description.hasPrefix("\(r.field): \(r.value) ") == true, "\(String(describing: error))")
        #expect(Observed(layout) == before)
    }

    /// The bounds themselves are valid: an id of exactly 256 bytes, a height of exactly 1e9, 1024 columns.
    @Test func boundsAreAccepted() async throws {
        var layout = try await build(Self.base)
        let id = String(repeating: "é", count: 128)
        _ = try await layout.validateAndApply([
            .insertItems(section: 1, at: 1, items: [Item(height: 1e9, id: id), Item(height: 0, aspectWidth: 1e-6)]),
            .insertSections(
                at: 2, sections: [SectionSpec(properties: SectionProperties(columns: 1024, columnSpacing: 0))]),
        ])
        #expect(layout.item(at: ItemPath(section: 1, item: 1)).id == id)
        #expect(layout.frame(ofItem: ItemPath(section: 1, item: 1)).frame == rect(0, 85, 210, 1e9))
    }

    /// Creation validates too, with the same field names.
    @Test func invalidSpecIsRejected() async {
        let width = await thrown { _ = try await build(LayoutSpec(width: 0)) }
        #expect(width?.description == "width: 0 must be > 0")
        let item = await thrown { _ = try await build(spec(width: 100, heights: [1, 2, -3])) }
        #expect(item?.description == "sections[0].items[2].h: -3 must be a number ≥ 0")
    }

    // MARK: Limits

    @Test func itemLimit() async throws {
        // The base has 5 items.
        var layout = try await build(Self.base, limits: LayoutLimits(maxItems: 6, maxSections: 10, maxColumns: 8))
        let before = Observed(layout)
        let two = await thrown {
            _ = try await layout.validateAndApply([.insertItems(section: 0, at: 0, items: plainItems([1, 1]))])
        }
        guard case .limit(let field, let value, _)? = two else {
            Issue.record("expected a limit error, got \(String(describing: two))")
            return
        }
        #expect(field == "items" && value == "2 items")
        let inSection = await thrown {
            _ = try await layout.validateAndApply([
                .insertSections(at: 0, sections: [SectionSpec(items: items([1, 1]))])
            ])
        }
        #expect(inSection?.field == "sections")
        #expect(Observed(layout) == before)
        // A delete makes room within the same batch.
        _ = try await layout.validateAndApply([
            .deleteItems(section: 1, indices: [0]), .insertItems(section: 0, at: 0, items: plainItems([1, 1])),
        ])
        #expect(layout.itemCount == 6)
    }

    /// Columns cost memory even in empty sections, so all sections' columns together are bounded by `maxItems`.
    @Test func columnTotalLimit() async throws {
        let limits = LayoutLimits(maxItems: 10, maxSections: 100, maxColumns: 8)
        var layout = try await build(
            LayoutSpec(width: 800, sections: [SectionSpec(properties: SectionProperties(columns: 8))]), limits: limits)
        let before = Observed(layout)
        let wide = await thrown {
            _ = try await layout.validateAndApply([
                .insertSections(at: 1, sections: [SectionSpec(properties: SectionProperties(columns: 4))])
            ])
        }
        guard case .limit(_, let value, _)? = wide else {
            Issue.record("expected a limit error, got \(String(describing: wide))")
            return
        }
        #expect(value == "12 columns")
        #expect(Observed(layout) == before)
        // Two more columns fit: 8 + 2 = 10.
        _ = try await layout.validateAndApply([
            .insertSections(at: 1, sections: [SectionSpec(properties: SectionProperties(columns: 2))])
        ])
        #expect(layout.weight == 0 + 2 + 10)
    }

    @Test func sectionLimit() async throws {
        var layout = try await build(Self.base, limits: LayoutLimits(maxItems: 100, maxSections: 2, maxColumns: 8))
        let error = await thrown {
            _ = try await layout.validateAndApply([.insertSections(at: 0, sections: [SectionSpec()])])
        }
        guard case .limit(let field, _, _)? = error else {
            Issue.record("expected a limit error, got \(String(describing: error))")
            return
        }
        #expect(field == "sections")
        let atCreation = await thrown {
            _ = try await build(
                LayoutSpec(width: 100, sections: [SectionSpec(), SectionSpec(), SectionSpec()]),
                limits: LayoutLimits(maxItems: 100, maxSections: 2, maxColumns: 8))
        }
        #expect(atCreation?.field == "sections")
    }

    @Test func columnLimit() async throws {
        let limits = LayoutLimits(maxItems: 100, maxSections: 10, maxColumns: 4)
        var layout = try await build(Self.base, limits: limits)
        let before = Observed(layout)
        let configured = await thrown {
            _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.columns = .set(5) })])
        }
        guard case .limit(let field, let value, _)? = configured else {
            Issue.record("expected a limit error, got \(String(describing: configured))")
            return
        }
        #expect(field == "columns" && value == "5")
        let inserted = await thrown {
            _ = try await layout.validateAndApply([
                .insertSections(at: 0, sections: [SectionSpec(properties: SectionProperties(columns: 5))])
            ])
        }
        #expect(inserted?.field == "sections[0].columns")
        let defaults = await thrown {
            _ = try await layout.validateAndApply([
                .configureLayout(LayoutPatch(defaults: SectionProperties(columns: 5)))
            ])
        }
        #expect(defaults?.field == "defaults.columns")
        #expect(Observed(layout) == before)
        // An adaptive count is capped at the limit instead: floor((2000 + 10) / 20) = 100 → 4 columns.
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.minColumnWidth = .set(10) })])
        _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(width: 2000))])
        #expect(layout.itemFrames(0).map(\.x) == [0, 502.5, 1005, 1507.5])
    }

    /// An adaptive count whose quotient overflows to infinity (1e9 points of 5e-324-point columns) is as many
    /// columns as allowed, not one.
    @Test func anAdaptiveCountThatOverflowsIsCappedAtTheLimit() async throws {
        let defaults = SectionProperties(minColumnWidth: .leastNonzeroMagnitude, columnSpacing: 0)
        let spec = LayoutSpec(width: 1e9, defaults: defaults, sections: [SectionSpec(items: [Item(height: 1)])])
        let limits = LayoutLimits(maxItems: 100, maxSections: 10, maxColumns: 8)
        let layout = try await Layout.make(spec, limits: limits).layout
        #expect(layout.itemFrames(0)[0].width == 1e9 / 8)
    }

    /// Header and footer insets wider than the layout are refused like a negative column width, and change
    /// nothing; insets on a header or footer that does not exist are not.
    @Test func insetsWiderThanTheLayoutAreInvalidGeometry() async throws {
        var layout = try await build(Self.base, limits: .default)
        let before = Observed(layout)
        let wide = Insets(top: 0, left: 200, bottom: 0, right: 200)
        for patch in [
            Self.patch {
                $0.headerHeight = .set(10)
                $0.headerInsets = .set(wide)
            },
            Self.patch {
                $0.footerHeight = .set(10)
                $0.footerInsets = .set(wide)
            },
        ] {
            let error = await thrown { _ = try await layout.validateAndApply([.configureSection(0, patch)]) }
            guard case .negativeWidth(_, 0, _, let width)? = error else {
                Issue.record("expected a negative width, got \(String(describing: error))")
                continue
            }
            #expect(width < 0)
        }
        #expect(Observed(layout) == before)
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.headerInsets = .set(wide) })])
    }
}

extension LayoutError {
    /// The field an error names, for comparing just that.
    var field: String {
        switch self {
        case .invalidValue(let field, _, _), .notFound(let field, _, _), .limit(let field, _, _): field
        case .invalidGeometry(let field, _, _), .negativeWidth(let field, _, _, _): field
        case .inconsistent: ""
        }
    }
}
