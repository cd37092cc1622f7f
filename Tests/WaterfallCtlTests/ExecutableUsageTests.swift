import Testing

/// Every executable of the package answers `--help` with its usage and exit 0, and refuses an unknown flag with one
/// line on stderr and exit 2, before doing any work (a mistyped flag must not start minutes of benchmark).
@Suite(.tags(.process)) struct ExecutableUsageTests {
    static let programs = ["waterfalld", "waterfallctl", "waterfall-bench"]

    @Test(arguments: programs)
    func helpPrintsTheUsage(_ program: String) async throws {
        try #require(BuiltBinary.path(program) != nil, "\(program) is not built")
        for flag in ["--help", "-h"] {
            let run = try await BuiltBinary.run(program, [flag], environment: ["PATH": "/usr/bin:/bin"])
            #expect(run.status == 0, "\(program) \(flag): \(run.err)")
            #expect(run.out.hasPrefix("usage: \(program) "), "\(program) \(flag)")
            #expect(run.err.isEmpty)
        }
    }

    @Test(arguments: programs)
    func anUnknownFlagIsOneLineAndStatus2(_ program: String) async throws {
        try #require(BuiltBinary.path(program) != nil, "\(program) is not built")
        for arguments in [["--onyl", "kernel"], ["--bogus"]] {
            let run = try await BuiltBinary.run(program, arguments, environment: ["PATH": "/usr/bin:/bin"])
            #expect(run.status == 2, "\(program) \(arguments)")
            #expect(run.out.isEmpty)
            #expect(run.err.hasPrefix("\(program): ") && run.err.filter { $0 == "\n" }.count == 1, "\(run.err)")
            #expect(run.err.contains("'\(arguments[0])'"))
        }
    }

    /// The benchmark checks its values before running anything too.
    @Test(arguments: [
        (["--only", "kernal"], "waterfall-bench: unknown scenario 'kernal'; the scenarios are kernel, "),
        (["--columns", "0"], "waterfall-bench: --columns: '0' is not a list of column counts in 1...1024"),
        (["--only"], "waterfall-bench: --only needs a value"),
        (["--quick=yes"], "waterfall-bench: --quick takes no value"),
        (["--report"], "waterfall-bench: --report needs a value (PATH)"),
    ])
    func theBenchmarkRefusesBadValues(_ arguments: [String], _ message: String) async throws {
        try #require(BuiltBinary.path("waterfall-bench") != nil, "waterfall-bench is not built")
        let run = try await BuiltBinary.run("waterfall-bench", arguments, environment: ["PATH": "/usr/bin:/bin"])
        #expect(run.status == 2 && run.out.isEmpty)
        #expect(run.err.hasPrefix(message) && run.err.filter { $0 == "\n" }.count == 1, "\(run.err)")
    }
}
