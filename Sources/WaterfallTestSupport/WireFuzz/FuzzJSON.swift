@_spi(Package) import WaterfallJSON

/// A JSON tree whose scalars are kept as raw text, so a fuzz case can write what no JSON writer would: `-0`,
/// `1e999`, 2^63, a duplicate key, or a value where a number belongs.
package indirect enum FuzzJSON: Sendable {
    /// A scalar (or any fragment) written exactly as given.
    case raw(String)
    case array([FuzzJSON])
    /// Members in order; duplicate keys are allowed on purpose.
    case object([(key: String, value: FuzzJSON)])

    /// One step of a path into the tree.
    package enum Step: Sendable, Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        package var description: String {
            switch self {
            case .key(let key): ".\(key)"
            case .index(let k): "[\(k)]"
            }
        }
    }

    // MARK: Lifecycle

    /// The tree of well-formed JSON `text` (a programming error otherwise: templates are constants).
    package init(_ text: String) {
        guard let value = try? JSONValue(parsing: text) else { preconditionFailure("not JSON: \(text)") }
        self.init(value)
    }

    package init(_ value: JSONValue) {
        switch value {
        case .array(let elements): self = .array(elements.map(FuzzJSON.init))
        case .object(let members): self = .object(members.map { ($0.key, FuzzJSON($0.value)) })
        default: self = .raw(value.jsonText)
        }
    }

    // MARK: Package

    /// A JSON string literal of `text`.
    package static func string(_ text: String) -> FuzzJSON { .raw(JSONValue.string(text).jsonText) }

    /// The text, without whitespace.
    package var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    package func write(to out: inout String) {
        switch self {
        case .raw(let text): out += text
        case .array(let elements):
            out += "["
            for (k, element) in elements.enumerated() {
                if k > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (k, member) in members.enumerated() {
                if k > 0 { out += "," }
                out += JSONValue.string(member.key).jsonText + ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Whether this is a raw number (its text starts like one).
    package var isNumber: Bool {
        guard case .raw(let text) = self, let first = text.utf8.first else { return false }
        return first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }

    /// The paths of every node, depth first, parents before children (the root's path is empty).
    package var paths: [[Step]] { paths { _, _ in true } }

    /// The paths of the nodes `include` takes (given the node and the last step to it), depth first, parents
    /// before children: one walk with one path under construction, so a large tree costs time in proportion to its
    /// nodes and allocates only for the paths returned (building every path by prefixing the children's made a
    /// run of mutations spend most of its time here).
    package func paths(where include: (FuzzJSON, Step?) -> Bool) -> [[Step]] {
        var result: [[Step]] = []
        var path: [Step] = []
        visit(&path) { node, path in
            if include(node, path.last) { result.append(path) }
            return true
        }
        return result
    }

    /// The number of nodes of the tree, the root included.
    package var nodeCount: Int {
        switch self {
        case .raw: 1
        case .array(let elements): elements.reduce(1) { $0 + $1.nodeCount }
        case .object(let members): members.reduce(1) { $0 + $1.value.nodeCount }
        }
    }

    /// The path of node `index` in the order of `paths` (0 is the root); nil past the last node.
    package func path(at index: Int) -> [Step]? {
        var remaining = index
        var path: [Step] = []
        var found: [Step]?
        visit(&path) { _, path in
            if remaining == 0 { found = path }
            remaining -= 1
            return found == nil
        }
        return found
    }

    /// The paths of every number in the tree.
    package var numberPaths: [[Step]] { paths { node, _ in node.isNumber } }

    /// Calls `body` on every node, depth first, parents before children, with `path` holding the node's path;
    /// stops when `body` returns false. Whether the walk went on to its end.
    @discardableResult
    private func visit(_ path: inout [Step], _ body: (FuzzJSON, [Step]) -> Bool) -> Bool {
        guard body(self, path) else { return false }
        switch self {
        case .raw:
            return true
        case .array(let elements):
            for (k, element) in elements.enumerated() {
                path.append(.index(k))
                defer { path.removeLast() }
                guard element.visit(&path, body) else { return false }
            }
        case .object(let members):
            for member in members {
                path.append(.key(member.key))
                defer { path.removeLast() }
                guard member.value.visit(&path, body) else { return false }
            }
        }
        return true
    }

    /// The node at `path`, if there is one (the first member of a duplicated key).
    package subscript(path: [Step]) -> FuzzJSON? {
        guard let step = path.first else { return self }
        switch (self, step) {
        case (.array(let elements), .index(let k)) where elements.indices.contains(k):
            return elements[k][Array(path.dropFirst())]
        case (.object(let members), .key(let key)):
            return members.first { $0.key == key }?.value[Array(path.dropFirst())]
        default:
            return nil
        }
    }

    /// This tree with the node at `path` passed through `change`; nil from `change` removes the node.
    package func updating(_ path: [Step], _ change: (FuzzJSON) -> FuzzJSON?) -> FuzzJSON {
        guard let step = path.first else { return change(self) ?? self }
        let rest = Array(path.dropFirst())
        switch (self, step) {
        case (.array(var elements), .index(let k)) where elements.indices.contains(k):
            if !rest.isEmpty {
                elements[k] = elements[k].updating(rest, change)
            } else if let new = change(elements[k]) {
                elements[k] = new
            } else {
                elements.remove(at: k)
            }
            return .array(elements)
        case (.object(var members), .key(let key)):
            guard let k = members.firstIndex(where: { $0.key == key }) else { return self }
            if !rest.isEmpty {
                members[k].value = members[k].value.updating(rest, change)
            } else if let new = change(members[k].value) {
                members[k].value = new
            } else {
                members.remove(at: k)
            }
            return .object(members)
        default:
            return self
        }
    }

    /// This tree with the node at `path` replaced by `value`.
    package func replacing(_ path: [Step], with value: FuzzJSON) -> FuzzJSON { updating(path) { _ in value } }

    /// This object with `member` added (or first, when `first`); itself if not an object.
    package func adding(_ key: String, _ value: FuzzJSON, first: Bool = false) -> FuzzJSON {
        guard case .object(var members) = self else { return self }
        if first { members.insert((key, value), at: 0) } else { members.append((key, value)) }
        return .object(members)
    }

    /// This object without member `key`; itself if not an object.
    package func removing(_ key: String) -> FuzzJSON {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }
}
