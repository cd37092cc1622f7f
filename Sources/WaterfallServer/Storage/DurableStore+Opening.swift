import Dispatch
import WaterfallLayout

extension DurableStore {
    /// What starting on a state directory found: the open store, the layouts it holds, and what repair did.
    package struct Opening: Sendable {
        package var store: DurableStore
        package var layouts: [RecoveredLayout]
        /// One line per repair action (empty unless repairing found damage).
        package var repairs: [String]
    }

    /// What the daemon does before it listens: resolves the state directory (`explicit`, else the environment;
    /// see `StateDirectory.resolve`), creates and locks it, and recovers its layouts, repairing first if asked.
    ///
    /// - Throws: `StorageError.inUse` naming the pid holding the directory, `.damaged` naming the file and offset
    ///   (without `repair`), `.unsupportedVersion`, `.noDirectory`, or `.system`.
    package static func open(
        directory explicit: String?, environment: [String: String], options: StoreOptions = StoreOptions(),
        repair: Bool = false, logger: Logger? = nil
    ) async throws(StorageError) -> Opening {
        guard let path = StateDirectory.resolve(explicit: explicit, environment: environment) else {
            throw .noDirectory
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let store = DurableStore(
            directory: try StateDirectory(path: path, files: options.files), options: options, logger: logger)
        do throws(StorageError) {
            var repairs: [String] = []
            let layouts: [RecoveredLayout]
            if repair {
                (layouts, repairs) = try await store.repair()
            } else {
                layouts = try await store.recover()
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let items = layouts.reduce(0) { $0 + $1.layout.first.itemCount }
            let kib = store.directory.diskUsage() / 1024
            logger?.info(
                "state directory \(path): \(layouts.count) layouts, \(items) items recovered in "
                    + "\((seconds * 1000).rounded() / 1000) s (fsync \(options.policy.rawValue)); \(kib) KiB on disk")
            return Opening(store: store, layouts: layouts, repairs: repairs)
        } catch {
            store.close()
            throw error
        }
    }
}
