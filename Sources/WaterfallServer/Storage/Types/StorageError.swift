import Glibc
import WaterfallStorageFormat

/// Why the state directory cannot be used, or a change cannot be made durable; each case names the path at fault.
package enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed: `operation` on `path` with `errno` (ENOSPC, EIO, EACCES, ...).
    case system(operation: String, path: String, errno: Int32)
    /// Another process holds the state directory's lock.
    case inUse(directory: String, pid: Int32?)
    /// A file's bytes are damaged or unreadable at `offset`: recovery refuses, `--repair` keeps what comes before.
    case damaged(path: String, offset: Int, reason: String)
    /// A file was written by a format version this build does not read.
    case unsupportedVersion(path: String, found: UInt16, supported: UInt16)
    /// A change names a layout the store holds no files for (the caller skipped its creation).
    case unknownLayout(String)
    /// No state directory was given and none can be derived from the environment.
    case noDirectory
    /// The store was closed (the daemon is stopping).
    case closed

    package var description: String {
        switch self {
        case .system(let operation, let path, let code):
            return "\(operation) \(path): \(String(cString: strerror(code)))"
        case .inUse(let directory, let pid):
            return "state directory \(directory) is in use by " + (pid.map { "pid \($0)" } ?? "another process")
        case .damaged(let path, let offset, let reason):
            return "\(path) is damaged at byte \(offset): \(reason) (waterfalld --repair keeps what comes before)"
        case .unsupportedVersion(let path, let found, let supported):
            return "\(path) has format version \(found); this build reads version \(supported)"
        case .unknownLayout(let name):
            return "no journal for layout '\(name)'"
        case .noDirectory:
            return "no state directory: give --state-dir or stateDirectory, or set STATE_DIRECTORY, XDG_STATE_HOME "
                + "or HOME (or run with --ephemeral)"
        case .closed:
            return "the store is closed"
        }
    }

    /// Whether the failure may pass by itself (space freed, a transient I/O error), so a later change may succeed.
    package var isTransient: Bool {
        if case .system = self { return true }
        return false
    }

    /// The storage error for a format error in the file at `path`.
    static func format(_ error: FormatError, path: String) -> StorageError {
        if case .unsupportedVersion(let found, let supported) = error {
            return .unsupportedVersion(path: path, found: found, supported: supported)
        }
        return .damaged(path: path, offset: error.offset ?? 0, reason: "\(error)")
    }
}
