import Synchronization

/// The store's layouts by name, shared with its sync thread.
final class LayoutTable: Sendable {
    private let map = Mutex<[String: LayoutFiles]>([:])

    func withLock<T>(_ body: (inout [String: LayoutFiles]) -> T) -> T { map.withLock { body(&$0) } }
}
