import Testing

@testable import WaterfallLayout
@testable import WaterfallModel

/// The large entry buffer of a bulk placement goes back to a spare shared by every layout, and the next bulk
/// placement, of any layout, takes it again instead of mapping its own.
// The spare is shared by the whole process, so this runs serially, apart from the unit tests (see .ci/run).
@Suite(.serialized) struct PlacementScratchTests {
    @Test func bulkInsertsTakeTurnsWithASharedEntryBuffer() async throws {
        var first = try await build(spec(width: 320, SectionProperties(columns: 3), heights: []))
        var second = first
        _ = try await first.validateAndApply([.insertItems(section: 0, at: 0, items: plainItems(heights(5_000)))])
        let kept = PlacementScratch.spareEntryCount
        #expect((1...PlacementScratch.sharedSpares).contains(kept))
        for k in 1...4 {
            _ = try await first.validateAndApply([
                .insertItems(section: 0, at: 5_000 * k, items: plainItems(heights(5_000)))
            ])
            _ = try await second.validateAndApply([
                .insertItems(section: 0, at: 5_000 * (k - 1), items: plainItems(heights(5_000)))
            ])
            #expect(PlacementScratch.spareEntryCount == kept)
        }
        // Placed as without the shared buffer: the same frames as a layout built whole.
        #expect(first.frames(ofSection: 0) == (try await build(first.currentSpec)).frames(ofSection: 0))
        #expect(second.frames(ofSection: 0) == (try await build(second.currentSpec)).frames(ofSection: 0))
    }

    /// A change to one section gives its list of re-placed items back to the layout's scratch once its diff is
    /// built: the next change fills the same buffer, and its diff lists what it changed as a new buffer would.
    @Test func changesToOneSectionReuseTheirListOfReplacedItems() async throws {
        var layout = try await build(spec(width: 320, SectionProperties(columns: 3), heights: heights(40)))
        // The last item, updated in place; then one in the middle, which re-places a run after it.
        for (index, height) in [(39, 55.0), (39, 60), (39, 65), (3, 500), (3, 20)] {
            let diff = try await layout.validateAndApply([
                .updateItems(section: 0, updates: [ItemUpdate(index: index, item: Item(height: height))])
            ])
            let listed = diff.sections.first?.items ?? []
            #expect(listed.first?.index == index)
            #expect(listed.first?.frame.height == height)
            #expect((layout.scratch?.listed.capacity ?? 0) >= listed.count)
        }
        #expect(layout.frames(ofSection: 0) == (try await build(layout.currentSpec)).frames(ofSection: 0))
    }

    private func heights(_ count: Int) -> [Double] { (0..<count).map { Double($0 * 37 % 101 + 10) } }
}
