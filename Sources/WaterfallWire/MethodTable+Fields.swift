@_spi(Package) import WaterfallJSON

/// The field names a method's params allow at a path, read from the same declarations as the OpenRPC document, so
/// that an unknown field's error can suggest the nearest known one.
extension MethodTable {
    /// The names the object at `path` of `method`'s request may hold, e.g. `params.sections[0]` of `layout.create`:
    /// a section's properties and `items`. A path through a choice of shapes (a batch op's params, a viewport) gets
    /// the names of every shape; a path the declarations do not reach gets none.
    package static func fieldNames(of method: Method, at path: some StringProtocol) -> [String] {
        let components = path.split(separator: ".")
        guard components.first == "params" else { return [] }
        let schemas = Dictionary(WireSchema.components.map { ($0.key, $0.value) }) { first, _ in first }
        func shapes(_ schema: JSONValue) -> [JSONValue] {
            if case .string(let reference)? = schema["$ref"] {
                let name = reference.split(separator: "/").last.map(String.init) ?? ""
                return schemas[name].map(shapes) ?? []
            }
            if case .array(let choices)? = schema["oneOf"] { return choices.flatMap(shapes) }
            return [schema]
        }
        let params = declaration(method).params
        var current = [WireSchema.object(params.map { ($0.name, $0.schema) })]
        for component in components.dropFirst() {
            let name = String(component.prefix { $0 != "[" })
            current = current.flatMap(shapes).compactMap { $0["properties"]?[name] }
            for _ in component.filter({ $0 == "[" }) {
                current = current.flatMap(shapes).compactMap { $0["items"] }
            }
        }
        return current.flatMap(shapes).flatMap { shape -> [String] in
            guard case .object(let members)? = shape["properties"] else { return [] }
            return members.map(\.key)
        }
    }
}
