import WaterfallLayout
import WaterfallProtocol
import WaterfallStorageFormat
import WaterfallWire

/// The log of a durable daemon: the registry's records journaled by a `DurableStore`, its failures turned into
/// the protocol's `storage` error.
struct DurableLog: MutationLog {
    let store: DurableStore

    var isDurable: Bool { true }

    func reserve(_ name: String, bytes: Int) throws(ProtocolError) {
        do throws(StorageError) {
            try store.reserve(name, bytes: bytes)
        } catch {
            throw Self.refusal(error)
        }
    }

    func recordBound(_ change: ValidatedChange) -> Int { JournalRecord.encodedSizeBound(change.commands) }

    func commitNow(_ records: [MutationRecord]) throws(ProtocolError) {
        do throws(StorageError) {
            try store.commit(records.map(Self.entry))
        } catch {
            throw Self.refusal(error)
        }
    }

    func commit(_ records: [MutationRecord]) async throws(ProtocolError) {
        do throws(StorageError) {
            // Without fsync a commit is one write(2) into the page cache, cheaper than a hop: made here, on the
            // layout's visit, rather than paying two thread hops per visit. With `always` it waits for the disk,
            // so it goes to the layout's own queue, off the cooperative pool.
            if store.options.policy == .always {
                try await store.commit(records.map(Self.entry))
            } else {
                try write(records.map(Self.entry))
            }
        } catch {
            throw Self.refusal(error)
        }
    }

    func committed(_ name: String, _ layout: @autoclosure () -> LayoutWidths) {
        store.snapshotIfDue(name, layout())
    }

    /// The store's synchronous commit (from an async caller, which would otherwise get the async one).
    private func write(_ entries: [JournalEntry]) throws(StorageError) { try store.commit(entries) }

    /// The `storage` error for a change the store could not make durable.
    static func refusal(_ error: StorageError) -> ProtocolError {
        ProtocolError(.storage, "the change could not be made durable, nothing changed: \(error)")
    }

    static func entry(_ record: MutationRecord) -> JournalEntry {
        switch record {
        case .created(let layout, let seq, let spec): return .created(layout, seq: seq, spec: spec)
        case .applied(let layout, let seq, let change): return .applied(layout, seq: seq, commands: change.commands)
        case .dropped(let layout): return .dropped(layout)
        }
    }
}
