@_spi(Package) import WaterfallJSON
import WaterfallModel

/// One request line, read as far as it can be before it runs: parsed, its envelope checked and its params decoded.
///
/// The server decodes a read's lines on the connection's thread while the requests before still run, so that a
/// pipelining client's parsing and decoding overlap with the work of its changes.
package enum DecodedRequest: Sendable {
    /// A line over `maxLineBytes`.
    case tooLarge
    /// A line that failed before running (parse error, bad envelope, unknown method, bad params), with its method
    /// when it named a known one (for the metrics).
    case failed(RequestID, ProtocolError, isNotification: Bool, method: Method?)
    /// A change to one layout; its id is inside (a run of them is answered together).
    case change(LayoutChange)
    /// Any other method.
    case call(RequestID, isNotification: Bool, MethodCall)
    /// A JSON-RPC batch array of 1 to `maxBatchOps` elements, each decoded as a line of its own (never `tooLarge`
    /// nor `array`): independent requests, answered together in one array on one line.
    case array([DecodedRequest])

    // MARK: Lifecycle

    /// Reads `line`; `reader` is the connection's parser, `maxBatchOps` the limit on a batch (of the `batch`
    /// method's ops, and of a batch array's elements). The commonest request is read in one pass
    /// (`QuickRequest`); any other line is parsed and decoded in full (`init(parsing:reader:maxBatchOps:allowsArray:)`).
    /// `allowsArray` false reads an array as an invalid request (an element of a batch array).
    package init(_ line: InputLine, reader: inout JSONReader, maxBatchOps: Int, allowsArray: Bool = true) {
        guard case .line(let bytes) = line else {
            self = .tooLarge
            return
        }
        if let change = QuickRequest.itemsUpdate(bytes) {
            self = .change(change)
            return
        }
        self.init(parsing: bytes, reader: &reader, maxBatchOps: maxBatchOps, allowsArray: allowsArray)
    }

    /// The change `bytes` ask for when the one-pass reading takes them (`QuickRequest`), else nil: for a caller
    /// that gathers changes apart from other requests, and would copy a change out of the request it makes.
    package static func quickChange(_ bytes: ArraySlice<UInt8>) -> LayoutChange? {
        QuickRequest.itemsUpdate(bytes)
    }

    /// Reads the line `bytes` through the JSON parser and the methods' decoders: the general reading, which the one-pass
    /// reading of `QuickRequest` must agree with on every line it takes.
    package init(parsing bytes: ArraySlice<UInt8>, reader: inout JSONReader, maxBatchOps: Int, allowsArray: Bool = true)
    {
        var id = RequestID.none
        var isNotification = false
        var known: Method?
        do throws(ProtocolError) {
            let document = try Self.parse(bytes, &reader)
            if allowsArray, document.unsafeRoot.kind == .array {
                self = Self.batchArray(document, bytes, reader: &reader, maxBatchOps: maxBatchOps)
                return
            }
            var request = try Request(document, partialID: &id, isNotification: &isNotification)
            guard let method = request.knownMethod else { throw ProtocolError.unknownMethod(request.method) }
            known = method
            if request.document.hasHeightRuns && method != .change(.itemsInsert) {
                // Only `items.insert` reads `params.items` kept as heights (`JSONReader.readsHeightRuns`): for any
                // other method the line is read again as plain JSON, so its items meet the general decoder and
                // its errors. The bytes are the same, so the parse cannot fail this time.
                var general = JSONReader(maximumDepth: reader.maximumDepth)
                request = try Request(Self.parse(bytes, &general), partialID: &id, isNotification: &isNotification)
            }
            self = try Self.decode(method, request, maxBatchOps: maxBatchOps)
        } catch {
            let failure = known.map { error.suggestingField(of: $0) } ?? error
            self = .failed(id, failure, isNotification: isNotification, method: known)
        }
    }

    // MARK: Package

    /// Reads and checks a layout name: 1–128 bytes of `[A-Za-z0-9._:-]`.
    package static func layoutName(_ p: inout Params) throws(ProtocolError) -> String {
        let name = try p.string("layout")
        let bytes = name.utf8
        // Over the string's own storage: `allSatisfy` on the view would go through its generic iterator, a byte at
        // a time.
        let valid = bytes.withContiguousStorageIfAvailable { isLayoutName($0) } ?? isLayoutName(Array(bytes))
        guard valid else {
            let shown = bytes.count > 40 ? String(name.prefix(40)) + "…" : name
            throw .badParams("params.layout", "'\(shown)' is not 1–128 characters of A-Z a-z 0-9 . _ : -")
        }
        return name
    }

    // MARK: Private

    /// Parses a request line; its error is the request's.
    private static func parse(_ bytes: ArraySlice<UInt8>, _ reader: inout JSONReader) throws(ProtocolError)
        -> JSONDocument
    {
        do {
            return try reader.parse(bytes)
        } catch {
            throw ProtocolError(.parseError, "line: \(error)")
        }
    }

    /// Whether `bytes` are 1–128 of `[A-Za-z0-9._:-]`.
    static func isLayoutName(_ bytes: some Collection<UInt8>) -> Bool {
        guard !bytes.isEmpty && bytes.count <= 128 else { return false }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
    }

    /// The typed request of `method`, its params read and checked in full.
    private static func decode(
        _ method: Method, _ request: Request, maxBatchOps: Int
    ) throws(ProtocolError) -> DecodedRequest {
        var p = try Params(request.params, path: "params")
        switch method {
        case .change(let change):
            return .change(try self.change(change, request, &p, maxBatchOps: maxBatchOps))
        case .batch:
            return .change(try change(nil, request, &p, maxBatchOps: maxBatchOps))
        default:
            guard let declared = method.requestType else { throw ProtocolError.unknownMethod(method.rawValue) }
            let call = try declared.decodeCall(&p)
            return .call(request.id, isNotification: request.isNotification, call)
        }
    }

    /// The decoded change of a request of a changing method, or of `batch` when `method` is nil.
    private static func change(
        _ method: ChangeMethod?, _ request: Request, _ p: inout Params, maxBatchOps: Int
    ) throws(ProtocolError) -> LayoutChange {
        let name = try layoutName(&p)
        let wantsDiff = try p.optionalBool("diff") ?? true
        let anchor = try CommandDecoding.anchor(&p)
        let viewport = try CommandDecoding.viewport(&p)
        // `layout.configure`'s own `width` sets the layout's width: its result is at the first width after it.
        let width = method == .layoutConfigure ? nil : try CommandDecoding.frameWidth(&p)
        let commands: [LayoutCommand]
        let ops: AppliedOps
        if let method {
            commands = [try CommandDecoding.command(method, &p)]
            ops = .single(method: method, params: request.params?.rawBytes ?? [])
        } else {
            let opsNode = p.node("ops")
            let nodes = try p.array("ops")
            guard nodes.underestimatedCount <= maxBatchOps else {
                throw ProtocolError(
                    .limit, "params.ops: \(nodes.underestimatedCount) ops, over the limit of \(maxBatchOps)")
            }
            commands = try CommandDecoding.batch(nodes, "params.ops")
            ops = .batch(opsNode?.rawBytes ?? [])
        }
        try p.finish()
        return LayoutChange(
            id: request.id, isNotification: request.isNotification, layout: name, commands: commands, ops: ops,
            wantsDiff: wantsDiff, anchor: anchor, viewport: viewport, width: width)
    }
}

extension JSONReader {
    /// The reader for a connection's request lines (``DecodedRequest``): it keeps the items of a bulk
    /// `items.insert` as their heights (``JSONReader/readsHeightRuns``), one tape node per item where plain
    /// reading makes four.
    package static func forRequests() -> JSONReader {
        var reader = JSONReader()
        reader.readsHeightRuns = true
        return reader
    }
}
