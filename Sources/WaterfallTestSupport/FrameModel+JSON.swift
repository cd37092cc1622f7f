import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallLayout

/// The wire forms of what a client holds: `layout.get` results and diffs read back into `FrameModel` and
/// `LayoutDiff`, so the diff contract can be checked end to end through the socket.
extension FrameModel {
    /// The model of a `layout.get` result (`{"seq", "contentSize", "sections": [...]}`), all sections.
    package init(layoutGet result: JSONValue) throws(WireFormatError) {
        guard case .array(let sections)? = result["sections"] else { throw WireFormatError("no sections in \(result)") }
        guard let size = result["contentSize"] else { throw WireFormatError("no contentSize in \(result)") }
        self.init(
            seq: Int(try result.number("seq")),
            contentSize: Size(width: try size.number("w"), height: try size.number("h")),
            sections: try sections.map { json throws(WireFormatError) in
                guard case .array(let items)? = json["items"] else { throw WireFormatError("no items in \(json)") }
                return Section(
                    origin: try json.number("origin"), height: try json.number("height"),
                    header: try json["header"].map(WireFormat.rect), footer: try json["footer"].map(WireFormat.rect),
                    pinMaxY: try WireFormat.pinMaxY(json["header"]),
                    items: try items.map { item throws(WireFormatError) in
                        Item(frame: try WireFormat.rect(item), id: item["id"]?.text)
                    })
            })
    }
}

extension LayoutDiff {
    /// A diff as the wire writes it: `{"sections": [...], "shifts": [...]}`.
    package init(json: JSONValue) throws(WireFormatError) {
        guard case .array(let entries)? = json["sections"] else { throw WireFormatError("no sections in \(json)") }
        var sections: [SectionDiff] = []
        for entry in entries {
            var diff = SectionDiff(
                section: Int(try entry.number("section")), origin: try entry.number("origin"),
                height: try entry.number("height"), count: Int(try entry.number("count")))
            if entry["dy"] != nil { diff.dy = try entry.number("dy") }
            diff.isNew = entry["new"] == .bool(true)
            diff.header = try WireFormat.change(entry["header"])
            diff.pinMaxY = try WireFormat.pinMaxY(entry["header"])
            diff.footer = try WireFormat.change(entry["footer"])
            if case .array(let items)? = entry["items"] {
                for item in items {
                    diff.items.append(
                        ItemFrame(
                            index: Int(try item.number("i")), frame: try WireFormat.rect(item), id: item["id"]?.text))
                }
            }
            sections.append(diff)
        }
        var shifts: [SectionShift] = []
        if let list = json["shifts"] {
            guard case .array(let entries) = list, !entries.isEmpty else {
                throw WireFormatError("shifts is not a non-empty array in \(json)")
            }
            for entry in entries {
                shifts.append(
                    SectionShift(
                        from: Int(try entry.number("from")), to: Int(try entry.number("to")), dy: try entry.number("dy")
                    ))
            }
        }
        self.init(sections: sections, shifts: shifts)
    }
}

/// A reply that is not shaped as the Methods article says.
package struct WireFormatError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension JSONValue {
    /// The number of member `key`, as a `Double`.
    package func number(_ key: String) throws(WireFormatError) -> Double {
        switch self[key] {
        case .int(let n)?: return Double(n)
        case .double(let d)?: return d
        default: throw WireFormatError("\(key) is not a number in \(self)")
        }
    }

    /// The value of a string.
    package var text: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

enum WireFormat {
    static func rect(_ json: JSONValue) throws(WireFormatError) -> Rect {
        Rect(
            x: try json.number("x"), y: try json.number("y"), width: try json.number("w"), height: try json.number("h"))
    }

    /// A header's `pinMaxY`, if it has one.
    static func pinMaxY(_ header: JSONValue?) throws(WireFormatError) -> Double? {
        guard let header, header != .null, header["pinMaxY"] != nil else { return nil }
        return try header.number("pinMaxY")
    }

    static func change(_ json: JSONValue?) throws(WireFormatError) -> FrameChange {
        switch json {
        case nil: return .unchanged
        case .null?: return .removed
        case let value?: return .set(try rect(value))
        }
    }
}
