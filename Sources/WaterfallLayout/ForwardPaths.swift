import WaterfallModel

/// Where each section and item before a list of commands is after them, followed once for the whole list, so that
/// finding where many paths went costs a lookup each (`ItemPath.following` follows one path through every command).
///
/// Each sequence (the sections, and the items of each section an item command touched) is kept as runs of elements
/// that were consecutive before the commands, or are new; a command splits, drops or inserts a few runs. The
/// sequences before the commands are taken as unbounded identities, so nothing needs the layout's counts.
///
/// - Complexity: O(Σ over commands of (runs + the command's indices × log)) to build, runs being at most the size of
///   the commands so far; O(log runs) per lookup.
struct ForwardPaths {
    // MARK: Lifecycle

    /// Follows `commands`, which applied in order (validated: their indices were in range and distinct).
    init(_ commands: [LayoutCommand]) {
        var sections = Runs(Run(count: Self.unbounded, section: 0, start: 0))
        var items: [Int: Runs] = [:]
        var newSections = Self.firstNewSection
        /// The items of the section that is at `s` now, by its identity.
        func itemRuns(_ s: Int) -> (identity: Int, runs: Runs) {
            let identity = sections.identity(at: s)
            return (
                identity,
                items.removeValue(forKey: identity) ?? Runs(Run(count: Self.unbounded, section: identity, start: 0))
            )
        }
        for command in commands {
            switch command {
            case .insertItems(let s, let at, let list):
                var (identity, runs) = itemRuns(s)
                runs.insert(Run(count: list.count, section: Self.new, start: 0), at: at)
                items[identity] = runs
            case .deleteItems(let s, let indices):
                var (identity, runs) = itemRuns(s)
                runs.remove(Self.ranges(indices))
                items[identity] = runs
            case .moveItem(let from, let to):
                var (source, sourceRuns) = itemRuns(from.section)
                let moved = sourceRuns.take(at: from.item)
                items[source] = sourceRuns
                var (target, targetRuns) = itemRuns(to.section)
                targetRuns.insert(moved, at: to.item)
                items[target] = targetRuns
            case .insertSections(let at, let specs):
                for (k, spec) in specs.enumerated() {
                    items[newSections + k] = Runs(Run(count: spec.items.count, section: Self.new, start: 0))
                }
                sections.insert(Run(count: specs.count, section: 0, start: newSections), at: at)
                newSections += specs.count
            case .deleteSections(let indices):
                sections.remove(Self.ranges(indices))
            case .moveSection(let from, let to):
                let moved = sections.take(at: from)
                sections.insert(moved, at: to)
            case .updateItems, .configureSection, .configureLayout:
                break
            }
        }
        var sectionSpans: [Span] = []
        sections.forEachRun { run, at in
            sectionSpans.append(
                Span(section: 0, start: run.start, count: run.count, to: ItemPath(section: 0, item: at)))
        }
        sectionSpans.sort { $0.start < $1.start }
        self.sectionSpans = sectionSpans
        var itemSpans: [Span] = []
        var touched: Set<Int> = []
        for (identity, runs) in items {
            if identity < Self.firstNewSection { touched.insert(identity) }
            guard let s = Self.lookUp(sectionSpans, section: 0, start: identity)?.item else { continue }
            runs.forEachRun { run, at in
                guard run.section != Self.new else { return }
                itemSpans.append(
                    Span(section: run.section, start: run.start, count: run.count, to: ItemPath(section: s, item: at)))
            }
        }
        itemSpans.sort { ($0.section, $0.start) < ($1.section, $1.start) }
        self.itemSpans = itemSpans
        self.touched = touched
        sectionsAfter = sections
        itemsAfter = items
    }

    // MARK: Internal

    /// Where section `s` (an index before the commands) is after them; nil once one deletes it.
    func section(after s: Int) -> Int? {
        Self.lookUp(sectionSpans, section: 0, start: s)?.item
    }

    /// Where the item at `path` (before the commands) is after them; nil once one deletes it or its section.
    func path(after path: ItemPath) -> ItemPath? {
        guard touched.contains(path.section) else {
            return section(after: path.section).map { ItemPath(section: $0, item: path.item) }
        }
        return Self.lookUp(itemSpans, section: path.section, start: path.item)
    }

    /// Where the first `count` items of section `s` (an index after the commands) were before them, in runs: calls
    /// `body` with each run's first index after, its length, and the old path of its first item (nil for items that
    /// were not in the layout).
    ///
    /// - Complexity: O(runs of sections + runs of the section's items).
    func forEachSource(ofSection s: Int, count: Int, _ body: (_ at: Int, _ count: Int, _ from: ItemPath?) -> Void) {
        let identity = sectionsAfter.identity(at: s)
        let untouched = identity < Self.firstNewSection ? identity : Self.new
        let runs = itemsAfter[identity] ?? Runs(Run(count: Self.unbounded, section: untouched, start: 0))
        runs.forEachRun { run, at in
            guard at < count else { return }
            let from = run.section == Self.new ? nil : ItemPath(section: run.section, item: run.start)
            body(at, min(run.count, count - at), from)
        }
    }

    /// The items of section `s` (an index before the commands) that the commands move to another section, each
    /// with its place after them (all that are left of it when they delete the section).
    ///
    /// - Complexity: O(log spans + the section's spans).
    func itemsLeaving(section s: Int) -> [(item: Int, to: ItemPath)] {
        guard touched.contains(s) else { return [] }
        let home = section(after: s)
        var low = 0
        var high = itemSpans.count
        while low < high {
            let mid = (low + high) / 2
            if itemSpans[mid].section < s { low = mid + 1 } else { high = mid }
        }
        var leaving: [(item: Int, to: ItemPath)] = []
        while low < itemSpans.count && itemSpans[low].section == s {
            let span = itemSpans[low]
            // Only a moved item changes section, and a move takes one item: such a span is short.
            if span.to.section != home {
                for k in 0..<span.count {
                    leaving.append((span.start + k, ItemPath(section: span.to.section, item: span.to.item + k)))
                }
            }
            low += 1
        }
        return leaving
    }

    // MARK: Private

    /// Consecutive elements of a sequence: items `start ..< start + count` of old section `section` (`new`: items
    /// that were not in the layout), or sections `start ..< start + count` (identities: old indices, or those
    /// given to inserted sections from `firstNewSection` on).
    private struct Run {
        var count: Int
        var section: Int
        var start: Int
    }

    /// Old elements `start ..< start + count` (of old section `section`, for items) and where the first is after
    /// (for sections, its index is `to.item`).
    private struct Span {
        var section: Int
        var start: Int
        var count: Int
        var to: ItemPath
    }

    /// A sequence as runs, each edit a pass over them.
    private struct Runs {
        private var runs: [Run]

        init(_ run: Run) {
            runs = run.count > 0 ? [run] : []
        }

        /// The identity of the section at `index` (for the sequence of sections).
        func identity(at index: Int) -> Int {
            var position = 0
            for run in runs {
                if index < position + run.count { return run.start + (index - position) }
                position += run.count
            }
            assertionFailure("a section index past the sequence")
            return -1
        }

        /// Calls `body` with each run and the index of its first element.
        func forEachRun(_ body: (Run, Int) -> Void) {
            var position = 0
            for run in runs {
                body(run, position)
                position += run.count
            }
        }

        mutating func insert(_ run: Run, at index: Int) {
            guard run.count > 0 else { return }
            runs.insert(run, at: split(at: index))
        }

        /// Takes out the element at `index`, as a run of one.
        mutating func take(at index: Int) -> Run {
            let k = split(at: index)
            _ = split(at: index + 1)
            return runs.remove(at: k)
        }

        /// Drops the elements at `ranges` (ascending, disjoint), in one pass.
        mutating func remove(_ ranges: [Range<Int>]) {
            guard !ranges.isEmpty else { return }
            var kept: [Run] = []
            kept.reserveCapacity(runs.count + ranges.count)
            var next = 0
            var position = 0
            for run in runs {
                var offset = 0
                while offset < run.count {
                    let at = position + offset
                    while next < ranges.count && ranges[next].upperBound <= at { next += 1 }
                    if next < ranges.count && ranges[next].lowerBound <= at {
                        offset = min(run.count, ranges[next].upperBound - position)
                        continue
                    }
                    let end = next < ranges.count ? min(run.count, ranges[next].lowerBound - position) : run.count
                    kept.append(Run(count: end - offset, section: run.section, start: run.start + offset))
                    offset = end
                }
                position += run.count
            }
            runs = kept
        }

        /// Splits the run holding `index` so that a run starts there; returns that run's position in `runs`.
        private mutating func split(at index: Int) -> Int {
            var position = 0
            for k in runs.indices {
                let run = runs[k]
                if index == position { return k }
                if index < position + run.count {
                    let head = index - position
                    runs[k].count = head
                    runs.insert(Run(count: run.count - head, section: run.section, start: run.start + head), at: k + 1)
                    return k + 1
                }
                position += run.count
            }
            return runs.count
        }
    }

    /// The length of an untouched sequence: longer than any, so that no count is needed.
    private static let unbounded = Int.max / 4
    /// The `section` of new items.
    private static let new = -1
    /// The identity of the first section inserted: past any old index.
    private static let firstNewSection = Int.max / 2

    /// Sections after the commands, for each run of old sections (ascending identities).
    private let sectionSpans: [Span]
    /// Items after the commands, for each run of old items of the sections item commands touched, by old section
    /// and index.
    private let itemSpans: [Span]
    /// The old sections whose items an item command touched: the others keep their indices.
    private let touched: Set<Int>
    /// The sections after the commands, as runs of identities.
    private let sectionsAfter: Runs
    /// The items after the commands of each section an item command touched, by the section's identity.
    private let itemsAfter: [Int: Runs]

    /// Sorted, coalesced ranges of `indices`.
    private static func ranges(_ indices: [Int]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        for index in indices.sorted() {
            if let last = ranges.last, last.upperBound == index {
                ranges[ranges.count - 1] = last.lowerBound..<(index + 1)
            } else {
                ranges.append(index..<(index + 1))
            }
        }
        return ranges
    }

    /// Where the old element `start` of `section` is, from `spans` sorted by section and start; nil when none holds
    /// it.
    private static func lookUp(_ spans: [Span], section: Int, start: Int) -> ItemPath? {
        var low = 0
        var high = spans.count
        while low < high {
            let mid = (low + high) / 2
            if (spans[mid].section, spans[mid].start) <= (section, start) { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let span = spans[low - 1]
        guard span.section == section, start < span.start + span.count else { return nil }
        return ItemPath(section: span.to.section, item: span.to.item + (start - span.start))
    }
}
