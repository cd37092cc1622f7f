import Foundation
import Glibc
import Testing
import WaterfallLayout
import WaterfallTestSupport

@testable import WaterfallServer

/// SIGKILL at random moments: a child process (this test binary, running `writer`) commits changes as fast as it
/// can and prints each acknowledged seq; after each kill, recovery must hold at least the last acknowledged seq,
/// and exactly the layout the same deterministic changes build.
@Suite(.tags(.process)) struct StorageCrashTests {
    static let directoryVariable = "WATERFALL_CRASH_DIR"
    static let policyVariable = "WATERFALL_CRASH_POLICY"
    static let initial = LayoutSpec(width: 400, sections: [SectionSpec(items: [Item(height: 10)])])

    /// The next change: seeded by the seq the writer started from, so that the checker can replay it.
    static func nextChange(_ layout: inout LayoutWidths, _ random: inout RandomCommands) async -> LayoutCommand {
        while true {
            let counts = (0..<layout.first.sectionCount).map { layout.first.itemCount(inSection: $0) }
            let command = random.command(counts: counts)
            if (try? await layout.validateAndApply([command])) != nil { return command }
        }
    }

    /// Recovers, then commits changes until killed (in the child), printing `ack SEQ` after each commit; run in
    /// the test process itself (no variable set), it writes 200 changes and checks that they come back.
    @Test func writer() async throws {
        let environment = ProcessInfo.processInfo.environment
        let child = environment[Self.directoryVariable]
        let path = try child ?? makeTemporaryDirectory()
        defer { if child == nil { removeDirectory(path) } }
        let policy = environment[Self.policyVariable].flatMap(FsyncPolicy.init(rawValue:)) ?? .always
        let store = DurableStore(
            directory: try await lockedDirectory(path),
            options: StoreOptions(policy: policy, snapshotMinimumBytes: 20_000))
        var layout: LayoutWidths
        if let recovered = try await store.recover().first {
            layout = recovered.layout
        } else {
            layout = try await LayoutWidths.make(Self.initial).layouts
            try await store.commit([.created("a", seq: 1, spec: Self.initial)])
        }
        var random = RandomCommands(seed: UInt64(layout.seq), maxItems: 20)
        for _ in 0..<(child == nil ? 200 : Int.max) {
            let command = await Self.nextChange(&layout, &random)
            try await store.commit([.applied("a", seq: layout.seq, commands: [command])])
            store.snapshotIfDue("a", layout)
            let line = Array("ack \(layout.seq)\n".utf8)
            _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        }
        store.close()
        let again = DurableStore(directory: try await lockedDirectory(path))
        try await expectSame(try await again.recover(), ["a": layout])
        again.close()
    }

    @Test(arguments: FsyncPolicy.allCases)
    func killedWritersLoseNothingAcknowledged(policy: FsyncPolicy) async throws {
        let rounds = Environment.integer("WATERFALL_CRASH_ROUNDS") ?? 20
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var rng = SplitMix64(seed: 99)
        // The layout as the last recovery found it: each round's writer starts from there.
        var start: LayoutWidths?
        for round in 0..<rounds {
            let child = try ChildProcess(
                executable, ["--testing-library", "swift-testing", "--filter", "StorageCrashTests/writer"],
                environment: [Self.directoryVariable: path, Self.policyVariable: policy.rawValue])
            #expect(await eventually(within: 20) { child.standardOutput.contains("ack") }, "round \(round)")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...150, using: &rng)))
            child.signal(SIGKILL)
            _ = await child.waitForExit(within: 10)
            let acked = child.standardOutput.split(separator: "\n").compactMap { Int($0.dropFirst(4)) }.last ?? 0
            let store = DurableStore(directory: try await lockedDirectory(path))
            let recovered = try await store.recover()
            store.close()
            guard let layout = recovered.first?.layout else {
                Issue.record("round \(round): nothing recovered (acknowledged seq \(acked))")
                return
            }
            #expect(layout.seq >= acked, "round \(round), \(policy)")
            // The same deterministic changes from the round's start reach the recovered seq with the same inputs.
            var reference: LayoutWidths
            if let start {
                reference = start
            } else {
                reference = try await LayoutWidths.make(Self.initial).layouts
            }
            var random = RandomCommands(seed: UInt64(reference.seq), maxItems: 20)
            while reference.seq < layout.seq { _ = await Self.nextChange(&reference, &random) }
            try await expectSame(recovered, ["a": reference], "round \(round), \(policy)")
            start = layout
        }
    }
}
