import WaterfallLayout

/// The long feed of the benchmark's wire and viewport scenarios, and of the tests that check what
/// those scenarios measure: `count` real-valued heights, uniform in [20, 400) from mulberry32(42), in the one section
/// of layout `bulk`, 1000 points wide in 3 columns.
package struct BulkFeed: Sendable {
    /// The layout's name.
    package static let name = "bulk"

    package let heights: [Double]

    // MARK: Lifecycle

    package init(count: Int) {
        var random = Mulberry32(seed: 42)
        heights = (0..<count).map { _ in 20 + 380 * random.next() }
    }

    // MARK: Package

    /// The heights as items: each `{"h": …}` written as JavaScript's `JSON.stringify` writes it (the shortest text
    /// that reads back, 17 significant digits for most), and the same rounded down to integers.
    package var itemTexts: (real: [String], integral: [String]) {
        (heights.map { "{\"h\":\($0)}" }, heights.map { "{\"h\":\(Int($0))}" })
    }

    /// `layout.create` of the empty feed (over any layout of that name), without its diff.
    package static let createLine =
        #"{"id":1,"method":"layout.create","params":{"layout":"bulk","width":1000,"replace":true,"#
        + #""defaults":{"columns":3},"sections":[{}],"diff":false}}"#

    /// `items.insert` requests into section 0 of layout `bulk`, `perInsert` item texts each, appended in turn.
    package static func insertLines(_ items: [String], _ perInsert: Int) -> [String] {
        stride(from: 0, to: items.count, by: perInsert).map { start in
            let chunk = items[start..<min(items.count, start + perInsert)].joined(separator: ",")
            return #"{"id":\#(start),"method":"items.insert","params":{"layout":"bulk","section":0,"at":\#(start),"#
                + #""items":[\#(chunk)],"diff":false}}"#
        }
    }

    /// The feed's inputs, as `createLine` and the real-valued inserts make them.
    package var spec: LayoutSpec {
        LayoutSpec(
            width: 1000, defaults: SectionProperties(columns: 3),
            sections: [SectionSpec(items: heights.map { Item(height: $0) })])
    }

    /// A viewport `height` points high centred on item `index`'s frame, as the engine places the feed (the daemon's
    /// placement of the same inputs).
    ///
    /// Not half-way down the content: the heights being random, the middle item of a long feed can sit thousands of
    /// points away from there, so a viewport centred on the middle may hold none of what the change moved, and its
    /// reply would list no frame.
    package func viewport(around index: Int, height: Double = 1000) async throws -> Viewport {
        let layout = try await Layout.make(spec).layout
        let frame = layout.frame(ofItem: ItemPath(section: 0, item: index)).frame
        return Viewport(y: frame.y + frame.height / 2 - height / 2, height: height)
    }
}

/// mulberry32, the small generator JavaScript benchmarks use: the same seed gives the same heights as a browser
/// test of masonic would.
package struct Mulberry32: Sendable {
    private var state: UInt32

    package init(seed: UInt32) {
        state = seed
    }

    /// A double in [0, 1).
    package mutating func next() -> Double {
        state &+= 0x6D2B_79F5
        var t = state
        t = (t ^ (t >> 15)) &* (t | 1)
        t ^= t &+ ((t ^ (t >> 7)) &* (t | 61))
        return Double(t ^ (t >> 14)) / 4_294_967_296
    }
}
