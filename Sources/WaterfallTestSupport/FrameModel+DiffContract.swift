import WaterfallClient
import WaterfallLayout

/// The client library's model as the tests use it: built from an engine layout, and applying a diff only after
/// checking that it is no larger than the Diffs article allows, so every diff the tests replay checks both the
/// engine's diff and the client's model.
extension FrameModel {
    /// The frames of every section of `layout` (flow coordinates), with its seq and content size.
    package init(_ layout: Layout) {
        self.init(
            seq: layout.seq, contentSize: layout.contentSize,
            sections: (0..<layout.sectionCount).map { s in
                let f = layout.frames(ofSection: s)
                return Section(
                    origin: f.origin, height: f.height, header: f.header, footer: f.footer, pinMaxY: f.pinMaxY,
                    items: f.items.map { Item(frame: $0.frame, id: $0.id) })
            })
    }

    /// Replays `commands` on the indices, then applies their diff.
    ///
    /// Throws, before applying the diff, when it is larger than the Diffs article allows: a listed section that
    /// could have been a shift (or that changed in nothing but its item count is listed rightly; a section whose old
    /// origin plus `dy` is not its new origin to the last bit must be listed), a shift that overlaps a listed section
    /// or another shift, or two adjacent shifts with the same `dy` (runs are maximal).
    /// `screen` is the layout's after the change: under a horizontal rtl one a section is listed, not shifted, where
    /// its start on screen, −(origin + height), moved by −dy misses the new one in the last bit.
    package mutating func apply(
        _ diff: LayoutDiff, replaying commands: [LayoutCommand], screen: ScreenMapping = .identity
    ) throws(WireFormatError) {
        let recounted = try replayCountingItems(commands)
        try check(diff, recounted: recounted, screen: screen)
        do {
            try apply(diff)
        } catch {
            throw WireFormatError("\(error)")
        }
    }

    // MARK: Private

    /// Replays `commands`; for each section after them, whether a command changed its item count.
    private mutating func replayCountingItems(_ commands: [LayoutCommand]) throws(WireFormatError) -> [Bool] {
        var recounted = Array(repeating: false, count: sections.count)
        for command in commands {
            do {
                try replay([command])
            } catch {
                throw WireFormatError("\(error)")
            }
            // The replay checked the indices, so following it here cannot go out of range.
            switch command {
            case .insertItems(let s, _, _), .deleteItems(let s, _):
                recounted[s] = true
            case .moveItem(let from, let to) where from.section != to.section:
                recounted[from.section] = true
                recounted[to.section] = true
            case .insertSections(let at, let new):
                recounted.insert(contentsOf: repeatElement(false, count: new.count), at: at)
            case .deleteSections(let indices):
                for s in indices.sorted(by: >) { recounted.remove(at: s) }
            case .moveSection(let from, let to):
                recounted.insert(recounted.remove(at: from), at: to)
            case .moveItem, .updateItems, .configureSection, .configureLayout:
                break
            }
        }
        return recounted
    }

    /// Refuses a diff that lists what it need not (see `apply(_:replaying:screen:)`), given the frames held after
    /// the replay.
    private func check(_ diff: LayoutDiff, recounted: [Bool], screen: ScreenMapping) throws(WireFormatError) {
        var listed = Set<Int>()
        for entry in diff.sections {
            listed.insert(entry.section)
            guard !entry.isNew, entry.items.isEmpty, entry.header == .unchanged, entry.footer == .unchanged,
                sections.indices.contains(entry.section)
            else { continue }
            let held = sections[entry.section]
            // Listed for its origin alone is right only where old origin + dy misses the new one in the last bit.
            if entry.height == held.height && !recounted[entry.section] && held.origin + entry.dy == entry.origin
                && screen.start(held.origin, extent: held.height) + screen.delta(entry.dy)
                    == screen.start(entry.origin, extent: entry.height)
            {
                throw WireFormatError(
                    "section \(entry.section) is listed but only moved (dy \(entry.dy), from \(held.origin) to "
                        + "\(entry.origin), height \(entry.height), count \(entry.count)): a shift")
            }
        }
        var previous: SectionShift?
        for shift in diff.shifts {
            guard shift.from <= shift.to, shift.dy != 0, sections.indices.contains(shift.from),
                sections.indices.contains(shift.to)
            else { throw WireFormatError("shift \(shift) is empty, of dy 0 or out of range") }
            if let previous {
                guard previous.to < shift.from else { throw WireFormatError("shifts \(previous), \(shift) overlap") }
                guard previous.to + 1 < shift.from || previous.dy != shift.dy else {
                    throw WireFormatError("shifts \(previous), \(shift) are one run")
                }
            }
            if let s = (shift.from...shift.to).first(where: listed.contains) {
                throw WireFormatError("section \(s) is both listed and in shift \(shift)")
            }
            previous = shift
        }
    }
}
