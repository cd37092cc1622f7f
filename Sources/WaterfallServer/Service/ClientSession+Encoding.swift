import Glibc
import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

/// The requests a change applied, as its `layout.changed` event repeats them.
enum AppliedOps: Sendable {
    /// One request: its method and its params, verbatim.
    case single(method: String, params: ArraySlice<UInt8>)
    /// A batch: its `ops` array, verbatim.
    case batch(ArraySlice<UInt8>)

    var isBatch: Bool {
        if case .batch = self { true } else { false }
    }
}

extension ClientSession {
    /// Reads and checks `layout`: 1–128 bytes of `[A-Za-z0-9._:-]`.
    static func layoutName(_ p: inout Params) throws(ProtocolError) -> String {
        let name = try p.string("layout")
        let bytes = name.utf8
        let valid =
            !bytes.isEmpty && bytes.count <= 128
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                    UInt8(ascii: "-"):
                    return true
                default:
                    return false
                }
            }
        guard valid else {
            let shown = bytes.count > 40 ? String(name.prefix(40)) + "…" : name
            throw .badParams("params.layout", "'\(shown)' is not 1–128 characters of A-Z a-z 0-9 . _ : -")
        }
        return name
    }

    static func missing(_ name: String) -> ProtocolError {
        ProtocolError(.notFound, "params.layout: layout '\(name)' does not exist")
    }

    /// The diff as bytes, encoded once for both the reply and the event.
    static func encode(_ diff: LayoutDiff) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + 64 * diff.sections.count)
        ReplyEncoding.diff(diff, &w)
        return w.takeBytes()
    }

    static func changedEvent(_ name: String, seq: Int, ops: AppliedOps, diff: [UInt8]) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + diff.count)
        ReplyEncoding.notification(&w, method: "layout.changed") { w in
            w.beginObject()
            w.member("layout", name)
            w.member("seq", seq)
            w.key("ops")
            switch ops {
            case .single(let method, let params):
                w.beginArray()
                w.beginObject()
                w.member("method", method)
                w.key("params")
                if params.isEmpty { ReplyEncoding.empty(&w) } else { w.raw(params) }
                w.endObject()
                w.endArray()
            case .batch(let raw):
                w.raw(raw)
            }
            w.key("diff")
            w.raw(diff[...])
            w.endObject()
        }
        return w.takeBytes()
    }

    static func overflowEvent(_ name: String) -> [UInt8] {
        event("subscription.overflow", name)
    }

    /// Tells the subscribers of a removed layout, and forgets them.
    static func publishDropped(_ entry: LayoutEntry) {
        let line = event("layout.dropped", entry.name)
        for sink in entry.subscribers.removeAll() { sink.send(line) }
    }

    static func version(_ config: Config, _ w: inout JSONWriter) {
        w.beginObject()
        w.member("server", BuildInfo.name)
        w.member("version", BuildInfo.version)
        w.member("protocol", 2)
        w.key("limits")
        w.beginObject()
        w.member("maxLineBytes", config.maxLineBytes)
        w.member("maxConnections", config.maxConnections)
        w.member("maxLayouts", config.maxLayouts)
        w.member("maxItemsPerLayout", config.maxItemsPerLayout)
        w.member("maxSectionsPerLayout", config.maxSectionsPerLayout)
        w.member("maxTotalItems", config.maxTotalItems)
        w.member("maxColumns", config.maxColumns)
        w.member("maxBatchOps", config.maxBatchOps)
        w.member("maxReplyItems", config.maxReplyItems)
        w.endObject()
        w.endObject()
    }

    /// The `stats` result.
    func stats() async -> [UInt8] {
        let entries = service.store.all()
        var sections = 0
        var items = 0
        var subscriptions = 0
        for entry in entries {
            let counts = await entry.layout.read { ($0.sectionCount, $0.itemCount) }
            sections += counts.0
            items += counts.1
            subscriptions += entry.subscribers.count
        }
        let transport = service.transport.snapshot()
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        w.member("uptimeSeconds", (MonotonicClock.now - service.started).rounded())
        w.member("requests", service.requests.load(ordering: .relaxed))
        w.member("errors", service.errors.load(ordering: .relaxed))
        w.member("layouts", entries.count)
        w.member("sections", sections)
        w.member("items", items)
        w.member("subscriptions", subscriptions)
        w.key("connections")
        w.beginObject()
        w.member("open", transport.connectionsOpen)
        w.member("accepted", transport.connectionsAccepted)
        w.member("forbidden", transport.connectionsForbidden)
        w.member("overLimit", transport.connectionsOverLimit)
        w.member("closedSlow", transport.connectionsClosedSlow)
        w.endObject()
        w.member("bytesRead", transport.bytesRead)
        w.member("bytesWritten", transport.bytesWritten)
        w.member("linesRead", transport.linesRead)
        w.member("linesTooLarge", transport.linesTooLarge)
        w.key("memory")
        w.beginObject()
        w.member("residentBytes", Self.residentBytes())
        w.endObject()
        w.endObject()
        return w.takeBytes()
    }

    // MARK: Private

    private static func event(_ method: StaticString, _ name: String) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        ReplyEncoding.notification(&w, method: method) { w in
            w.beginObject()
            w.member("layout", name)
            w.endObject()
        }
        return w.takeBytes()
    }

    /// The resident set size, from /proc/self/statm (pages × page size).
    private static func residentBytes() -> Int {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 127) }
        guard n > 0 else { return 0 }
        let fields = buffer[..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
