@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

/// Reads a `layout.get` reply into frames while its line is still arriving, so that decoding a large reply overlaps
/// with the daemon writing it instead of starting after its last byte.
///
/// It takes the reply in the shape the daemon writes it (`{"jsonrpc":"2.0","id":N,"result":{"seq","contentSize",
/// "sections":[…]}}`, each section's members before its `items`, plain strings, strict numbers) and goes as far as
/// the bytes at hand allow, keeping what it has read at the end of each whole item or section head, and taking the
/// rest up from there when more bytes come. Anything else (another shape, an error reply, an escaped string) it does
/// not read: at the line's end the caller reads the reply the general way (`ReplyDecoding.frames`), which says what
/// is wrong, if anything. What it returns is what the general reader returns for the same line.
struct FramesStream {
    /// The request the reply answers, once the envelope is read.
    private(set) var id: Int64?

    /// Reads on from where the last call stopped, over the line's bytes so far (the same start, longer each time).
    mutating func advance(_ line: UnsafeBufferPointer<UInt8>) {
        while checkpoint < line.count {
            var cursor = JSONCursor(UnsafeBufferPointer(rebasing: line[checkpoint...]))
            guard step(&cursor) else { return }
            checkpoint += cursor.position
        }
    }

    /// The frames of the whole line, or nil when it is not a `layout.get` reply this reader takes.
    mutating func finish(_ line: UnsafeBufferPointer<UInt8>) -> LayoutFrames? {
        advance(line)
        guard case .done = phase, let seq, let contentSize, checkpoint <= line.count else { return nil }
        var rest = JSONCursor(UnsafeBufferPointer(rebasing: line[checkpoint...]))
        guard rest.isAtEnd else { return nil }
        return LayoutFrames(seq: seq, contentSize: contentSize, sections: sections)
    }

    // MARK: Private

    private enum Phase {
        /// Before the envelope, up to the `sections` array's `[`.
        case envelope
        /// Inside the `sections` array: before its first element, or after an element.
        case sections(first: Bool)
        /// Before a section's `{`, up to its `items` array's `[`.
        case sectionHead
        /// Inside an `items` array: before its first element, or after an element.
        case items(first: Bool)
        /// After the `sections` array: the `}` of the result and of the reply.
        case tail
        case done
    }

    /// A section entry's members before its items.
    private struct Head {
        var section: Int?
        var origin: Double?
        var height: Double?
        var hasWidth = false
        var count: Int?
        var header: Rect?
        var pin: (key: PinKey, value: Double)?
        var footer: Rect?
    }

    private enum PinKey { case maxY, maxX, minX }

    private var phase = Phase.envelope
    /// Where the bytes not yet read start.
    private var checkpoint = 0
    private var seq: Int?
    private var contentSize: Size?
    private var sections: [SectionFrames] = []
    private var head = Head()
    private var items: [ItemFrame] = []

    /// Reads one unit (the envelope, a section's head, an item, a separator) at `cursor`; false when the bytes end
    /// before it does, or it is not what this reader takes (then nothing is kept of it, and it is read no further).
    private mutating func step(_ cursor: inout JSONCursor) -> Bool {
        switch phase {
        case .envelope:
            guard cursor.take(UInt8(ascii: "{")), member(&cursor, "jsonrpc"), cursor.take(string: "2.0"),
                cursor.take(UInt8(ascii: ",")), member(&cursor, "id"), let id = cursor.integer(),
                cursor.take(UInt8(ascii: ",")), member(&cursor, "result"), cursor.take(UInt8(ascii: "{")),
                member(&cursor, "seq"), let seq = cursor.integer(), cursor.take(UInt8(ascii: ",")),
                member(&cursor, "contentSize"), let size = QuickReply.size(&cursor), cursor.take(UInt8(ascii: ",")),
                member(&cursor, "sections"), cursor.take(UInt8(ascii: "["))
            else { return false }
            (self.id, self.seq, contentSize) = (id, Int(seq), size)
            phase = .sections(first: true)
        case .sections(let first):
            // Nothing is decided before the next byte has come.
            guard !cursor.isAtEnd else { return false }
            if cursor.take(UInt8(ascii: "]")) {
                phase = .tail
            } else {
                guard first || cursor.take(UInt8(ascii: ",")) else { return false }
                phase = .sectionHead
            }
        case .sectionHead:
            guard let head = Self.head(&cursor) else { return false }
            self.head = head
            items = []
            items.reserveCapacity(max(0, min(head.count ?? 0, 1 << 20)))
            phase = .items(first: true)
        case .items(let first):
            if cursor.take(UInt8(ascii: "]")) {
                guard cursor.take(UInt8(ascii: "}")), let section = sectionFrames() else { return false }
                sections.append(section)
                phase = .sections(first: false)
                return true
            }
            guard first || cursor.take(UInt8(ascii: ",")), let item = QuickReply.itemFrame(&cursor) else {
                return false
            }
            items.append(item)
            phase = .items(first: false)
            // The items that follow whole, in this step: `advance` keeps the end of the last one.
            while true {
                var next = cursor
                guard next.take(literal: ","), let item = QuickReply.itemFrame(&next) else { break }
                items.append(item)
                cursor = next
            }
        case .tail:
            guard cursor.take(UInt8(ascii: "}")), cursor.take(UInt8(ascii: "}")) else { return false }
            phase = .done
        case .done:
            return false
        }
        return true
    }

    /// Takes `"name":`.
    private func member(_ cursor: inout JSONCursor, _ name: StaticString) -> Bool {
        cursor.take(string: name) && cursor.take(UInt8(ascii: ":"))
    }

    /// The section just read, as `ReplyDecoding.frames` makes it.
    private mutating func sectionFrames() -> SectionFrames? {
        guard let section = head.section, let origin = head.origin, let height = head.height, let count = head.count
        else { return nil }
        let screen = ReplyDecoding.screen(hasWidth: head.hasWidth, headerPinsMinX: head.pin?.key == .minX)
        defer { items = [] }
        return SectionFrames(
            section: section, origin: origin, height: height, count: count, items: items, header: head.header,
            pinMaxY: head.pin?.value, footer: head.footer, screen: screen)
    }

    private enum HeadMember { case section, origin, height, width, count, header, footer, items }
    private static let headNames = MemberNames<HeadMember>([
        "section": .section, "origin": .origin, "height": .height, "width": .width, "count": .count,
        "header": .header, "footer": .footer, "items": .items,
    ])

    /// A section's members up to its `items` array's `[`: `section`, `origin`, `height` or `width`, `count`, and a
    /// `header` and a `footer`, each once, in any order.
    private static func head(_ cursor: inout JSONCursor) -> Head? {
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var head = Head()
        var seen: UInt64 = 0
        while true {
            guard let key = cursor.plainString(), cursor.take(UInt8(ascii: ":")),
                let (index, member) = headNames.find(key), seen & (1 << index) == 0
            else { return nil }
            seen |= 1 << index
            let taken: Bool
            switch member {
            case .items: return cursor.take(UInt8(ascii: "[")) ? head : nil
            case .section:
                head.section = cursor.integer().map { Int($0) }
                taken = head.section != nil
            case .origin:
                head.origin = cursor.number()
                taken = head.origin != nil
            case .height, .width:
                // One of the two: the general reader takes `height` when both come.
                guard head.height == nil else { return nil }
                head.hasWidth = member == .width
                head.height = cursor.number()
                taken = head.height != nil
            case .count:
                head.count = cursor.integer().map { Int($0) }
                taken = head.count != nil
            case .header:
                guard let (rect, pin) = rect(&cursor) else { return nil }
                (head.header, head.pin) = (rect, pin)
                taken = true
            case .footer:
                guard let (rect, pin) = rect(&cursor), pin == nil else { return nil }
                head.footer = rect
                taken = true
            }
            guard taken, cursor.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private enum RectMember { case x, y, w, h, pinMaxY, pinMaxX, pinMinX }
    private static let rectNames = MemberNames<RectMember>([
        "x": .x, "y": .y, "w": .w, "h": .h, "pinMaxY": .pinMaxY, "pinMaxX": .pinMaxX, "pinMinX": .pinMinX,
    ])

    /// `{"x", "y", "w", "h"}`, and at most one of `pinMaxY`, `pinMaxX`, `pinMinX` (the general reader's choice
    /// among several is not repeated here).
    private static func rect(_ cursor: inout JSONCursor) -> (Rect, (key: PinKey, value: Double)?)? {
        var values: (x: Double?, y: Double?, w: Double?, h: Double?) = (nil, nil, nil, nil)
        var pin: (key: PinKey, value: Double)?
        let read = cursor.object(rectNames) { member, cursor in
            guard let value = cursor.number() else { return false }
            switch member {
            case .x: values.x = value
            case .y: values.y = value
            case .w: values.w = value
            case .h: values.h = value
            case .pinMaxY, .pinMaxX, .pinMinX:
                guard pin == nil else { return false }
                pin = (member == .pinMaxY ? .maxY : member == .pinMaxX ? .maxX : .minX, value)
            }
            return true
        }
        guard read, let x = values.x, let y = values.y, let w = values.w, let h = values.h else { return nil }
        return (Rect(x: x, y: y, width: w, height: h), pin)
    }
}
