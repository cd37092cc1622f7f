@_spi(Package) import WaterfallJSON
import WaterfallModel

/// The replies of `QuickReply` as the daemon writes them: members in its order, no whitespace. Each is read as a
/// few runs of bytes (`JSONCursor.take(literal:)`) between its values, with no key looked up; anything else is nil,
/// and the reader that takes any order and spacing reads it (with the same result, or none).
extension QuickReply {
    /// `{"jsonrpc":"2.0","id":…,"result":{"seq":…,"contentSize":{"w":…,"h":…},"diff":{"sections":[…]}}}`, the diff
    /// optional.
    static func compactMutation(_ c: inout JSONCursor) -> (id: Int64, result: MutationResult)? {
        guard c.take(literal: #"{"jsonrpc":"2.0","id":"#), let id = c.compactInteger(),
            c.take(literal: #","result":{"seq":"#), let seq = c.compactInteger(),
            c.take(literal: #","contentSize":{"w":"#), let width = c.compactNumber(), c.take(literal: #","h":"#),
            let height = c.compactNumber(), c.take(literal: "}")
        else { return nil }
        var diff: LayoutDiff?
        if c.take(literal: #","diff":{"sections":["#) {
            var entries: [SectionDiff] = []
            guard compactArray(&c, { c in compactEntry(&c).map { entries.append($0) } != nil }),
                c.take(literal: "}")
            else { return nil }
            diff = LayoutDiff(sections: entries, shifts: [], screen: .identity)
        }
        guard c.take(literal: "}}") else { return nil }
        return (id, MutationResult(seq: Int(seq), contentSize: Size(width: width, height: height), diff: diff))
    }

    /// An item frame with no `id`: most of a large reply's bytes.
    static func compactItemFrame(_ c: inout JSONCursor) -> ItemFrame? {
        guard c.take(literal: #"{"i":"#), let index = c.compactInteger(), c.take(literal: #","x":"#),
            let x = c.compactNumber(), c.take(literal: #","y":"#), let y = c.compactNumber(),
            c.take(literal: #","w":"#), let w = c.compactNumber(), c.take(literal: #","h":"#),
            let h = c.compactNumber(), c.take(literal: "}")
        else { return nil }
        return ItemFrame(index: Int(index), frame: Rect(x: x, y: y, width: w, height: h))
    }

    // MARK: Private

    /// A diff's section entry along a vertical feed: `section`, `origin`, `height`, `count`, then `dy`, `new` and
    /// `items` when present; no header or footer.
    private static func compactEntry(_ c: inout JSONCursor) -> SectionDiff? {
        guard c.take(literal: #"{"section":"#), let section = c.compactInteger(), c.take(literal: #","origin":"#),
            let origin = c.compactNumber(), c.take(literal: #","height":"#), let height = c.compactNumber(),
            c.take(literal: #","count":"#), let count = c.compactInteger()
        else { return nil }
        var dy = 0.0
        if c.take(literal: #","dy":"#) {
            guard let value = c.compactNumber() else { return nil }
            dy = value
        }
        let isNew = c.take(literal: #","new":true"#)
        var items: [ItemFrame] = []
        if c.take(literal: #","items":["#) {
            guard compactArray(&c, { c in compactItemFrame(&c).map { items.append($0) } != nil }) else { return nil }
        }
        guard c.take(literal: "}") else { return nil }
        return SectionDiff(
            section: Int(section), origin: origin, height: height, count: Int(count), dy: dy, isNew: isNew,
            items: items)
    }

    /// The elements of an array whose `[` is taken, up to its `]`, each read by `element`.
    private static func compactArray(_ c: inout JSONCursor, _ element: (inout JSONCursor) -> Bool) -> Bool {
        if c.take(literal: "]") { return true }
        repeat {
            guard element(&c) else { return false }
        } while c.take(literal: ",")
        return c.take(literal: "]")
    }
}
