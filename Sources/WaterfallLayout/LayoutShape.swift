import WaterfallModel

/// The part of a layout that validation needs (settings, item counts, section properties), cheap to copy.
///
/// A batch is dry-run on a shape first, command by command, so that a failing command is found before anything
/// real changes: that is what makes every request all or nothing without an undo log.
struct LayoutShape {
    /// The widths the layout is laid out at: geometry is checked at each, and limits count each one's frames.
    var widths: [Double]
    var scale: Double
    var direction: Direction
    var axis: Axis
    /// Whether the batch so far gave some item an aspect size too flat for a horizontal layout, which a later
    /// switch to it must refuse.
    private var addedFlatAspect = false
    var defaults: SectionProperties
    var counts: [Int]
    /// Each section's column count summed over the widths, for the weight.
    var columnCounts: [Int]
    var itemCount: Int
    /// The sections' own properties, copied only once a command needs to change them (item commands never do).
    private var ownProperties: [SectionProperties]?
    private let sections: [SectionState]
    let limits: LayoutLimits

    // MARK: Lifecycle

    /// The shape of `layout` laid out also as `others` (the same inputs at other widths).
    init(_ layout: Layout, alongside others: [Layout]) {
        widths = [layout.width] + others.map(\.width)
        scale = layout.scale
        direction = layout.direction
        axis = layout.axis
        defaults = layout.defaults
        // From the metrics (plain values), not from the sections, which a `map` would copy one by one.
        counts = layout.metrics.map(\.count)
        columnCounts = layout.metrics.map(\.columns)
        for other in others {
            for s in columnCounts.indices { columnCounts[s] += other.metrics[s].columns }
        }
        sections = layout.sections
        itemCount = layout.itemCount
        limits = layout.limits
    }

    // MARK: Internal

    /// The columns of all sections together: each costs memory (its index and samples) even when empty, so they
    /// are bounded like items, by `maxItems`, lest many wide empty sections grow memory past the limits.
    var columnTotal: Int { columnCounts.reduce(0, +) }

    /// Checks `command` against the shape and applies it to the shape, then the columns against the limit.
    mutating func apply(_ command: LayoutCommand) throws(LayoutError) {
        let before = columnTotal
        try applyUnchecked(command)
        let after = columnTotal
        guard after <= before || after <= limits.maxItems else {
            throw .limit(
                field: "", value: "\(after) columns",
                reason: "in all sections together would exceed the layout's limit of \(limits.maxItems)")
        }
    }

    private mutating func applyUnchecked(_ command: LayoutCommand) throws(LayoutError) {
        switch command {
        case .insertItems(let section, let at, let items):
            try checkSection(section, "section")
            try checkPosition(at, upTo: counts[section], "at", what: "an item position")
            try Validation.items(items, "", horizontal: axis == .horizontal)
            addedFlatAspect = addedFlatAspect || Validation.hasFlatAspect(items)
            try addItems(items.count, "items")
            counts[section] += items.count
        case .deleteItems(let section, let indices):
            try checkSection(section, "section")
            let sorted = try Validation.indices(indices, count: counts[section], field: "items", what: "an item index")
            counts[section] -= sorted.count
            itemCount -= sorted.count
        case .updateItems(let section, let updates):
            try checkSection(section, "section")
            _ = try Validation.indices(
                updates.map(\.index), count: counts[section], field: "items", what: "an item index")
            for (k, update) in updates.enumerated() {
                try Validation.item(update.item, "items[\(k)].", horizontal: axis == .horizontal)
                addedFlatAspect = addedFlatAspect || Validation.isFlatAspect(update.item)
            }
        case .moveItem(let from, let to):
            try checkSection(from.section, "from[0]")
            try checkPosition(from.item, upTo: counts[from.section] - 1, "from[1]", what: "an item index")
            try checkSection(to.section, "to[0]")
            counts[from.section] -= 1
            try checkPosition(to.item, upTo: counts[to.section], "to[1]", what: "an item position")
            counts[to.section] += 1
        case .insertSections(let at, let specs):
            try checkPosition(at, upTo: counts.count, "at", what: "a section position")
            guard counts.count + specs.count <= limits.maxSections else {
                throw .limit(
                    field: "sections", value: String(counts.count + specs.count),
                    reason: "sections would exceed the limit of \(limits.maxSections)")
            }
            var added = 0
            var columns: [Int] = []
            for (k, spec) in specs.enumerated() {
                try Validation.properties(spec.properties, "sections[\(k)].", limits: limits)
                try Validation.items(spec.items, "sections[\(k)].", horizontal: axis == .horizontal)
                addedFlatAspect = addedFlatAspect || spec.items.contains(where: Validation.isFlatAspect)
                columns.append(try checkGeometry(spec.properties, "sections[\(k)]", section: at + k))
                added += spec.items.count
            }
            try addItems(added, "sections")
            counts.insert(contentsOf: specs.map(\.items.count), at: at)
            columnCounts.insert(contentsOf: columns, at: at)
            materializeProperties()
            ownProperties?.insert(contentsOf: specs.map(\.properties), at: at)
        case .deleteSections(let indices):
            let sorted = try Validation.indices(indices, count: counts.count, field: "sections", what: "a section")
            for s in sorted { itemCount -= counts[s] }
            counts.remove(sortedIndices: sorted)
            columnCounts.remove(sortedIndices: sorted)
            materializeProperties()
            ownProperties?.remove(sortedIndices: sorted)
        case .moveSection(let from, let to):
            try checkSection(from, "from")
            try checkPosition(to, upTo: counts.count - 1, "to", what: "a section position")
            counts.move(from: from, to: to)
            columnCounts.move(from: from, to: to)
            materializeProperties()
            ownProperties?.move(from: from, to: to)
        case .configureSection(let section, let patch):
            try checkSection(section, "section")
            let updated = try (ownProperties?[section] ?? sections[section].properties).applying(patch, limits: limits)
            columnCounts[section] = try checkGeometry(updated, "section", section: section)
            materializeProperties()
            ownProperties?[section] = updated
        case .configureLayout(let patch):
            try configure(patch)
        }
    }

    // MARK: Private

    /// The properties of every section, as they stand in the dry run.
    private var properties: [SectionProperties] { ownProperties ?? sections.map(\.properties) }

    /// Copies the properties once, for a command that changes them; later changes are in place.
    private mutating func materializeProperties() {
        if ownProperties == nil { ownProperties = sections.map(\.properties) }
    }

    private mutating func configure(_ patch: LayoutPatch) throws(LayoutError) {
        if patch.width != nil, patch.widths != nil {
            throw .invalidValue(field: "width", value: "", reason: "and widths cannot both be given")
        }
        if let v = patch.resolvedWidths {
            try Validation.widths(v, patch.width != nil ? "width" : "widths")
            // Each width holds a frame per item: more widths must leave the frames within the layout's limit.
            if v.count > widths.count {
                try checkFrames(itemCount, widths: v.count, "widths", value: "\(v.count) widths")
            }
        }
        if let v = patch.scale { try Validation.scale(v) }
        if let v = patch.minContentHeight { try Validation.length(v, "minContentHeight") }
        if let v = patch.defaults { try Validation.properties(v, "defaults.", limits: limits) }
        if patch.axis == .horizontal && axis == .vertical { try checkAspects() }
        widths = patch.resolvedWidths ?? widths
        scale = patch.scale ?? scale
        direction = patch.direction ?? direction
        axis = patch.axis ?? axis
        defaults = patch.defaults ?? defaults
        let field =
            patch.width != nil
            ? "width" : patch.widths != nil ? "widths" : (patch.defaults != nil ? "defaults" : "scale")
        let all = properties
        for s in all.indices { columnCounts[s] = try checkGeometry(all[s], field, section: s) }
    }

    /// Refuses a switch to the horizontal axis while an item has an aspect size too flat for it (stored as given,
    /// the layout being vertical); conservative within a batch, where such an item may since have gone.
    ///
    /// - Complexity: O(items): a switch of axis places every section again anyway.
    private func checkAspects() throws(LayoutError) {
        var flat = addedFlatAspect ? "an item of this batch" : nil
        for s in sections.indices where flat == nil {
            if let k = sections[s].inputs.firstIndex(where: {
                $0.aspectWidth > 0 && $0.height < Validation.minAspectWidth
            }) {
                flat = "item \(k) of section \(s)"
            }
        }
        guard let flat else { return }
        throw .invalidValue(
            field: "axis", value: "horizontal",
            reason: "cannot apply while \(flat) has an aspect size with h below 1e-6 (endless along x)")
    }

    private func checkSection(_ section: Int, _ field: String) throws(LayoutError) {
        guard section >= 0, section < counts.count else {
            throw .notFound(
                field: field, value: String(section), reason: "is not a section (there are \(counts.count))")
        }
    }

    private func checkPosition(_ position: Int, upTo last: Int, _ field: String, what: String) throws(LayoutError) {
        guard position >= 0, position <= last else {
            throw .notFound(field: field, value: String(position), reason: "is not \(what) (0...\(last))")
        }
    }

    private mutating func addItems(_ added: Int, _ field: String) throws(LayoutError) {
        try checkFrames(itemCount + added, widths: widths.count, field, value: "\(added) items")
        itemCount += added
    }

    /// Checks that `items` items at `widths` widths, a frame each per width, are within the layout's item limit.
    private func checkFrames(_ items: Int, widths: Int, _ field: String, value: String) throws(LayoutError) {
        // Both counts are bounded (items by the request's size, widths by 16): the product cannot overflow.
        guard items * widths <= limits.maxItems else {
            let frames =
                widths == 1 ? "\(items) items" : "\(items) items at \(widths) widths (\(items * widths) frames)"
            throw .limit(
                field: field, value: value,
                reason: "would bring the layout to \(frames), over the limit of \(limits.maxItems)")
        }
    }

    /// Checks a section's resolved geometry at every width and returns its column count summed over the widths.
    private func checkGeometry(_ own: SectionProperties, _ field: String, section: Int) throws(LayoutError) -> Int {
        if let reason = own.lookaheadConflict(defaults: defaults) {
            // Named as the geometry's faults are: by what the command changed (the section, or the defaults).
            let lookahead = Validation.text(.lookahead(SectionPropertyTable.lookahead.resolve(own, defaults)))
            throw .invalidValue(
                field: field, value: "lookahead " + lookahead, reason: "of section \(section) " + reason)
        }
        var total = 0
        for width in widths { total += try checkGeometry(own, field, section: section, width: width) }
        return total
    }

    /// Where the `columnWidths` that do not fit section `section` were set: its own, named as the request names the
    /// section (`field`), or the defaults'.
    private static func weightsField(_ own: SectionProperties, _ field: String, section: Int) -> String {
        guard own.columnWidths != nil else { return "defaults.columnWidths" }
        if field == "section" { return "columnWidths" }
        return field.hasPrefix("sections[") ? "\(field).columnWidths" : "sections[\(section)].columnWidths"
    }

    /// Checks a section's resolved geometry at `width` and returns its column count there.
    private func checkGeometry(
        _ own: SectionProperties, _ field: String, section: Int, width: Double
    ) throws(LayoutError) -> Int {
        let geometry = SectionGeometry(
            own: own, defaults: defaults, width: width, scale: scale, direction: direction,
            columnLimit: limits.maxColumns)
        guard geometry.columnWidth >= 0 else {
            throw .invalidGeometry(field: field, section: section, columnWidth: geometry.columnWidth)
        }
        if let (weights, reason) = geometry.weightsMismatch(own: own, defaults: defaults) {
            throw .invalidValue(
                field: Self.weightsField(own, field, section: section), value: Validation.text(.weights(weights)),
                reason: "\(reason) (section \(section))")
        }
        // A header or footer narrower than nothing is the same fault as a column: its insets are wider than the
        // layout.
        for (element, frame) in [
            ("header", geometry.localHeaderFrame), ("footer", geometry.localFooterFrame(itemsBottom: 0)),
        ] {
            if let frame, frame.width < 0 {
                throw .negativeWidth(field: field, section: section, element: element, width: frame.width)
            }
        }
        guard geometry.columnCount <= limits.maxColumns else {
            throw .limit(
                field: field, value: String(geometry.columnCount),
                reason: "columns are over the limit of \(limits.maxColumns)")
        }
        try checkStamps(own, geometry, field, section: section, width: width)
        return geometry.columnCount
    }

    /// Checks that every stamp of a section lies within its columns at `width` (the Geometry article, "Stamps"):
    /// a stamp is never moved or cut to fit, so a change that leaves one outside is refused.
    private func checkStamps(
        _ own: SectionProperties, _ geometry: SectionGeometry, _ field: String, section: Int, width: Double
    ) throws(LayoutError) {
        let stamps = SectionPropertyTable.stamps.resolve(own, defaults)
        if !stamps.isEmpty, geometry.shares != nil {
            // Placement around stamps measures an item once for every start, as equal columns allow.
            let name = field == "section" ? "stamps" : field.hasPrefix("sections[") ? "\(field).stamps" : field
            throw .invalidValue(
                field: name, value: "\(stamps.count) stamps",
                reason: "cannot go with columnWidths (section \(section)): stamps need columns of equal width")
        }
        let c = geometry.columnCount
        guard let k = stamps.firstIndex(where: { $0.column + $0.span > c }) else { return }
        let columns = "columns \(stamps[k].column)..<\(stamps[k].column + stamps[k].span)"
        let inherited = own.stamps == nil ? " (from the defaults)" : ""
        let within = "within the section's \(c) columns at width \(Validation.format(width))"
        if field.hasPrefix("sections[") || field == "section" {
            let name = field == "section" ? "stamps[\(k)]" : "\(field).stamps[\(k)]"
            throw .invalidValue(field: name, value: columns, reason: "must lie \(within)\(inherited)")
        }
        throw .invalidValue(
            field: field, value: field == "width" ? Validation.format(width) : field,
            reason: "would leave section \(section)'s stamps[\(k)]\(inherited), \(columns), outside its \(c) columns")
    }
}

extension SectionProperties {
    /// These properties with `patch` applied: `columns` and `minColumnWidth` replace each other.
    func applying(_ patch: SectionPatch, limits: LayoutLimits) throws(LayoutError) -> SectionProperties {
        for exclusion in SectionPropertyTable.exclusions {
            if let value = exclusion.conflict(in: patch) {
                throw .invalidValue(
                    field: exclusion.refused.name, value: Validation.text(value), reason: exclusion.reason)
            }
        }
        let result = merging(patch)
        try Validation.properties(result, "", limits: limits)
        return result
    }
}
