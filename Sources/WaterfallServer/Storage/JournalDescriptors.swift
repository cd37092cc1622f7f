import Foundation
import Glibc

/// The journal segments held open: at most `capacity` descriptors, the least recently used closed to make room
/// (as LevelDB's table cache keeps `max_open_files`), so that the descriptors a store uses do not grow with its
/// layouts.
///
/// A segment is opened when its layout is written and stays open while it is among the most recently used; a
/// write, sync or truncation *leases* the descriptor for the length of the system call, and a leased descriptor is
/// never closed under it. When every open descriptor is leased (more threads writing at once than the capacity)
/// the next caller waits for a lease to end.
final class JournalDescriptors: @unchecked Sendable {
    // MARK: Lifecycle

    init(capacity: Int, files: any FileOperations) {
        self.capacity = max(1, capacity)
        self.files = files
    }

    deinit {
        for slot in state.slots where slot.fd >= 0 { files.close(slot.fd) }
    }

    // MARK: Internal

    /// What the set holds, for `stats` and `metrics`.
    struct Counts: Sendable, Equatable {
        var capacity: Int
        var open: Int
        /// Segments opened again after they were closed to make room.
        var reopens: Int
        /// Descriptors closed to make room.
        var evictions: Int
    }

    let capacity: Int
    /// The system calls made on the descriptors.
    let files: any FileOperations

    var counts: Counts {
        condition.withLock {
            Counts(capacity: capacity, open: state.byKey.count, reopens: state.reopens, evictions: state.evictions)
        }
    }

    /// A key for a new segment, never given before.
    func newKey() -> UInt64 {
        condition.withLock {
            state.nextKey += 1
            return state.nextKey
        }
    }

    /// Creates the segment file at `path` (failing if it exists) and keeps it open under `key`.
    func create(_ key: UInt64, path: String) throws(StorageError) {
        _ = try lease(key, path: path, flags: O_WRONLY | O_CREAT | O_EXCL | O_APPEND, operation: "create")
        release(key)
    }

    /// Runs `body` with the descriptor of the segment `key` at `path`, opening it for appending first if it is
    /// not open.
    func withDescriptor<T>(
        _ key: UInt64, path: String, _ body: (Int32) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        let fd = try lease(key, path: path, flags: O_WRONLY | O_APPEND, operation: "open")
        defer { release(key) }
        return try body(fd)
    }

    /// Closes the segment `key` (at once, or when its lease ends): it is never written again.
    func close(_ key: UInt64) {
        condition.withLock {
            state.evicted.remove(key)
            guard let index = state.byKey[key] else { return }
            if state.slots[index].leases > 0 {
                state.slots[index].retired = true
            } else {
                free(index)
            }
        }
    }

    // MARK: Private

    private struct Slot {
        var key: UInt64 = 0
        var fd: Int32 = -1
        var leases = 0
        /// Closed when its last lease ends.
        var retired = false
        /// Towards the more and the less recently used slot; -1 at the ends.
        var newer = -1
        var older = -1
    }

    private struct State {
        var slots: [Slot] = []
        var unused: [Int] = []
        /// The open slots by key.
        var byKey: [UInt64: Int] = [:]
        /// The most and the least recently used open slot; -1 when none is open.
        var newest = -1
        var oldest = -1
        var nextKey: UInt64 = 0
        /// Keys closed to make room: opening one of them again counts as a reopen.
        var evicted: Set<UInt64> = []
        var reopens = 0
        var evictions = 0
    }

    private let condition = NSCondition()
    /// Under `condition`.
    private var state = State()

    /// The descriptor of `key`, leased: open already, or opened now in a free slot or the least recently used
    /// unleased one.
    private func lease(_ key: UInt64, path: String, flags: Int32, operation: String) throws(StorageError) -> Int32 {
        condition.lock()
        defer { condition.unlock() }
        // Checked again after each wait: another caller may have opened this very segment meanwhile.
        while true {
            if let index = state.byKey[key] {
                state.slots[index].leases += 1
                touch(index)
                return state.slots[index].fd
            }
            if state.byKey.count < capacity { break }
            if let victim = oldestUnleased() {
                state.evicted.insert(state.slots[victim].key)
                state.evictions += 1
                free(victim)
                break
            }
            condition.wait()
        }
        let index = state.unused.popLast() ?? appendSlot()
        let fd: Int32
        switch files.open(path, flags: flags, mode: 0o600) {
        case .success(let opened): fd = opened
        case .failure(let error):
            state.unused.append(index)
            throw .system(operation: operation, path: path, errno: error.code)
        }
        if state.evicted.remove(key) != nil { state.reopens += 1 }
        state.slots[index] = Slot(key: key, fd: fd, leases: 1)
        state.byKey[key] = index
        link(index)
        return fd
    }

    private func release(_ key: UInt64) {
        condition.withLock {
            guard let index = state.byKey[key] else { return }
            state.slots[index].leases -= 1
            guard state.slots[index].leases == 0 else { return }
            if state.slots[index].retired { free(index) }
            condition.signal()
        }
    }

    private func appendSlot() -> Int {
        state.slots.append(Slot())
        return state.slots.count - 1
    }

    /// The least recently used slot that no one is using.
    private func oldestUnleased() -> Int? {
        var index = state.oldest
        while index >= 0, state.slots[index].leases > 0 { index = state.slots[index].newer }
        return index >= 0 ? index : nil
    }

    /// Closes slot `index`'s descriptor and makes the slot free.
    private func free(_ index: Int) {
        let slot = state.slots[index]
        unlink(index)
        files.close(slot.fd)
        state.byKey[slot.key] = nil
        state.slots[index] = Slot()
        state.unused.append(index)
    }

    /// Makes `index` the most recently used.
    private func touch(_ index: Int) {
        guard state.newest != index else { return }
        unlink(index)
        link(index)
    }

    private func link(_ index: Int) {
        state.slots[index].older = state.newest
        state.slots[index].newer = -1
        if state.newest >= 0 { state.slots[state.newest].newer = index }
        state.newest = index
        if state.oldest < 0 { state.oldest = index }
    }

    private func unlink(_ index: Int) {
        let (newer, older) = (state.slots[index].newer, state.slots[index].older)
        if newer >= 0 { state.slots[newer].older = older } else { state.newest = older }
        if older >= 0 { state.slots[older].newer = newer } else { state.oldest = newer }
        state.slots[index].newer = -1
        state.slots[index].older = -1
    }
}
