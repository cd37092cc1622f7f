import WaterfallLayout
import WaterfallStorageFormat

/// One record for the store to journal, with the name of the layout it belongs to.
package struct JournalEntry: Sendable, Hashable {
    package var layout: String
    package var record: JournalRecord

    /// A layout made (or replaced) from `spec`, at `seq`.
    package static func created(_ layout: String, seq: Int, spec: LayoutSpec) -> JournalEntry {
        JournalEntry(layout: layout, record: .create(layout: layout, seq: seq, spec: spec))
    }

    /// `commands` applied to a layout as one change, taking it to `seq`.
    package static func applied(_ layout: String, seq: Int, commands: [LayoutCommand]) -> JournalEntry {
        JournalEntry(layout: layout, record: .apply(seq: seq, commands: commands))
    }

    /// A layout dropped.
    package static func dropped(_ layout: String) -> JournalEntry {
        JournalEntry(layout: layout, record: .drop(layout: layout))
    }
}

/// A layout read back from the state directory at start.
package struct RecoveredLayout: Sendable {
    package var name: String
    package var layout: LayoutWidths
}

/// How the store is set up.
package struct StoreOptions: Sendable {
    package var policy: FsyncPolicy
    /// No snapshot is taken before a layout's journal holds this many bytes (nor before it holds about the size
    /// of the layout's snapshot, so that the journal stays within twice the state).
    package var snapshotMinimumBytes: Int
    /// The limits layouts are rebuilt under at recovery.
    package var limits: LayoutLimits
    /// Journal segments kept open at once; the least recently written is closed to make room for another.
    package var maxOpenJournals: Int
    package var files: any FileOperations

    package init(
        policy: FsyncPolicy = .everysec, snapshotMinimumBytes: Int = 4 << 20, limits: LayoutLimits = .default,
        maxOpenJournals: Int = 1024, files: any FileOperations = SystemFileOperations()
    ) {
        self.policy = policy
        self.snapshotMinimumBytes = snapshotMinimumBytes
        self.limits = limits
        self.maxOpenJournals = maxOpenJournals
        self.files = files
    }
}
