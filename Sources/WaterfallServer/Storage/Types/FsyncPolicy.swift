/// When journal writes are made durable (the config's `fsync`).
package enum FsyncPolicy: String, Sendable, CaseIterable {
    /// A commit returns once its records are on disk: one `fdatasync` per layout per commit (group commit: the
    /// changes of one read share it).
    case always
    /// Records are written at once (a process that dies loses nothing) and a thread of the store's own
    /// `fdatasync`s about once a second (a machine that dies loses at most about a second).
    case everysec
    /// Records are written at once and the kernel flushes when it likes.
    case never
}
