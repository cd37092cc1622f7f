import Testing
import WaterfallLayout

/// An insert's items read the same whether they are held as `Item`s or as bare heights.
struct ItemListTests {
    @Test func bareHeightsReadAsPlainItems() {
        let list = ItemList(heights: [10, 0, 2.5])
        #expect(list.count == 3)
        #expect(Array(list) == [Item(height: 10), Item(height: 0), Item(height: 2.5)])
        #expect(list.array == [Item(height: 10), Item(height: 0), Item(height: 2.5)])
        #expect(list.heights == [10, 0, 2.5])
        #expect(!list.hasAspectItems)
        #expect(ItemList([Item(height: 10)]).heights == nil)
        #expect(ItemList([Item(height: 10, aspectWidth: 2)]).hasAspectItems)
    }

    @Test func listsOfTheSameItemsAreEqualHoweverHeld() {
        let bare = ItemList(heights: [10, 20])
        let items: ItemList = [Item(height: 10), Item(height: 20)]
        #expect(bare == items)
        #expect(items == bare)
        #expect(bare.hashValue == items.hashValue)
        #expect(Set([bare, items]).count == 1)
        #expect(bare != ItemList([Item(height: 10), Item(height: 20, id: "b")]))
        #expect(bare != ItemList(heights: [10]))
        #expect(ItemList(heights: []) == ItemList([]))
    }

    @Test func aLayoutTakesEitherFormAlike() async throws {
        let heights: [Double] = [30, 10, 50, 20, 40, 0, 70]
        var bare = try await build(spec(width: 320, SectionProperties(columns: 3), heights: [5, 15]))
        var items = bare
        let fromBare = try await bare.validateAndApply([.insertItems(section: 0, at: 1, items: plainItems(heights))])
        let fromItems = try await items.validateAndApply([
            .insertItems(section: 0, at: 1, items: ItemList(self.items(heights)))
        ])
        #expect(fromBare == fromItems)
        #expect(bare.frames(ofSection: 0) == items.frames(ofSection: 0))
        _ = try await bare.validateAndApply([.insertItems(section: 0, at: 9, items: plainItems([12, 13]))])
        _ = try await items.validateAndApply([.insertItems(section: 0, at: 9, items: ItemList(self.items([12, 13])))])
        #expect(bare.frames(ofSection: 0) == items.frames(ofSection: 0))
    }

    @Test func bareHeightsJoinASectionWithIds() async throws {
        var layout = try await build(spec(width: 320, SectionProperties(columns: 2), heights: [5]))
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 1, items: [Item(height: 8, id: "a")])])
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 1, items: plainItems([1, 2]))])
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 4, items: plainItems([3]))])
        #expect(layout.items(inSection: 0).map(\.id) == [nil, nil, nil, "a", nil])
        #expect(layout.items(inSection: 0).map(\.height) == [5, 1, 2, 8, 3])
    }

    /// A layout gives its items back as bare heights only where they are nothing more.
    @Test func heightsAreReadBackOnlyForPlainItems() async throws {
        var layout = try await build(spec(width: 320, SectionProperties(columns: 2), heights: [5, 6, 7, 8]))
        var heights: [Double] = []
        #expect(layout.heights(inSection: 0, in: 1..<4, into: &heights))
        #expect(heights == [6, 7, 8])
        _ = try await layout.validateAndApply([
            .insertItems(section: 0, at: 4, items: [Item(height: 3, aspectWidth: 4)])
        ])
        #expect(!layout.heights(inSection: 0, in: 0..<5, into: &heights))
        #expect(layout.heights(inSection: 0, in: 0..<4, into: &heights))
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 0, items: [Item(height: 1, id: "a")])])
        #expect(!layout.heights(inSection: 0, in: 1..<2, into: &heights))
        var stable = SectionProperties(columns: 2)
        stable.reflow = .stable
        let kept = try await build(spec(width: 320, stable, heights: [5, 6]))
        #expect(!kept.heights(inSection: 0, in: 0..<2, into: &heights))
        var read: [Item] = []
        layout.forEachItem(inSection: 0, in: 2..<5) { read.append($0) }
        #expect(read == [Item(height: 6), Item(height: 7), Item(height: 8)])
    }

    private func items(_ heights: [Double]) -> [Item] { heights.map { Item(height: $0) } }
}
