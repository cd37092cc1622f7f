import WaterfallJSON
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
                member(&cursor, "contentSize"), let size = Self.size(&cursor), cursor.take(UInt8(ascii: ",")),
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
            guard first || cursor.take(UInt8(ascii: ",")), let item = Self.item(&cursor) else { return false }
            items.append(item)
            phase = .items(first: false)
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

    /// A section's members up to its `items` array's `[`: `section`, `origin`, `height` or `width`, `count`, and a
    /// `header` and a `footer`, each once, in any order.
    private static func head(_ cursor: inout JSONCursor) -> Head? {
        guard cursor.take(UInt8(ascii: "{")) else { return nil }
        var head = Head()
        while true {
            guard let key = cursor.plainString(), cursor.take(UInt8(ascii: ":")) else { return nil }
            let taken: Bool
            switch Substring(decoding: key, as: UTF8.self) {
            case "items": return cursor.take(UInt8(ascii: "[")) ? head : nil
            case "section": taken = cursor.once(&head.section) { $0.integer().flatMap { Int(exactly: $0) } }
            case "origin": taken = cursor.once(&head.origin) { $0.number() }
            case "height", "width":
                head.hasWidth = key.count == 5
                taken = cursor.once(&head.height) { $0.number() }
            case "count": taken = cursor.once(&head.count) { $0.integer().flatMap { Int(exactly: $0) } }
            case "header":
                guard head.header == nil, let (rect, pin) = Self.rect(&cursor, pins: true) else { return nil }
                (head.header, head.pin) = (rect, pin)
                taken = true
            case "footer":
                guard head.footer == nil, let (rect, pin) = Self.rect(&cursor, pins: false), pin == nil else {
                    return nil
                }
                head.footer = rect
                taken = true
            default: return nil
            }
            guard taken, cursor.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// `{"w", "h"}`.
    private static func size(_ cursor: inout JSONCursor) -> Size? {
        var w: Double?
        var h: Double?
        let read = cursor.object { key, cursor in
            if JSONCursor.bytes(key, are: "w") { return cursor.once(&w) { $0.number() } }
            if JSONCursor.bytes(key, are: "h") { return cursor.once(&h) { $0.number() } }
            return false
        }
        guard read, let w, let h else { return nil }
        return Size(width: w, height: h)
    }

    /// `{"x", "y", "w", "h"}`, and with `pins` one of `pinMaxY`, `pinMaxX`, `pinMinX`.
    private static func rect(_ cursor: inout JSONCursor, pins: Bool) -> (Rect, (key: PinKey, value: Double)?)? {
        var values: (x: Double?, y: Double?, w: Double?, h: Double?) = (nil, nil, nil, nil)
        var pin: (key: PinKey, value: Double)?
        let read = cursor.object { key, cursor in
            switch Substring(decoding: key, as: UTF8.self) {
            case "x": return cursor.once(&values.x) { $0.number() }
            case "y": return cursor.once(&values.y) { $0.number() }
            case "w": return cursor.once(&values.w) { $0.number() }
            case "h": return cursor.once(&values.h) { $0.number() }
            case "pinMaxY", "pinMaxX", "pinMinX":
                // One pin only: the general reader's choice among several is not repeated here.
                guard pins, pin == nil, let value = cursor.number() else { return false }
                let name = Substring(decoding: key, as: UTF8.self)
                pin = (name == "pinMaxY" ? .maxY : name == "pinMaxX" ? .maxX : .minX, value)
                return true
            default: return false
            }
        }
        guard read, let x = values.x, let y = values.y, let w = values.w, let h = values.h else { return nil }
        return (Rect(x: x, y: y, width: w, height: h), pin)
    }

    /// An item frame: `{"i", "x", "y", "w", "h", "id"?}`.
    private static func item(_ cursor: inout JSONCursor) -> ItemFrame? {
        var index: Int64?
        var values: (x: Double?, y: Double?, w: Double?, h: Double?) = (nil, nil, nil, nil)
        var id: String?
        let read = cursor.object { key, cursor in
            guard key.count == 1 || key.count == 2 else { return false }
            switch (key[0], key.count) {
            case (UInt8(ascii: "i"), 1): return cursor.once(&index) { $0.integer() }
            case (UInt8(ascii: "x"), 1): return cursor.once(&values.x) { $0.number() }
            case (UInt8(ascii: "y"), 1): return cursor.once(&values.y) { $0.number() }
            case (UInt8(ascii: "w"), 1): return cursor.once(&values.w) { $0.number() }
            case (UInt8(ascii: "h"), 1): return cursor.once(&values.h) { $0.number() }
            case (UInt8(ascii: "i"), 2) where key[1] == UInt8(ascii: "d"):
                return cursor.once(&id) { $0.plainString().map { String(decoding: $0, as: UTF8.self) } }
            default: return false
            }
        }
        guard read, let index = index.flatMap({ Int(exactly: $0) }), let x = values.x, let y = values.y,
            let w = values.w, let h = values.h
        else { return nil }
        return ItemFrame(index: index, frame: Rect(x: x, y: y, width: w, height: h), id: id)
    }
}
