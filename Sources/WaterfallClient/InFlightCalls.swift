/// The calls written to the connection and not yet answered, in the order they were written.
///
/// Replies come in the order of their requests (the Wire protocol article), so a reply almost always answers the oldest entry:
/// taking it is O(1), with no hashing and no allocation once the ring has grown. A call that ended early
/// (cancelled, timed out) leaves its entry in place, without its completion, until its reply comes: a reply with
/// `"id": null` (a line the daemon could not read) is then still matched to the request it answers.
struct InFlightCalls<Call> {
    /// One request on the wire: its id, and its call while it waits.
    struct Entry {
        var id: Int64
        var call: Call?
    }

    /// Entries from `head` on are in flight; those before it are answered and kept for reuse of the storage.
    private var entries: [Entry] = []
    private var head = 0

    /// How many requests are on the wire without their reply (ended calls included).
    var count: Int { entries.count - head }

    /// Records a request just queued for writing.
    mutating func append(id: Int64, _ call: Call) {
        if head == entries.count {
            // Everything is answered: start over at the front, keeping the capacity.
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024 && head * 2 >= entries.count {
            // Amortized O(1): the answered front is dropped once it is at least half of the storage.
            entries.removeFirst(head)
            head = 0
        }
        entries.append(Entry(id: id, call: call))
    }

    /// Takes the entry answered by a reply with `id`: the oldest one, or (for a daemon that answered out of order)
    /// the one with that id wherever it is. Nil when no request has that id (an answer that came too late).
    mutating func answer(_ id: Int64) -> Entry? {
        guard head < entries.count else { return nil }
        if entries[head].id == id { return answerOldest() }
        guard let k = entries[head...].firstIndex(where: { $0.id == id }) else { return nil }
        let entry = entries[k]
        entries.remove(at: k)
        return entry
    }

    /// Takes the entry answered by a reply with `id`, as `answer(_:)` does, only when its call is one `accepts`:
    /// otherwise (an ended call, or one that wants the reply read another way) it stays for `answer(_:)`.
    mutating func answer(_ id: Int64, ifItsCall accepts: (Call) -> Bool) -> Entry? {
        guard head < entries.count else { return nil }
        let k = entries[head].id == id ? head : entries[head...].firstIndex { $0.id == id }
        guard let k, let call = entries[k].call, accepts(call) else { return nil }
        return answer(id)
    }

    /// The call of request `id`, left in place: the oldest entry's, or that of the entry with `id`.
    func call(of id: Int64) -> Call? {
        guard head < entries.count else { return nil }
        if entries[head].id == id { return entries[head].call }
        return entries[head...].first { $0.id == id }?.call
    }

    /// Takes the oldest entry (the request a reply with `"id": null` answers).
    mutating func answerOldest() -> Entry? {
        guard head < entries.count else { return nil }
        defer {
            entries[head].call = nil
            head += 1
        }
        return entries[head]
    }

    /// Takes the call of the request `id` out of its entry, which stays until its reply comes: the call ended
    /// without it (cancelled, timed out). Nil when that call is already over.
    mutating func end(_ id: Int64) -> Call? {
        guard let k = entries[head...].lastIndex(where: { $0.id == id }) else { return nil }
        defer { entries[k].call = nil }
        return entries[k].call
    }

    /// Takes every call still waiting (the connection is over), leaving none.
    mutating func removeAll() -> [Call] {
        defer {
            entries = []
            head = 0
        }
        return entries[head...].compactMap(\.call)
    }
}
