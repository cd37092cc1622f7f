@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

/// What `version` reports: the daemon, its protocol, and the limits a client may need to know.
package struct VersionReport: Sendable {
    package var server: String
    package var version: String
    /// A string that changes at every start of the daemon, so that a client can tell it restarted.
    package var instance: String
    /// Whether layouts survive a restart.
    package var durable: Bool
    /// The limits, by config key, in the order written.
    package var limits: [(key: StaticString, value: Int)]

    package init(
        server: String, version: String, instance: String, durable: Bool, limits: [(key: StaticString, value: Int)]
    ) {
        self.server = server
        self.version = version
        self.instance = instance
        self.durable = durable
        self.limits = limits
    }
}

/// What `stats` reports.
package struct StatsReport: Sendable {
    package var uptimeSeconds: Double = 0
    package var requests = 0
    package var errors = 0
    package var layouts = 0
    package var sections = 0
    package var items = 0
    package var subscriptions = 0
    /// The transport's counters: connections, bytes and lines.
    package var transport = TransportStats()
    package var residentBytes = 0
    /// Requests, errors and latency by method.
    package var tally = RequestTally()
    /// Events queued for subscribers, and subscribers dropped for reading too slowly.
    package var eventsSent = 0
    package var eventsDropped = 0
    /// Each layout's items and seq, by name.
    package var layoutRows: [LayoutSummary] = []
    /// The journal's and snapshots' counters; nil for an ephemeral daemon.
    package var storage: StorageStats?
    /// The open-file limit's shares and their use.
    package var descriptors = DescriptorStats()

    package init() {}
}

extension ReplyEncoding {
    /// `{"pong": true}`.
    package static func pong(_ w: inout JSONWriter, id: RequestID) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("pong", true)
            w.endObject()
        }
    }

    /// A result that is an empty object (`layout.drop`, `subscribe`, `unsubscribe`).
    package static func emptyResult(_ w: inout JSONWriter, id: RequestID) {
        result(&w, id: id, empty)
    }

    /// The `version` result.
    package static func version(_ w: inout JSONWriter, id: RequestID, _ report: VersionReport) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("server", report.server)
            w.member("version", report.version)
            w.member("protocol", VersionRequest.protocolVersion)
            w.member("instance", report.instance)
            w.member("durable", report.durable)
            w.key("limits")
            w.beginObject()
            for (key, value) in report.limits { w.member(key, value) }
            w.endObject()
            w.endObject()
        }
    }

    /// The `layout.export` result: `seq`, and the layout's inputs as `layout.create`'s params (without `layout`
    /// and `replace`), so that creating them under any name rebuilds the same frames.
    package static func layoutExport(_ w: inout JSONWriter, id: RequestID, seq: Int, spec: LayoutSpec) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("seq", seq)
            w.key("layout")
            w.write(.object(CommandEncoding.members(of: spec)))
            w.endObject()
        }
    }

    /// The `stats` result.
    package static func stats(_ w: inout JSONWriter, id: RequestID, _ s: StatsReport) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("uptimeSeconds", s.uptimeSeconds.rounded())
            w.member("requests", s.requests)
            w.member("errors", s.errors)
            w.member("layouts", s.layouts)
            w.member("sections", s.sections)
            w.member("items", s.items)
            w.member("subscriptions", s.subscriptions)
            w.key("connections")
            w.beginObject()
            w.member("open", s.transport.connectionsOpen)
            w.member("accepted", s.transport.connectionsAccepted)
            w.member("forbidden", s.transport.connectionsForbidden)
            w.member("overLimit", s.transport.connectionsOverLimit)
            w.member("closedSlow", s.transport.connectionsClosedSlow)
            w.endObject()
            w.member("bytesRead", s.transport.bytesRead)
            w.member("bytesWritten", s.transport.bytesWritten)
            w.member("linesRead", s.transport.linesRead)
            w.member("linesTooLarge", s.transport.linesTooLarge)
            w.key("memory")
            w.beginObject()
            w.member("residentBytes", s.residentBytes)
            w.endObject()
            w.key("events")
            w.beginObject()
            w.member("sent", s.eventsSent)
            w.member("dropped", s.eventsDropped)
            w.endObject()
            descriptors(&w, s.descriptors)
            methods(&w, s.tally)
            if let storage = s.storage { self.storage(&w, storage) }
            w.endObject()
        }
    }

    /// `stats`' per-method counts: requests, errors by kind, and the latency's sum and buckets (`le` in seconds,
    /// not cumulative), for the methods that were called.
    private static func methods(_ w: inout JSONWriter, _ tally: RequestTally) {
        w.key("methods")
        w.beginObject()
        let n = RequestTally.bucketBounds.count
        for row in 0..<RequestTally.rows where tally.requests[row] > 0 {
            w.key(string: RequestTally.name(ofRow: row))
            w.beginObject()
            w.member("requests", tally.requests[row])
            w.key("errors")
            w.beginObject()
            for (k, kind) in RequestTally.kinds.enumerated() {
                let count = tally.errors[row * RequestTally.kinds.count + k]
                if count > 0 { w.member(kind.kind, count) }
            }
            w.endObject()
            w.member("seconds", tally.seconds[row])
            w.key("buckets")
            w.beginArray()
            for k in 0..<n { w.value(tally.buckets[row * n + k]) }
            w.endArray()
            w.endObject()
        }
        w.endObject()
    }

    private static func descriptors(_ w: inout JSONWriter, _ d: DescriptorStats) {
        w.key("descriptors")
        w.beginObject()
        w.member("limit", d.limit)
        w.member("open", d.open)
        w.member("reserved", d.reserved)
        w.member("connections", d.connections)
        w.member("journals", d.journals)
        w.member("journalsOpen", d.journalsOpen)
        w.member("journalEvictions", d.journalEvictions)
        w.member("journalReopens", d.journalReopens)
        w.endObject()
    }

    private static func storage(_ w: inout JSONWriter, _ s: StorageStats) {
        w.key("storage")
        w.beginObject()
        w.member("journalBytes", s.journalBytes)
        w.member("syncs", s.syncs)
        w.member("syncSeconds", s.syncSeconds)
        w.member("snapshots", s.snapshots)
        w.member("snapshotSeconds", s.snapshotSeconds)
        w.member("recoverySeconds", s.recoverySeconds)
        w.endObject()
    }

    /// The `metrics` result: the Prometheus text and its media type.
    package static func metrics(_ w: inout JSONWriter, id: RequestID, _ s: StatsReport) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("contentType", MetricsRequest.contentType)
            w.member("text", PrometheusText.render(s))
            w.endObject()
        }
    }

    /// The `layout.list` result.
    package static func layoutList(_ w: inout JSONWriter, id: RequestID, _ rows: [LayoutSummary]) {
        result(&w, id: id) { w in
            w.beginObject()
            w.key("layouts")
            w.beginArray()
            for row in rows {
                w.beginObject()
                w.member("layout", row.layout)
                w.member("sections", row.sections)
                w.member("items", row.items)
                w.member("seq", row.seq)
                w.key("widths")
                w.beginArray()
                for width in row.widths { w.value(width) }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
    }

    /// The one line a refused connection gets before it is closed (`forbidden`, `limit`), with `"id": null`.
    package static func refusal(_ error: ProtocolError) -> [UInt8] {
        var w = JSONWriter(capacity: 160 + error.message.utf8.count)
        self.error(&w, id: .none, error)
        return w.takeBytes()
    }

    /// The result of a mutation as a reply, its diff either pre-encoded (shared with an event) or encoded in place,
    /// and its `anchor` when the request named one.
    package static func mutationResult(
        _ w: inout JSONWriter, id: RequestID, seq: Int, contentSize: Size, encodedDiff: [UInt8]?, diff: LayoutDiff?,
        anchor: AnchorOutcome? = nil
    ) {
        result(&w, id: id) { w in
            if let encodedDiff {
                mutation(&w, seq: seq, contentSize: contentSize, encodedDiff: encodedDiff[...], anchor: anchor)
            } else {
                mutation(&w, seq: seq, contentSize: contentSize, diff: diff, anchor: anchor)
            }
        }
    }
}
