@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

/// A reply that can be written a piece at a time, each piece sent before the next is written.
package protocol ChunkedReply: Sendable {
    /// Writes on until `w` holds at least `byteCount` bytes or the reply is complete; true when it is complete.
    ///
    /// `w` must be the same writer, or one whose chunks were taken with `takeChunk(capacity:)`, from one call to the
    /// next: it holds the reply's open containers.
    mutating func write(_ w: inout JSONWriter, untilByteCount byteCount: Int) -> Bool
}

/// A mutation's reply, written a piece at a time: `{"jsonrpc":"2.0","id":…,"result":{"seq":…,"contentSize":…,
/// "diff":…,"anchor":…}}` and its newline (`diff` and `anchor` when there are).
///
/// A change in the middle of a million items lists half a million frames, 48 MB of JSON. Written whole, the reply
/// grew a buffer through fresh pages to 64 MB, and page faults took more time than formatting the numbers; written
/// in steps, each chunk goes to the socket from the buffer it was written in, and the reply costs a few of them.
package struct MutationReply: ChunkedReply {
    // MARK: Lifecycle

    /// The reply to request `id`, which left the layout at `seq` and `contentSize`, with `diff` and `anchor` unless
    /// nil.
    package init(id: RequestID, seq: Int, contentSize: Size, diff: LayoutDiff?, anchor: AnchorOutcome? = nil) {
        self.id = id
        self.seq = seq
        self.contentSize = contentSize
        self.diff = diff.map(DiffWriter.init)
        self.anchor = anchor
    }

    // MARK: Package

    /// Whether the whole reply, up to its newline, has been written.
    package var isComplete: Bool { stage == .done }

    @discardableResult
    package mutating func write(_ w: inout JSONWriter, untilByteCount byteCount: Int) -> Bool {
        if stage == .start, w.byteCount < byteCount, let room = oneFragmentRoom() {
            writeOneFragment(&w, room: room)
            stage = .done
            return true
        }
        while stage != .done && w.byteCount < byteCount {
            switch stage {
            case .start:
                ReplyEncoding.beginResult(&w, id: id)
                ReplyEncoding.beginSeqAndSize(&w, seq: seq, contentSize: contentSize)
                if diff != nil { w.key("diff") }
                stage = diff == nil ? .end : .diff
            case .diff:
                if diff?.write(&w, untilByteCount: byteCount) ?? true { stage = .end }
            case .end:
                if let anchor { ReplyEncoding.anchor(anchor, &w) }
                w.endObject()
                w.endObject()
                w.newline()
                stage = .done
            case .done:
                break
            }
        }
        return stage == .done
    }

    // MARK: Private

    /// The most room a reply written as one fragment may ask for: a pipelining client's one-item update has a reply
    /// of a few hundred bytes.
    private static let oneFragmentLength = 4096

    private enum Stage: Sendable {
        case start
        case diff
        case end
        case done
    }

    /// The room the whole reply needs at most when it is small and has no anchor, for `writeOneFragment`; nil
    /// otherwise.
    private func oneFragmentRoom() -> Int? {
        guard anchor == nil else { return nil }
        // The braces that open and close the reply and its result, `,"diff":` and the newline.
        var room = ReplyEncoding.resultHeadLength(id) + ReplyEncoding.seqAndSizeLength + 16
        if let diff {
            guard let diffRoom = diff.oneFragmentRoom(limit: Self.oneFragmentLength) else { return nil }
            room += diffRoom
        }
        return room <= Self.oneFragmentLength ? room : nil
    }

    /// Writes the whole reply, the same bytes as the stages write, in one fragment of `room` bytes: one reservation
    /// and no comma bookkeeping per member, where the stages make a dozen writer calls for a one-frame diff.
    private func writeOneFragment(_ w: inout JSONWriter, room: Int) {
        let endsLine = w.endsLines
        NumberTextCache.with(w.numberTexts) { cache in
            w.fragment(maximumLength: room) { f in
                f.text("{")
                ReplyEncoding.resultHead(id, &f)
                f.text("{")
                ReplyEncoding.seqAndSize(seq, contentSize, &f)
                if let diff {
                    f.text(#","diff":"#)
                    diff.writeWhole(cache: cache, &f)
                }
                f.text("}}")
                if endsLine { f.text("\n") }
            }
        }
    }

    private let id: RequestID
    private let seq: Int
    private let contentSize: Size
    private var diff: DiffWriter?
    private let anchor: AnchorOutcome?
    private var stage = Stage.start
}

/// A diff object, `{"sections":[…],"shifts":[…]}`, written a step at a time: an entry's opening, then its items a
/// few hundred at a time, then its end.
struct DiffWriter: Sendable {
    // MARK: Lifecycle

    init(_ diff: LayoutDiff) {
        self.diff = diff
    }

    // MARK: Internal

    /// Items written per step: a step is a few KB, so a chunk ends close to its size.
    static let itemsPerStep = 256

    /// Writes on until `w` holds at least `byteCount` bytes or the diff is complete; true when it is complete.
    mutating func write(_ w: inout JSONWriter, untilByteCount byteCount: Int) -> Bool {
        while stage != .done && w.byteCount < byteCount { step(&w) }
        return stage == .done
    }

    // MARK: Private

    private enum Stage: Sendable, Equatable {
        case start
        /// At entry `entry`; `item` is the next item to write, -1 before the entry opens.
        case entry(Int, item: Int)
        case shifts
        case done
    }

    private let diff: LayoutDiff
    private var stage = Stage.start

    /// Sections and shifts a diff written whole (`writeWhole`) may have at most.
    private static let wholeEntries = 8
    /// Items a diff written whole may list at most.
    private static let wholeItems = 16

    /// The room `writeWhole` needs at most, when the diff is small enough to be written whole within `limit`;
    /// nil otherwise.
    func oneFragmentRoom(limit: Int) -> Int? {
        guard diff.sections.count <= Self.wholeEntries, diff.shifts.count <= Self.wholeEntries else { return nil }
        // `{"sections":[`, `]`, `,"shifts":[`, `]` and `}`.
        var room = 32 + diff.shifts.count * (1 + ReplyEncoding.shiftLength)
        var items = 0
        // Over the arrays' storage: an element read out of an array is a copy, a retain of each of its references.
        let fits = diff.sections.withUnsafeBufferPointer { sections in
            for k in sections.indices {
                // The entry's braces, comma and `,"items":[]`.
                room += ReplyEncoding.entryMembersLength + 16
                items += sections[k].items.count
                guard items <= Self.wholeItems else { return false }
                sections[k].items.withUnsafeBufferPointer { frames in
                    for j in frames.indices { room += 1 + ReplyEncoding.itemLength(frames[j]) }
                }
            }
            return true
        }
        return fits && room <= limit ? room : nil
    }

    /// Writes the whole diff object into `f`, the same bytes as the steps write (see `oneFragmentRoom`).
    func writeWhole(cache: NumberTextCache, _ f: inout JSONFragment) {
        f.text(#"{"sections":["#)
        let screen = diff.screen
        // Over the arrays' storage, as `oneFragmentRoom`.
        diff.sections.withUnsafeBufferPointer { sections in
            for k in sections.indices {
                if k > 0 { f.text(",") }
                f.text("{")
                ReplyEncoding.entryMembers(sections[k], screen: screen, &f)
                if sections[k].isNew || !sections[k].items.isEmpty {
                    f.text(#","items":["#)
                    sections[k].items.withUnsafeBufferPointer { frames in
                        for j in frames.indices {
                            if j > 0 { f.text(",") }
                            ReplyEncoding.itemText(frames[j], cache: cache, &f)
                        }
                    }
                    f.text("]")
                }
                f.text("}")
            }
        }
        f.text("]")
        if !diff.shifts.isEmpty {
            f.text(#","shifts":["#)
            for j in diff.shifts.indices {
                if j > 0 { f.text(",") }
                ReplyEncoding.shiftText(diff.shifts[j], key: diff.screen.deltaKey, &f)
            }
            f.text("]")
        }
        f.text("}")
    }

    private mutating func step(_ w: inout JSONWriter) {
        switch stage {
        case .start:
            w.beginObject()
            w.key("sections")
            w.beginArray()
            stage = .entry(0, item: -1)
        case .entry(let k, let item):
            guard k < diff.sections.count else {
                w.endArray()
                stage = .shifts
                return
            }
            // Read in place, not bound to a local: two retains a one-item update fewer (counted).
            let itemCount = diff.sections[k].items.count
            let lists = diff.sections[k].isNew || itemCount > 0
            if item < 0 {
                ReplyEncoding.entryHead(diff.sections[k], screen: diff.screen, &w)
                if lists {
                    w.key("items")
                    w.beginArray()
                    stage = .entry(k, item: 0)
                } else {
                    w.endObject()
                    stage = .entry(k + 1, item: -1)
                }
                return
            }
            guard item < itemCount else {
                w.endArray()
                w.endObject()
                stage = .entry(k + 1, item: -1)
                return
            }
            let end = min(itemCount, item + Self.itemsPerStep)
            ReplyEncoding.itemTexts(diff.sections[k].items[item..<end], &w)
            stage = .entry(k, item: end)
        case .shifts:
            if !diff.shifts.isEmpty { ReplyEncoding.shifts(diff.shifts, key: diff.screen.deltaKey, &w) }
            w.endObject()
            stage = .done
        case .done:
            return
        }
    }
}
