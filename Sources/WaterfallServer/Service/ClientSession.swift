import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

/// One connection's requests: parses each line, runs its method, and writes the replies of one read together.
///
/// An actor so that its scratch buffers and subscriptions need no lock; the transport never calls `handle`
/// concurrently, so no request ever waits on another of the same connection here.
actor ClientSession: Session {
    let service: LayoutService
    let output: any OutputSink
    let peer: PeerCredentials
    var reader = JSONReader()
    /// Layouts this connection subscribed to (a superset after an overflow: the entry's list is the truth).
    var subscriptions: Set<String> = []

    init(service: LayoutService, output: any OutputSink, peer: PeerCredentials) {
        self.service = service
        self.output = output
        self.peer = peer
    }

    // MARK: Session

    func handle(_ lines: [InputLine]) async -> [UInt8] {
        var out = JSONWriter(capacity: 256 * lines.count)
        for line in lines {
            switch line {
            case .tooLarge:
                service.errors.add(1, ordering: .relaxed)
                let limit = service.limits.maxLineBytes
                ReplyEncoding.error(
                    &out, id: .none, ProtocolError(.tooLarge, "line: longer than the limit of \(limit) bytes"))
            case .line(let bytes):
                await handle(bytes, &out)
            }
        }
        return out.takeBytes()
    }

    func close() async {
        for name in subscriptions {
            service.store.entry(name)?.subscribers.remove(ObjectIdentifier(self))
        }
        subscriptions.removeAll()
    }

    // MARK: Private

    private func handle(_ line: ArraySlice<UInt8>, _ out: inout JSONWriter) async {
        service.requests.add(1, ordering: .relaxed)
        var id = RequestID.none
        var isNotification = false
        do throws(ProtocolError) {
            let document: JSONDocument
            do {
                document = try reader.parse(line)
            } catch {
                throw ProtocolError(.parseError, "line: \(error)")
            }
            let request = try Request(document, partialID: &id)
            isNotification = request.isNotification
            guard let method = request.knownMethod else {
                throw ProtocolError(.unknownMethod, "method: no method named \"\(request.method)\"")
            }
            if isNotification {
                // It runs and gets no reply (JSON-RPC): write its result where nobody reads it.
                var discarded = JSONWriter(capacity: 64)
                try await run(method, request, &discarded)
            } else {
                try await run(method, request, &out)
            }
        } catch {
            service.errors.add(1, ordering: .relaxed)
            if error.code == .internalError { service.logger.error("internal error: \(error.message)") }
            if !isNotification { ReplyEncoding.error(&out, id: id, error) }
        }
    }
}
