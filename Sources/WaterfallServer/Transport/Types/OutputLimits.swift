/// The limits on a connection's unsent output, from the config (`outputPauseBytes`, `outputStallSeconds`).
struct OutputLimits: Sendable, Equatable {
    /// Unsent bytes at which a finished read's successor waits, and a reply's producer waits for room.
    var pauseBytes: Int
    /// Unsent bytes below which held work goes on and room waiters are released: half of `pauseBytes`, so that a
    /// paused client is not flipped on every write.
    var resumeBytes: Int
    /// How long unsent output may make no progress before the connection is closed.
    var stallSeconds: Double

    init(pauseBytes: Int, resumeBytes: Int, stallSeconds: Double) {
        self.pauseBytes = pauseBytes
        self.resumeBytes = resumeBytes
        self.stallSeconds = stallSeconds
    }
}
