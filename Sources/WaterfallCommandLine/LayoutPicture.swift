import WaterfallClient
import WaterfallLayout

/// What `render` draws: a layout's frames, its column lanes and where they came from. Built by the command from
/// the daemon's replies, or by tests from an engine layout; the renderer needs nothing else.
package struct LayoutPicture: Sendable, Hashable {
    /// Where the lanes came from, said in the SVG's comment.
    package enum LaneSource: String, Sendable, Hashable {
        /// The layout's inputs (`layout.export`) laid out by the engine: exact.
        case export = "lanes from layout.export"
        /// The x and width of single-column items: a column with no such item is missing.
        case inferred = "lanes inferred from the frames of single-column items"
    }

    package var name: String
    package var seq: Int
    package var contentSize: Size
    package var sections: [FrameModel.Section]
    /// Each section's column lanes, in absolute coordinates.
    package var lanes: [[Rect]]
    package var laneSource: LaneSource
    /// The index of `sections[0]`: a window of a large layout holds only the sections it shows.
    package var firstSection = 0
    /// The layout's item count when `sections` are only some of its sections.
    package var totalItems: Int?
    /// Whether the layout is a horizontal feed: its sections are bands along x (Geometry, "Horizontal feeds").
    package var alongX = false

    package init(
        name: String, seq: Int, contentSize: Size, sections: [FrameModel.Section], lanes: [[Rect]],
        laneSource: LaneSource
    ) {
        self.name = name
        self.seq = seq
        self.contentSize = contentSize
        self.sections = sections
        self.lanes = lanes
        self.laneSource = laneSource
    }

    /// A picture of `model` with lanes inferred from its frames.
    package init(name: String, model: FrameModel) {
        self.init(
            name: name, seq: model.seq, contentSize: model.contentSize, sections: model.sections,
            lanes: model.sections.map(Self.inferredLanes), laneSource: .inferred)
    }

    /// The lanes a section's single-column items show: items of the narrowest width are one column wide, and
    /// each distinct x of theirs is a column; the lanes run from the top of the section's items to their bottom.
    ///
    /// - Complexity: O(n log n) in the section's items.
    package static func inferredLanes(of section: FrameModel.Section) -> [Rect] {
        let frames = section.items.compactMap { $0?.frame }.filter { $0.width > 0 }
        guard let narrowest = frames.map(\.width).min(), let top = frames.map(\.y).min(),
            let bottom = frames.map(\.maxY).max()
        else { return [] }
        // Column widths are equal, so narrowest-width items differ from it at most by rounding.
        let xs = Set(frames.filter { abs($0.width - narrowest) <= 1e-6 * max(1, narrowest) }.map(\.x))
        return xs.sorted().map { Rect(x: $0, y: top, width: narrowest, height: bottom - top) }
    }

    /// The number of items in the layout.
    package var itemCount: Int { totalItems ?? sections.reduce(0) { $0 + $1.items.count } }
}
