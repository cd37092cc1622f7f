import WaterfallModel

/// Placement shared between widths: where two widths give every section the same column count and no height
/// depends on the width (no aspect items), the column of every item and every y are the same at both, and a
/// section stores only those (x and w are read from its geometry). Such a width is then not placed at all: it takes
/// the first width's sections with its own geometry, and its diff is the first width's with x and w read at it.
extension LayoutWidths {
    // MARK: Internal

    /// Whether a change of `commands` to `leader` (the first width, before it) leaves every height independent of
    /// the width and every section's geometry as it is, so that widths with the leader's column counts can share
    /// its placement.
    ///
    /// - Complexity: O(commands' items); O(items) once while `heightsIgnoreWidth` is unknown.
    mutating func allowsSharedPlacement(of commands: [LayoutCommand], on leader: Layout) -> Bool {
        for command in commands {
            switch command {
            case .insertItems(_, _, let items):
                if items.hasAspectItems { return false }
            case .updateItems(_, let updates):
                if updates.contains(where: { $0.item.aspectWidth != nil }) { return false }
            case .deleteItems, .moveItem, .deleteSections, .moveSection:
                continue
            case .insertSections, .configureSection, .configureLayout:
                return false
            }
        }
        if heightsIgnoreWidth == nil {
            heightsIgnoreWidth = leader.sections.allSatisfy { section in
                section.inputs.allSatisfy { $0.aspectWidth == 0 }
            }
        }
        return heightsIgnoreWidth == true
    }

    /// What `heightsIgnoreWidth` is after a change of `commands`: known to stay true when it was and the commands
    /// add no aspect item, false when they add one, unknown (found again when next needed) otherwise.
    mutating func noteHeights(after commands: [LayoutCommand]) {
        // Unknown stays unknown (found when next needed): a layout at one width never pays for the look.
        guard heightsIgnoreWidth != nil else { return }
        var adds = false
        var removes = false
        for command in commands {
            switch command {
            case .insertItems(_, _, let items): adds = adds || items.hasAspectItems
            case .updateItems(_, let updates):
                adds = adds || updates.contains { $0.item.aspectWidth != nil }
                removes = true
            case .insertSections(_, let specs):
                adds = adds || specs.contains { $0.items.contains { $0.aspectWidth != nil } }
            case .deleteItems, .deleteSections: removes = true
            case .moveItem, .moveSection, .configureSection, .configureLayout: continue
            }
        }
        if adds {
            heightsIgnoreWidth = false
        } else if heightsIgnoreWidth == false && removes {
            heightsIgnoreWidth = nil
        }
    }
}

extension Layout {
    // MARK: Internal

    /// Whether this layout (another width, before the change) has `leader`'s column count in every section.
    func hasColumnCounts(of leader: Layout) -> Bool {
        sections.count == leader.sections.count
            && zip(sections, leader.sections).allSatisfy { $0.geometry.columnCount == $1.geometry.columnCount }
    }

    /// The layout at `width` that shares `leader`'s placement: its sections (their storage shared until one of the
    /// two writes), each with the geometry of `width`.
    ///
    /// - Complexity: O(sections).
    static func sharing(_ leader: Layout, atWidth width: Double) -> Layout {
        var layout = leader
        layout.width = width
        layout.scratch = nil
        for s in layout.sections.indices {
            layout.sections[s].geometry = layout.geometry(for: layout.sections[s].properties)
            layout.metrics[s] = SectionMetrics(layout.sections[s])
        }
        return layout
    }

    /// `diff`, the leader's diff of a change, as this layout (which shares the leader's placement) lists it: the same
    /// sections, shifts and items (none unless `listingItems`), with this width's x and w.
    ///
    /// - Complexity: O(what the diff lists).
    func remapped(_ diff: LayoutDiff, listingItems: Bool) -> LayoutDiff {
        var result = diff
        for k in result.sections.indices {
            let s = result.sections[k].section
            let origin = origins[s]
            if case .set = result.sections[k].header, let frame = metrics[s].header {
                result.sections[k].header = .set(Self.absolute(frame, origin))
            }
            if case .set = result.sections[k].footer, let frame = metrics[s].footer {
                result.sections[k].footer = .set(Self.absolute(frame, origin))
            }
            guard listingItems else {
                result.sections[k].items = []
                continue
            }
            for n in result.sections[k].items.indices {
                let index = result.sections[k].items[n].index
                result.sections[k].items[n].frame = sections[s].itemFrame(index, origin: origin).frame
            }
        }
        return result
    }
}
