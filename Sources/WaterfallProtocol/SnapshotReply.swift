@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

/// A `layout.get` or `query` reply, written a piece at a time from an immutable copy of the layout.
///
/// `Layout` is a value with copy-on-write storage: the copy this holds costs nothing until the layout's next change,
/// and then only the arrays that change are copied. So a reply of any size costs the chunk being written and what
/// the socket has not taken yet, never the whole reply (48 MB for a million items), and the layout's actor is free
/// while the reply is written.
package struct SnapshotReply: ChunkedReply {
    // MARK: Lifecycle

    /// The `layout.get` reply listing `sections` (nil: all), after checking that each exists.
    package init(id: RequestID, layout: Layout, sections: [Int]?) throws(ProtocolError) {
        let listed = sections ?? Array(0..<layout.sectionCount)
        for (k, s) in listed.enumerated() where s < 0 || s >= layout.sectionCount {
            throw ProtocolError(
                .notFound, "params.sections[\(k)]: \(s) is not a section (there are \(layout.sectionCount))")
        }
        self.id = id
        self.layout = layout
        self.listing = .sections(listed)
    }

    /// The `query` reply listing the elements in `rect`, in `order`: document order is written as it is found, a
    /// section at a time; reading order needs them all first, to sort them (Geometry, "Reading order"). `rect` and
    /// the frames written are on screen (a horizontal layout's are transposed).
    package init(id: RequestID, layout: Layout, query screenRect: Rect, order: ElementOrder = .document) {
        self.id = id
        self.layout = layout
        let rect = layout.screen.flowRect(screenRect)
        switch order {
        case .document: self.listing = .elements(rect, layout.sections(crossing: rect))
        case .reading: self.listing = .ordered(layout.elements(in: rect, order: .reading))
        }
    }

    /// A reply listing `elements`, given in flow terms, in their order (`items.get`).
    package init(id: RequestID, layout: Layout, listing elements: [Element]) {
        self.id = id
        self.layout = layout
        self.listing = .ordered(elements)
    }

    /// Refuses an item path that names no item of `layout` (`not_found`, naming `params.section` or `params.i`).
    package static func check(_ item: ItemPath, in layout: Layout) throws(ProtocolError) {
        guard item.section < layout.sectionCount else {
            throw ProtocolError(
                .notFound, "params.section: \(item.section) is not a section (there are \(layout.sectionCount))")
        }
        let count = layout.itemCount(inSection: item.section)
        guard item.item < count else {
            throw ProtocolError(.notFound, "params.i: \(item.item) is not an item index (there are \(count))")
        }
    }

    // MARK: Package

    /// Items written per step: a step's frames are a small array (256 × 56 bytes), and a chunk is a few steps.
    package static let itemsPerStep = 256

    /// Whether the whole reply, up to its newline, has been written.
    package var isComplete: Bool { stage == .done }

    @discardableResult
    package mutating func write(_ w: inout JSONWriter, untilByteCount byteCount: Int) -> Bool {
        while stage != .done && w.byteCount < byteCount {
            step(&w)
        }
        return stage == .done
    }

    // MARK: Private

    private enum Listing: Sendable {
        case sections([Int])
        case elements(Rect, Range<Int>)
        /// Elements found and sorted already (a query in reading order).
        case ordered([Element])
    }

    private enum Stage: Equatable {
        case start
        /// At position `position` of the listing; `item` is the next item to write, -1 before the section opens.
        case listing(position: Int, item: Int)
        case end
        case done
    }

    private let id: RequestID
    private let layout: Layout
    private var screen: ScreenMapping { layout.screen }
    private let listing: Listing
    private var stage = Stage.start
    /// The visible items of the section being listed by a query.
    private var visible: [Int32] = []

    private mutating func step(_ w: inout JSONWriter) {
        switch stage {
        case .start:
            writeHead(&w)
            stage = .listing(position: 0, item: -1)
        case .listing(let position, let item):
            switch listing {
            case .sections(let sections):
                guard position < sections.count else {
                    stage = .end
                    return
                }
                stage = writeSection(sections[position], position: position, from: item, &w)
            case .elements(let rect, let crossed):
                guard position < crossed.count else {
                    stage = .end
                    return
                }
                stage = writeElements(crossed.lowerBound + position, rect, position: position, from: item, &w)
            case .ordered(let elements):
                guard position < elements.count else {
                    stage = .end
                    return
                }
                let end = min(elements.count, position + Self.itemsPerStep)
                for element in elements[position..<end] { ReplyEncoding.element(screen.element(element), &w) }
                stage = .listing(position: end, item: 0)
            }
        case .end:
            w.endArray()
            w.endObject()
            w.endObject()
            w.newline()
            stage = .done
        case .done:
            return
        }
    }

    /// `{"jsonrpc":"2.0","id":…,"result":{"seq":…,"contentSize":{…},"sections"|"elements":[`.
    private func writeHead(_ w: inout JSONWriter) {
        ReplyEncoding.beginResult(&w, id: id)
        ReplyEncoding.beginSeqAndSize(&w, seq: layout.seq, contentSize: layout.contentSize)
        switch listing {
        case .sections: w.key("sections")
        case .elements, .ordered: w.key("elements")
        }
        w.beginArray()
    }

    /// One step of section `s` of a `layout.get`: its opening, or its next items, or its end.
    private func writeSection(_ s: Int, position: Int, from item: Int, _ w: inout JSONWriter) -> Stage {
        let count = layout.itemCount(inSection: s)
        if item < 0 {
            ReplyEncoding.sectionHead(screen.frames(layout.frames(ofSection: s, items: 0..<0)), &w)
            w.key("items")
            w.beginArray()
            return .listing(position: position, item: 0)
        }
        guard item < count else {
            w.endArray()
            w.endObject()
            return .listing(position: position + 1, item: -1)
        }
        let end = min(count, item + Self.itemsPerStep)
        ReplyEncoding.itemTexts(screen.frames(layout.frames(ofSection: s, items: item..<end)).items[...], &w)
        return .listing(position: position, item: end)
    }

    /// One step of section `s` of a query: its header and visible items found, or its next items, or its stamps and
    /// footer.
    private mutating func writeElements(
        _ s: Int, _ rect: Rect, position: Int, from item: Int, _ w: inout JSONWriter
    ) -> Stage {
        if item < 0 {
            // A pinned header is placed within its range first, as `Layout.elements(in:)` places it.
            if let header = layout.headerElement(ofSection: s, in: rect) {
                ReplyEncoding.element(screen.element(header), &w)
            }
            visible = layout.visibleItems(inSection: s, in: rect)
            return .listing(position: position, item: 0)
        }
        guard item < visible.count else {
            for stamp in layout.stampElements(ofSection: s, in: rect) {
                ReplyEncoding.element(screen.element(stamp), &w)
            }
            if let footer = layout.frames(ofSection: s, items: 0..<0).footer, footer.isVisible(in: rect) {
                ReplyEncoding.element(
                    Element(kind: .footer, section: s, index: nil, frame: screen.rect(footer), id: nil), &w)
            }
            visible = []
            return .listing(position: position + 1, item: -1)
        }
        let end = min(visible.count, item + Self.itemsPerStep)
        for frame in layout.itemFrames(inSection: s, at: visible[item..<end]) {
            ReplyEncoding.element(
                Element(kind: .item, section: s, index: frame.index, frame: screen.rect(frame.frame), id: frame.id), &w)
        }
        return .listing(position: position, item: end)
    }
}
