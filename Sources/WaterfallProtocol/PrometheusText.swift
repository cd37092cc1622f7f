import WaterfallWire

/// The daemon's metrics in Prometheus' text exposition format 0.0.4: a `# HELP` and a `# TYPE` line per metric,
/// then its samples, so that node_exporter's textfile collector or any agent that runs `waterfallctl metrics` can
/// read them.
///
/// Label values are method names, error kinds and layout names (`[A-Za-z0-9._:-]`), none of which needs escaping.
package enum PrometheusText {
    /// The whole exposition for `report`.
    package static func render(_ report: StatsReport) -> String {
        var text = Text()
        requests(report.tally, &text)
        text.gauge("waterfalld_uptime_seconds", "Seconds since the daemon started.", report.uptimeSeconds)
        text.gauge("waterfalld_resident_memory_bytes", "The daemon's resident memory.", report.residentBytes)
        let t = report.transport
        text.gauge("waterfalld_connections", "Connections open now.", t.connectionsOpen)
        text.counter("waterfalld_connections_accepted_total", "Connections accepted.", t.connectionsAccepted)
        text.counter(
            "waterfalld_connections_refused_total", "Connections refused, by reason.",
            [("reason=\"forbidden\"", t.connectionsForbidden), ("reason=\"limit\"", t.connectionsOverLimit)])
        text.counter(
            "waterfalld_connections_closed_slow_total", "Connections closed for output that made no progress.",
            t.connectionsClosedSlow)
        text.counter("waterfalld_read_bytes_total", "Bytes read from clients.", t.bytesRead)
        text.counter("waterfalld_written_bytes_total", "Bytes written to clients.", t.bytesWritten)
        text.counter("waterfalld_lines_total", "Request lines read.", t.linesRead)
        text.counter("waterfalld_lines_too_large_total", "Lines over maxLineBytes.", t.linesTooLarge)
        text.gauge("waterfalld_subscriptions", "Subscriptions now.", report.subscriptions)
        text.counter("waterfalld_events_sent_total", "Events queued for subscribers.", report.eventsSent)
        text.counter(
            "waterfalld_events_dropped_total", "Subscribers dropped for reading too slowly (subscription.overflow).",
            report.eventsDropped)
        text.gauge("waterfalld_layouts", "Layouts held.", report.layouts)
        text.gauge("waterfalld_sections", "Sections in all layouts.", report.sections)
        text.gauge("waterfalld_items", "Items in all layouts.", report.items)
        text.gauge(
            "waterfalld_layout_items", "Items of each layout.",
            report.layoutRows.map { ("layout=\"\($0.layout)\"", Double($0.items)) })
        text.gauge(
            "waterfalld_layout_seq", "The seq of each layout.",
            report.layoutRows.map { ("layout=\"\($0.layout)\"", Double($0.seq)) })
        descriptors(report.descriptors, &text)
        if let storage = report.storage { self.storage(storage, &text) }
        return text.lines
    }

    // MARK: Private

    private static func requests(_ tally: RequestTally, _ text: inout Text) {
        let rows = (0..<RequestTally.rows).filter { tally.requests[$0] > 0 }
        let method = { (row: Int) in "method=\"\(RequestTally.name(ofRow: row))\"" }
        text.counter(
            "waterfalld_requests_total", "Requests answered, by method.",
            rows.map { (method($0), tally.requests[$0]) })
        var errors: [(String, Int)] = []
        for row in rows {
            for (k, kind) in RequestTally.kinds.enumerated() {
                let count = tally.errors[row * RequestTally.kinds.count + k]
                if count > 0 { errors.append(("\(method(row)),kind=\"\(kind.kind)\"", count)) }
            }
        }
        text.counter("waterfalld_errors_total", "Requests that failed, by method and error kind.", errors)
        text.histogram(
            "waterfalld_request_duration_seconds",
            "From the read that brought a request to its reply in the output buffer, by method.",
            rows.map { row in
                let n = RequestTally.bucketBounds.count
                return (
                    method(row), Array(tally.buckets[row * n..<(row + 1) * n]), tally.seconds[row], tally.requests[row]
                )
            })
    }

    private static func descriptors(_ d: DescriptorStats, _ text: inout Text) {
        text.gauge("waterfalld_descriptor_limit", "The soft open-file limit in force.", d.limit)
        text.gauge("waterfalld_descriptors_open", "Descriptors open now.", d.open)
        text.gauge(
            "waterfalld_descriptor_budget", "The open-file limit's shares, by use.",
            [
                ("use=\"daemon\"", Double(d.reserved)), ("use=\"connections\"", Double(d.connections)),
                ("use=\"journals\"", Double(d.journals)),
            ])
        text.gauge("waterfalld_journals_open", "Layout journal files open now.", d.journalsOpen)
        text.counter(
            "waterfalld_journal_evictions_total", "Journal files closed to make room for another.", d.journalEvictions)
        text.counter(
            "waterfalld_journal_reopens_total", "Journal files opened again after they were closed to make room.",
            d.journalReopens)
    }

    private static func storage(_ s: StorageStats, _ text: inout Text) {
        text.counter("waterfalld_journal_bytes_total", "Bytes appended to journals.", s.journalBytes)
        text.histogram(
            "waterfalld_sync_duration_seconds", "fdatasync of journal segments and snapshot files.",
            [("", s.syncBuckets, s.syncSeconds, s.syncs)])
        text.counter("waterfalld_snapshots_total", "Snapshots written.", s.snapshots)
        text.counter("waterfalld_snapshot_seconds_total", "Seconds spent writing snapshots.", s.snapshotSeconds)
        text.gauge(
            "waterfalld_recovery_seconds", "Seconds the last start took to read its state back.", s.recoverySeconds)
    }

    /// The exposition being written.
    private struct Text {
        var lines = ""

        mutating func head(_ name: String, _ help: String, _ type: String) {
            lines += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }

        mutating func sample(_ name: String, _ labels: String, _ value: String) {
            lines += labels.isEmpty ? "\(name) \(value)\n" : "\(name){\(labels)} \(value)\n"
        }

        mutating func counter(_ name: String, _ help: String, _ value: Int) { counter(name, help, [("", value)]) }

        mutating func counter(_ name: String, _ help: String, _ value: Double) {
            head(name, help, "counter")
            sample(name, "", Self.number(value))
        }

        mutating func counter(_ name: String, _ help: String, _ samples: [(String, Int)]) {
            head(name, help, "counter")
            for (labels, value) in samples { sample(name, labels, String(value)) }
        }

        mutating func gauge(_ name: String, _ help: String, _ value: Int) { gauge(name, help, [("", Double(value))]) }

        mutating func gauge(_ name: String, _ help: String, _ value: Double) { gauge(name, help, [("", value)]) }

        mutating func gauge(_ name: String, _ help: String, _ samples: [(String, Double)]) {
            head(name, help, "gauge")
            for (labels, value) in samples { sample(name, labels, Self.number(value)) }
        }

        /// A histogram per label set: its buckets (not cumulative: this makes them so), sum and count.
        mutating func histogram(_ name: String, _ help: String, _ series: [(String, [Int], Double, Int)]) {
            head(name, help, "histogram")
            for (labels, buckets, sum, count) in series {
                let prefix = labels.isEmpty ? "" : labels + ","
                var cumulative = 0
                for (k, bound) in RequestTally.bucketBounds.enumerated() {
                    cumulative += buckets[k]
                    sample(name + "_bucket", "\(prefix)le=\"\(Self.number(bound))\"", String(cumulative))
                }
                sample(name + "_bucket", "\(prefix)le=\"+Inf\"", String(count))
                sample(name + "_sum", labels, Self.number(sum))
                sample(name + "_count", labels, String(count))
            }
        }

        /// A float as Go's `strconv.ParseFloat` reads it (Swift's shortest round-trip form).
        static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
    }
}
