@_spi(Package) import WaterfallJSON
import WaterfallModel

extension ModelDecoding {
    /// Reads a `stamps` array (the Geometry article, "Stamps"): at most 64 objects of `column`, `span` (1 when
    /// absent), `y` and `h`, each integer checked against its wire range here and each length by the engine.
    static func stamps(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> [Stamp] {
        guard node.kind == .array else {
            throw .badParams(field(), "must be an array of stamps, not \(node.kind) \(Request.text(node))")
        }
        guard node.count <= Stamp.maxCount else {
            throw .badParams(field(), "lists \(node.count) stamps, more than \(Stamp.maxCount)")
        }
        var stamps: [Stamp] = []
        for (k, element) in zip(0..., node.elements) {
            func member(_ name: String) -> String { "\(field())[\(k)].\(name)" }
            guard element.kind == .object else {
                throw .badParams("\(field())[\(k)]", "must be an object, not \(element.kind)")
            }
            var column: Int?
            var span = 1
            var y: Double?
            var height: Double?
            for (key, value) in element.members {
                if key.isEqual(toKey: "column") {
                    column = try WireRange.check(
                        Params.int(value, member("column")), in: WireRange.column, member("column"))
                } else if key.isEqual(toKey: "span") {
                    span = try WireRange.check(Params.int(value, member("span")), in: WireRange.columns, member("span"))
                } else if key.isEqual(toKey: "y") {
                    y = try Params.double(value, member("y"))
                } else if key.isEqual(toKey: "h") {
                    height = try Params.double(value, member("h"))
                } else {
                    throw .unknownField(member(key.string ?? "?"))
                }
            }
            guard let column else { throw .badParams(member("column"), "missing") }
            guard let y else { throw .badParams(member("y"), "missing") }
            guard let height else { throw .badParams(member("h"), "missing") }
            stamps.append(Stamp(column: column, span: span, y: y, height: height))
        }
        return stamps
    }
}
