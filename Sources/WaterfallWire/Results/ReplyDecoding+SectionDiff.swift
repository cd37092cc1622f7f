@_spi(Package) import WaterfallJSON
import WaterfallModel

extension ReplyDecoding {
    /// A diff's section entry (`{"section", "origin", "height", "count", "dy"?, "new"?, "header"?, "footer"?,
    /// "items"?}`, `width` and `dx` along a horizontal feed) and how it maps to the screen, its members found in one
    /// pass: a lookup per key walked the members again for each of a dozen keys, the most of a one-item update's
    /// reply decoding.
    package static func sectionDiff(
        _ entry: JSONNode, _ path: @autoclosure Path
    ) throws(Failure) -> (diff: SectionDiff, screen: ScreenMapping) {
        try entry.withView { (view: JSONView) throws(Failure) -> (diff: SectionDiff, screen: ScreenMapping) in
            guard view.kind == .object else { throw fail(path(), "not an object") }
            let members = EntryMembers(view)
            func required<T>(
                _ value: JSONView?, _ key: StaticString, _ what: String, _ read: (JSONView) -> T?
            ) throws(Failure) -> T {
                guard let value else { throw fail(path(), "no member \(key)") }
                guard let read = read(value) else { throw fail("\(path()).\(key)", what) }
                return read
            }
            // Along the feed: `height` (`dy`), or `width` (`dx`) when only that one is there.
            let horizontal = members.height == nil && members.width != nil
            var diff = SectionDiff(
                section: try required(members.section, "section", "not an integer") { $0.int },
                origin: try required(members.origin, "origin", "not a number") { $0.double },
                height: horizontal
                    ? try required(members.width, "width", "not a number") { $0.double }
                    : try required(members.height, "height", "not a number") { $0.double },
                count: try required(members.count, "count", "not an integer") { $0.int })
            if members.dy != nil || members.dx != nil {
                diff.dy =
                    members.dy == nil
                    ? try required(members.dx, "dx", "not a number") { $0.double }
                    : try required(members.dy, "dy", "not a number") { $0.double }
            }
            diff.isNew = members.isNew?.bool == true
            let header = members.header.map { entry.node(for: $0) }
            diff.header = try change(header, "\(path()).header")
            diff.pinMaxY = try pinMaxY(header, "\(path()).header")
            diff.footer = try change(members.footer.map { entry.node(for: $0) }, "\(path()).footer")
            if let items = members.items { diff.items = try itemFrames(entry.node(for: items), "\(path()).items") }
            let screen = Self.screen(
                hasWidth: members.width != nil, headerPinsMinX: members.header?["pinMinX"] != nil)
            return (diff, screen)
        }
    }

    /// The members of a section entry that `sectionDiff` reads, by name.
    private struct EntryMembers {
        var section: JSONView?
        var origin: JSONView?
        var height: JSONView?
        var width: JSONView?
        var count: JSONView?
        var dy: JSONView?
        var dx: JSONView?
        var isNew: JSONView?
        var header: JSONView?
        var footer: JSONView?
        var items: JSONView?

        private enum Member { case section, origin, height, width, count, dy, dx, isNew, header, footer, items }

        private static let names = MemberNames<Member>([
            "section": .section, "origin": .origin, "height": .height, "width": .width, "count": .count,
            "items": .items, "dy": .dy, "dx": .dx, "new": .isNew, "header": .header, "footer": .footer,
        ])

        init(_ entry: JSONView) {
            entry.members(Self.names) { member, value in
                switch member {
                case .section: section = value
                case .origin: origin = value
                case .height: height = value
                case .width: width = value
                case .count: count = value
                case .dy: dy = value
                case .dx: dx = value
                case .isNew: isNew = value
                case .header: header = value
                case .footer: footer = value
                case .items: items = value
                }
            }
        }
    }
}
