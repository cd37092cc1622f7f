import WaterfallModel

/// The bookkeeping of one `apply`: where each section came from and what happened to its items.
struct Batch {
    /// For each current section, its index before the batch, or -1 for a new one.
    var oldIndex: SectionIdentity
    /// For each current section that existed before and changed, what changed.
    var changes: SectionChanges
    /// The origins before the batch, by old index (and the bottom after the last).
    let oldOrigins: [Double]
    /// Whether a configure changed how flow coordinates map to the screen (a new axis, or a horizontal layout's new
    /// direction): every frame then moved on screen, though none moved in flow, so the diff lists every section anew.
    var screenChanged = false

    init(sectionCount: Int, oldOrigins: [Double]) {
        oldIndex = SectionIdentity(count: sectionCount)
        changes = SectionChanges(count: sectionCount)
        self.oldOrigins = oldOrigins
    }
}

/// Each current section's index before the batch (-1 for a new one): the identity until sections are inserted,
/// deleted or moved, so that a change to items allocates nothing per section.
struct SectionIdentity {
    private var map: [Int]?
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    /// Every section new (a from-scratch placement).
    static func allNew(count: Int) -> SectionIdentity {
        var identity = SectionIdentity(count: count)
        identity.map = Array(repeating: -1, count: count)
        return identity
    }

    subscript(s: Int) -> Int { map?[s] ?? s }

    mutating func insertNew(count added: Int, at index: Int) {
        materialize()
        map?.insert(contentsOf: repeatElement(-1, count: added), at: index)
    }

    mutating func remove(sortedIndices indices: [Int]) {
        materialize()
        map?.remove(sortedIndices: indices)
    }

    mutating func move(from: Int, to: Int) {
        materialize()
        map?.move(from: from, to: to)
    }

    private mutating func materialize() {
        if map == nil { map = Array(0..<count) }
    }
}

/// The `SectionChange` of each current section that has one, by current index.
///
/// Most batches change one section: its change is kept inline, and the per-section slots are only made for a
/// second one or for a change to the list of sections. Past that, changes are small indices into a separate list
/// rather than `[SectionChange?]`, which would cost a large initialized element per section on every change.
struct SectionChanges {
    private var count: Int
    /// The section of the inline change, or -1 (apart from it, so that a test reads no large value).
    private var singleSection = -1
    private var single: SectionChange?
    private var slots: [Int32]?
    private var store: [SectionChange] = []

    init(count: Int) {
        self.count = count
    }

    func has(_ s: Int) -> Bool {
        guard let slots else { return singleSection == s }
        return slots[s] >= 0
    }

    subscript(s: Int) -> SectionChange? {
        guard let slots else { return singleSection == s ? single : nil }
        return slots[s] < 0 ? nil : store[Int(slots[s])]
    }

    /// The metrics before the batch of section `s`, if it changed: read without copying its whole record.
    func oldMetrics(_ s: Int) -> SectionMetrics? {
        guard let slots else { return singleSection == s ? single?.oldMetrics : nil }
        return slots[s] < 0 ? nil : store[Int(slots[s])].oldMetrics
    }

    mutating func start(_ s: Int, _ change: SectionChange) {
        if slots == nil && singleSection < 0 {
            singleSection = s
            single = change
            return
        }
        materialize()
        slots?[s] = Int32(store.count)
        store.append(change)
    }

    /// Changes section `s`'s record in place, if it has one.
    mutating func update(_ s: Int, _ body: (inout SectionChange) -> Void) {
        if slots == nil {
            guard singleSection == s, var change = single.take() else { return }
            // Taken out while it changes, so that its storage is not shared and mutates in place.
            body(&change)
            single = change
            return
        }
        let slot = Int(slots?[s] ?? -1)
        if slot >= 0 { body(&store[slot]) }
    }

    mutating func insertNone(count added: Int, at index: Int) {
        materialize()
        slots?.insert(contentsOf: repeatElement(-1, count: added), at: index)
    }

    mutating func remove(sortedIndices indices: [Int]) {
        materialize()
        slots?.remove(sortedIndices: indices)
    }

    mutating func move(from: Int, to: Int) {
        materialize()
        slots?.move(from: from, to: to)
    }

    /// Gives every section its slot, moving the inline change into the list.
    private mutating func materialize() {
        guard slots == nil else { return }
        var all = [Int32](repeating: -1, count: count)
        if let change = single.take() {
            all[singleSection] = 0
            store.append(change)
            singleSection = -1
        }
        slots = all
    }
}

extension Layout {
    /// Performs a command that `LayoutShape` has validated: it changes inputs and records changes, places nothing.
    mutating func perform(_ command: LayoutCommand, _ batch: inout Batch) {
        switch command {
        case .insertItems(let s, _, _), .deleteItems(let s, _), .updateItems(let s, _):
            touch(s, &batch)
            if batch.changes.has(s) {
                batch.changes.update(s) { change in performItems(command, in: s, &change) }
            } else {
                // A section new in this batch: placed whole, so nothing needs recording.
                var unrecorded = SectionChange(section: sections[s], metrics: .unplaced)
                performItems(command, in: s, &unrecorded)
            }
        case .moveItem(let from, let to):
            moveItem(from: from, to: to, &batch)
        case .insertSections(let at, let specs):
            let new = specs.map { spec in
                SectionState(properties: spec.properties, geometry: geometry(for: spec.properties), items: spec.items)
            }
            sections.insert(contentsOf: new, at: at)
            metrics.insert(contentsOf: repeatElement(.unplaced, count: specs.count), at: at)
            batch.oldIndex.insertNew(count: specs.count, at: at)
            batch.changes.insertNone(count: specs.count, at: at)
        case .deleteSections(let indices):
            let sorted = Set(indices).sorted()
            sections.remove(sortedIndices: sorted)
            metrics.remove(sortedIndices: sorted)
            batch.oldIndex.remove(sortedIndices: sorted)
            batch.changes.remove(sortedIndices: sorted)
        case .moveSection(let from, let to):
            sections.move(from: from, to: to)
            metrics.move(from: from, to: to)
            batch.oldIndex.move(from: from, to: to)
            batch.changes.move(from: from, to: to)
        case .configureSection(let s, let patch):
            touch(s, &batch)
            settleColumns(ofSection: s, before: 0, &batch)
            let old = sections[s].geometry
            // Validated by the shape already, so this cannot throw.
            sections[s].properties =
                (try? sections[s].properties.applying(patch, limits: limits))
                ?? sections[s].properties
            sections[s].geometry = geometry(for: sections[s].properties)
            resetColumnsIfNeeded(ofSection: s, from: old, &batch)
        case .configureLayout(let patch):
            configure(patch, &batch)
        }
    }

    /// Performs an item command (insert, delete or update) on section `s` and records it in `change`.
    mutating func performItems(_ command: LayoutCommand, in s: Int, _ change: inout SectionChange) {
        switch command {
        case .insertItems(_, let at, let items):
            Self.settleColumns(&sections[s], before: at, &change)
            sections[s].insertItems(items, at: at)
            change.recordInsert(at: at, count: items.count)
            sections[s].notePending(at..<(at + items.count))
        case .deleteItems(_, let indices):
            let ranges = Self.ranges(ofSorted: Array(Set(indices)).sorted())
            if let first = ranges.first { Self.settleColumns(&sections[s], before: first.lowerBound, &change) }
            sections[s].removeItems(ranges)
            change.recordRemoval(ranges)
        case .updateItems(_, let updates):
            if let first = updates.lazy.map(\.index).min() { Self.settleColumns(&sections[s], before: first, &change) }
            let stable = sections[s].geometry.reflow == .stable
            let c = sections[s].geometry.columnCount
            // By index: iterating copied each update (a retain and a release of its item's strings).
            for u in updates.indices {
                let index = updates[u].index
                let previous = sections[s].inputs[index]
                var input = ItemInput(updates[u].item, transposed: sections[s].geometry.transposesAspect)
                // Until it is placed again, the item's old column stays with it, for the diff to compare against
                // (`previous` keeps it when a stable section's item is given a new one); a stable item keeps its
                // column unless the update names one.
                if !stable || updates[u].item.column == nil {
                    input.column = previous.column
                    input.needsColumn = previous.needsColumn
                }
                // The column a stable item keeps is the start it was last placed at, `min(col, c − span)`. An input
                // that an earlier command of this change gave (another span, a named column) is not placed yet:
                // its start is taken now, as placing the commands one at a time would have.
                if stable && updates[u].item.column == nil && !previous.needsColumn {
                    input.column = UInt16(truncatingIfNeeded: min(Int(previous.column), c - previous.span(in: c)))
                }
                sections[s].inputs[index] = input
                sections[s].setID(updates[u].item.id, at: index)
                change.recordUpdate(at: index, previous: previous)
            }
        default:
            // Callers pass item commands only; another is skipped rather than trapping on a bug.
            assertionFailure("not an item command: \(command)")
        }
    }

    /// The resolved geometry of a section with `properties` under the current settings.
    ///
    /// A horizontal layout is placed as its vertical form: left to right across its rows whatever the direction
    /// (`rtl` reverses its feed, on screen), with aspect sizes stored transposed.
    func geometry(for properties: SectionProperties) -> SectionGeometry {
        var geometry = SectionGeometry(
            own: properties, defaults: defaults, width: width, scale: scale,
            direction: axis == .horizontal ? .ltr : direction, columnLimit: limits.maxColumns)
        geometry.transposesAspect = axis == .horizontal
        return geometry
    }

    // MARK: Private

    /// Starts recording the changes of section `s` if it existed before the batch.
    private mutating func touch(_ s: Int, _ batch: inout Batch) {
        let old = batch.oldIndex[s]
        if old >= 0 && !batch.changes.has(s) {
            batch.changes.start(s, SectionChange(section: sections[s], metrics: metrics[s]))
        }
    }

    private mutating func moveItem(from: ItemPath, to: ItemPath, _ batch: inout Batch) {
        touch(from.section, &batch)
        touch(to.section, &batch)
        let id = sections[from.section].id(at: from.item)
        let oldStart =
            from.section == to.section ? (batch.changes[from.section]?.map.oldIndex(of: from.item) ?? -1) : -1
        let range = from.item..<(from.item + 1)
        settleColumns(ofSection: from.section, before: from.item, &batch)
        settleColumns(ofSection: to.section, before: to.item, &batch)
        var input = sections[from.section].inputs[from.item]
        // An item moved to another section is new there: a stable section gives it a column as to an insert.
        if from.section != to.section { input.needsColumn = true }
        sections[from.section].removeItems([range])
        batch.changes.update(from.section) { $0.recordRemoval([range]) }
        sections[to.section].insertInputs([input], ids: [id], at: to.item)
        batch.changes.update(to.section) { $0.recordInsert(at: to.item, count: 1, oldStart: oldStart) }
        if from.section != to.section { sections[to.section].notePending(to.item..<(to.item + 1)) }
    }

    private mutating func configure(_ patch: LayoutPatch, _ batch: inout Batch) {
        let screenBefore = screen
        width = patch.width ?? width
        scale = patch.scale ?? scale
        direction = patch.direction ?? direction
        axis = patch.axis ?? axis
        if screen != screenBefore { batch.screenChanged = true }
        minContentHeight = patch.minContentHeight ?? minContentHeight
        defaults = patch.defaults ?? defaults
        for s in sections.indices {
            let updated = geometry(for: sections[s].properties)
            guard updated != sections[s].geometry else { continue }
            touch(s, &batch)
            settleColumns(ofSection: s, before: 0, &batch)
            let old = sections[s].geometry
            // A new axis swaps the stored aspect sizes; the section is placed whole (its geometry changed), and
            // the diff compares with the heights it had.
            if old.transposesAspect != updated.transposesAspect {
                sections[s].inputs.withUnsafeMutableBufferPointer { inputs in
                    for k in inputs.indices { inputs[k].transposeAspect() }
                }
            }
            sections[s].geometry = updated
            resetColumnsIfNeeded(ofSection: s, from: old, &batch)
        }
    }

    /// Groups sorted indices into maximal ranges of consecutive ones.
    private static func ranges(ofSorted indices: [Int]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for index in indices {
            if let last = result.last, last.upperBound == index {
                result[result.count - 1] = last.lowerBound..<(index + 1)
            } else {
                result.append(index..<(index + 1))
            }
        }
        return result
    }
}

extension SectionState {
    mutating func insertInputs(_ new: [ItemInput], ids newIDs: [String?], at index: Int) {
        inputs.insert(contentsOf: new, at: index)
        if !ids.isEmpty {
            ids.insert(contentsOf: newIDs, at: index)
        } else if newIDs.contains(where: { $0 != nil }) {
            ids = ContiguousArray(repeating: nil, count: inputs.count)
            ids.replaceSubrange(index..<(index + newIDs.count), with: newIDs)
        }
    }

    /// Inserts `items` at `index`, making their id list only when the section has ids or they bring some.
    mutating func insertItems(_ items: ItemList, at index: Int) {
        if let heights = items.heights, ids.isEmpty {
            insertHeights(heights, at: index)
            return
        }
        let items = items.array
        let needsIDs = !ids.isEmpty || items.contains { $0.id != nil }
        let transposed = geometry.transposesAspect
        if index == inputs.count && !needsIDs {
            appendInputs(items) { ItemInput($0, transposed: transposed) }
            return
        }
        insertInputs(
            items.map { ItemInput($0, transposed: transposed) }, ids: needsIDs ? items.map(\.id) : [], at: index)
    }

    /// Inserts items that are only `heights` at `index`, in a section without ids: a bulk load's usual items, which
    /// need no `Item` made on the way, no id list and no transposing.
    private mutating func insertHeights(_ heights: [Double], at index: Int) {
        guard index == inputs.count else {
            inputs.insert(contentsOf: heights.lazy.map { ItemInput(height: $0) }, at: index)
            return
        }
        appendInputs(heights) { ItemInput(height: $0) }
    }

    /// Appends the inputs of `source` one at a time into room made first: `append(contentsOf:)` of a lazy map goes
    /// element by element through the generic sequence copy, which is slow for a bulk insert, and filling the room
    /// with blanks to overwrite them would write each element twice.
    @inline(__always)
    private mutating func appendInputs<Source: Collection>(_ source: Source, _ input: (Source.Element) -> ItemInput) {
        inputs.reserveForAppend(source.count)
        for element in source { inputs.append(input(element)) }
    }

    /// Removes the items in `ranges` (ascending, disjoint) in one pass.
    mutating func removeItems(_ ranges: [Range<Int>]) {
        inputs.remove(ranges)
        if !ids.isEmpty { ids.remove(ranges) }
    }
}

extension Array {
    /// Moves the element at `from` to `to`, an index among the others.
    mutating func move(from: Int, to: Int) {
        insert(remove(at: from), at: to)
    }

    /// Removes the elements at `indices` (ascending, distinct) in one pass.
    ///
    /// - Complexity: O(n), where removing them one by one would be O(n × indices).
    mutating func remove(sortedIndices indices: [Int]) {
        guard let first = indices.first else { return }
        var write = first
        var next = 0
        for read in first..<count {
            if next < indices.count && indices[next] == read {
                next += 1
                continue
            }
            swapAt(write, read)
            write += 1
        }
        removeSubrange(write..<count)
    }
}

extension ContiguousArray {
    /// Removes the elements in `ranges` (ascending, disjoint), moving each kept element once.
    ///
    /// - Complexity: O(n) however many ranges, where removing them one by one would be O(n × ranges).
    mutating func remove(_ ranges: [Range<Int>]) {
        guard let first = ranges.first else { return }
        guard ranges.count > 1 else { return removeSubrange(first) }
        var write = first.lowerBound
        for (k, range) in ranges.enumerated() {
            let keptEnd = k + 1 < ranges.count ? ranges[k + 1].lowerBound : count
            for read in range.upperBound..<keptEnd {
                swapAt(write, read)
                write += 1
            }
        }
        removeSubrange(write..<count)
    }
}
