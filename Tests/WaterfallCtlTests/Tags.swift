import Testing

/// What a test needs beyond the process it runs in; these tests run serially, after the unit tests.
extension Tag {
    /// Runs the daemon in this process, on a Unix socket.
    @Tag static var server: Self
    /// Spawns a program of the package (the built `waterfalld` or `waterfallctl`) or another process.
    @Tag static var process: Self
    /// Runs a tool `.ci/run` installs (node, socat, python3 with aiorpcx, promtool, systemd-analyze, shells).
    @Tag static var tool: Self
}
