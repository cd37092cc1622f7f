import Testing
import WaterfallTestSupport

@testable import WaterfallLayout
@testable import WaterfallModel

/// Scoped diffs against simpler computations on seeded random batches: `ForwardPaths` against following each path
/// through one command at a time, and a scoped diff against the plain diff of the same change filtered to the
/// viewport after it (equal for a viewport that covers the layout; contained in it otherwise).
@Suite struct ScopedDiffTests {
    @Test(arguments: 0..<48)
    func forwardPathsFollowEveryPathAsOneCommandAtATimeDoes(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed), maxItems: 30)
        var layout = try await Layout.make(random.layout()).layout
        for step in 0..<30 {
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            guard let change = Self.batch(&random, layout, counts: counts) else { continue }
            let paths = ForwardPaths(change.commands)
            // Where each item after the commands came from, and the items that left their section.
            var source: [ItemPath: ItemPath] = [:]
            for s in counts.indices {
                var section: Int? = s
                for command in change.commands {
                    section = section.flatMap(command.movedIndex(ofSection:))
                }
                #expect(paths.section(after: s) == section, "seed \(seed), step \(step): section \(s)")
                var leaving: [Int] = []
                for i in 0..<counts[s] {
                    let path = ItemPath(section: s, item: i)
                    let expected = path.following(change.commands)
                    #expect(
                        paths.path(after: path) == expected,
                        "seed \(seed), step \(step): \(path) through \(change.commands)")
                    if let expected {
                        source[expected] = path
                        if expected.section != section { leaving.append(i) }
                    }
                }
                #expect(
                    paths.itemsLeaving(section: s).map(\.item).sorted() == leaving,
                    "seed \(seed), step \(step): items leaving section \(s) through \(change.commands)")
            }
            _ = try await layout.apply(change)
            for s in 0..<layout.sectionCount {
                var found: [ItemPath?] = []
                paths.forEachSource(ofSection: s, count: layout.itemCount(inSection: s)) { at, count, from in
                    #expect(at == found.count, "seed \(seed), step \(step): runs of section \(s) out of order")
                    for k in 0..<count { found.append(from.map { ItemPath(section: $0.section, item: $0.item + k) }) }
                }
                let expected = (0..<layout.itemCount(inSection: s)).map { source[ItemPath(section: s, item: $0)] }
                #expect(found == expected, "seed \(seed), step \(step): sources of section \(s): \(change.commands)")
            }
        }
    }

    @Test(arguments: 0..<48)
    func aScopedDiffListsThePlainDiffInItsViewport(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(1000 + seed), maxItems: 40)
        var layout = try await Layout.make(random.layout()).layout
        for step in 0..<30 {
            let context = "seed \(seed), step \(step)"
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            guard let change = Self.batch(&random, layout, counts: counts, anchors: true) else { continue }
            let height = layout.contentSize.height
            let covering = random.chance(0.5)
            let viewport =
                covering
                ? Viewport(y: -1e7, height: 1e8)
                : Viewport(y: random.length(max(1, Int(height))), height: 1 + random.length(500))
            var plain = layout
            let full = try await plain.apply(change).diff
            let (scoped, _, after) = try await layout.applyScoped(change, viewport: viewport)
            let listed = Self.items(scoped)
            for (key, frame) in listed {
                let path = ItemPath(section: key.section, item: key.index)
                #expect(layout.frame(ofItem: path).frame == frame, "\(context): \(path) listed at another frame")
            }
            let inView = Self.items(full).filter { $0.value.y < after.rect.maxY && $0.value.maxY > after.rect.y }
            if covering {
                #expect(listed == Self.items(full), "\(context): \(change.commands)")
            } else {
                for (key, frame) in inView {
                    #expect(listed[key] == frame, "\(context): \(key) missing: \(change.commands)")
                }
            }
        }
    }

    @Test func removingSectionsSplitsEachShiftAroundThemInOnePass() {
        let shifts = [
            SectionShift(from: 1, to: 4, dy: 10), SectionShift(from: 6, to: 6, dy: 5),
            SectionShift(from: 8, to: 12, dy: -3),
        ]
        let kept = SectionShift.removing([0, 1, 3, 6, 9, 10, 12, 20], from: shifts)
        #expect(
            kept == [
                SectionShift(from: 2, to: 2, dy: 10), SectionShift(from: 4, to: 4, dy: 10),
                SectionShift(from: 8, to: 8, dy: -3), SectionShift(from: 11, to: 11, dy: -3),
            ])
    }

    // MARK: Private

    private struct Key: Hashable {
        var section: Int
        var index: Int
    }

    /// The item frames a diff lists, by section and index.
    private static func items(_ diff: LayoutDiff) -> [Key: Rect] {
        var items: [Key: Rect] = [:]
        for entry in diff.sections {
            for item in entry.items { items[Key(section: entry.section, index: item.index)] = item.frame }
        }
        return items
    }

    /// A valid batch of one to six random commands (no layout-wide configure, which maps every frame anew),
    /// with an anchor on a third of them when `anchors`; nil when the engine refuses it.
    private static func batch(
        _ random: inout RandomCommands, _ layout: Layout, counts: [Int], anchors: Bool = false
    ) -> ValidatedChange? {
        var shape = counts
        var commands: [LayoutCommand] = []
        for _ in 0..<random.int(1...6) {
            let command = random.command(counts: shape)
            if case .configureLayout = command { continue }
            commands.append(command)
            shape = Self.counts(shape, after: command)
        }
        let anchor = anchors && random.chance(0.3) && !counts.isEmpty ? random.anchor(counts: counts) : nil
        return try? layout.validate(commands, anchor: anchor)
    }

    /// Item counts by section after `command`, as far as the next random command needs them (an invalid command
    /// leaves them, and the batch is then refused).
    private static func counts(_ counts: [Int], after command: LayoutCommand) -> [Int] {
        var counts = counts
        switch command {
        case .insertItems(let s, _, let items) where s < counts.count:
            counts[s] += items.count
        case .deleteItems(let s, let indices) where s < counts.count:
            counts[s] = max(0, counts[s] - Set(indices).count)
        case .moveItem(let from, let to) where from.section < counts.count && to.section < counts.count:
            counts[from.section] -= 1
            counts[to.section] += 1
        case .insertSections(let at, let sections) where at <= counts.count:
            counts.insert(contentsOf: sections.map(\.items.count), at: at)
        case .deleteSections(let indices):
            for s in Set(indices).sorted(by: >) where s < counts.count { counts.remove(at: s) }
        case .moveSection(let from, let to) where from < counts.count && to < counts.count:
            counts.insert(counts.remove(at: from), at: to)
        default:
            break
        }
        return counts
    }
}
