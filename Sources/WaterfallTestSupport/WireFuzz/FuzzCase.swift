/// One request line of the wire fuzzer, before its slot and id are filled in.
package struct FuzzCase: Sendable {
    /// How a case's request is sent.
    package enum Form: String, Sendable, CaseIterable {
        /// A request with an id.
        case plain
        /// The change as the only op of a `batch`.
        case batch
        /// The change between two valid ops of a `batch`.
        case batchOfThree = "batch of three"
        /// `"jsonrpc": "2.0"` without an id: no reply.
        case notification
    }

    /// The placeholder of the slot's layout name, replaced when the case is sent.
    package static let slotName = "@slot"
    /// The placeholder of the request's id (raw text), replaced by a number when the case is sent.
    package static let idPlaceholder = "@id"

    /// The whole request.
    package var request: FuzzJSON
    package var form: Form
    /// What the case tries, for failure messages: the method, the field and the value.
    package var label: String
    /// The same template, field and value in its other forms share this key: a form must fail when its plain
    /// twin fails (a notification changes nothing, a batch fails whole).
    package var twin: String?
    /// Whether the request's envelope (its id, method, jsonrpc, or the line's text itself) was fuzzed: its reply
    /// may then have another id, or be missing (an envelope with no id is a notification).
    package var envelopeFuzzed: Bool

    package init(request: FuzzJSON, form: Form, label: String, twin: String? = nil, envelopeFuzzed: Bool = false) {
        self.request = request
        self.form = form
        self.label = label
        self.twin = twin
        self.envelopeFuzzed = envelopeFuzzed
    }

    /// The line to send (without its newline), on layout `slot` with id `id`.
    package func line(slot: String, id: Int) -> String {
        let text = Self.replacing("\"\(Self.slotName)\"", with: "\"\(slot)\"", in: request.text)
        return Self.replacing(Self.idPlaceholder, with: String(id), in: text)
    }

    /// `text` with every `target` replaced (this module has no Foundation).
    static func replacing(_ target: String, with replacement: String, in text: String) -> String {
        let bytes = Array(text.utf8)
        let pattern = Array(target.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var k = 0
        while k < bytes.count {
            if bytes[k] == pattern[0], k + pattern.count <= bytes.count,
                bytes[k..<k + pattern.count].elementsEqual(pattern)
            {
                out += replacement.utf8
                k += pattern.count
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Building

    /// A request envelope; `id` nil makes a notification.
    package static func envelope(method: String, params: FuzzJSON?, id: FuzzJSON?) -> FuzzJSON {
        var members: [(key: String, value: FuzzJSON)] = [("jsonrpc", .string("2.0"))]
        if let id { members.append(("id", id)) }
        members.append(("method", .string(method)))
        if let params { members.append(("params", params)) }
        return .object(members)
    }

    /// The valid ops around a fuzzed op in `batchOfThree`: they touch section 2, which the templates' anchors
    /// do not name.
    static let opBefore = FuzzJSON(#"{"method":"items.update","params":{"section":2,"items":[{"i":0,"h":7}]}}"#)
    static let opAfter = FuzzJSON(#"{"method":"sections.configure","params":{"section":2,"rowSpacing":3}}"#)

    /// The params of change `method` that a `batch` takes for all its ops, and an op may not carry.
    package static func batchKeys(of method: String) -> [String] {
        method == "layout.configure"
            ? ["layout", "anchor", "diff", "viewport"] : ["layout", "anchor", "diff", "viewport", "width"]
    }

    /// `method` with `params` (which name the slot first) sent as `form`.
    package static func request(_ method: String, _ params: FuzzJSON?, form: Form) -> FuzzJSON {
        let id = FuzzJSON.raw(idPlaceholder)
        switch form {
        case .plain: return envelope(method: method, params: params, id: id)
        case .notification: return envelope(method: method, params: params, id: nil)
        case .batch, .batchOfThree:
            // An op's params are the request's without `layout`; `anchor`, `diff`, `viewport` and the width the
            // frames are at belong to the batch (a configure's `width` is the layout's new width, and stays).
            var opParams = params ?? .object([])
            var batch = FuzzJSON.object([("layout", .string(slotName))])
            for key in batchKeys(of: method) {
                if key != "layout", let value = opParams[[.key(key)]] { batch = batch.adding(key, value) }
                opParams = opParams.removing(key)
            }
            let op = FuzzJSON.object([("method", .string(method)), ("params", opParams)])
            let ops: [FuzzJSON] = form == .batch ? [op] : [opBefore, op, opAfter]
            return envelope(method: "batch", params: batch.adding("ops", .array(ops)), id: id)
        }
    }
}
