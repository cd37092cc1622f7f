import Foundation
import Testing
import WaterfallClient
import WaterfallServerTestSupport

@Suite(.tags(.server)) struct ReadmeExampleTests {
    @Test func theExampleFollowsTheLayoutUntilItIsDropped() async throws {
        try await InProcessDaemon.with { daemon in
            let follower = Task { try await follow(socket: daemon.path) }
            let client = try await WaterfallClient.connect(to: daemon.path)
            // Another connection changes the layout once the example's own insert is in, then drops it.
            while try await client.listLayouts().first?.seq != 2 { try await Task.sleep(for: .milliseconds(5)) }
            _ = try await client.deleteItems([0], inSection: 0, of: "feed")
            let expected = FrameModel(try await client.frames(of: "feed"))
            try await client.dropLayout("feed")
            let model = try await follower.value
            #expect(model.sections == expected.sections && model.seq == 3)
            #expect(model.sections[0].items.map { $0?.id } == [nil, "new"])
        }
    }

    @Test func theReadmeShowsTheExampleAsTested() throws {
        let here = URL(fileURLWithPath: #filePath)
        let example = here.deletingLastPathComponent().appendingPathComponent("ReadmeExample.swift")
        let source = try String(contentsOf: example, encoding: .utf8)
        let readme = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("../../README.md"), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "// README example begin"))
        let end = try #require(lines.firstIndex(of: "// README example end"))
        let block = lines[(start + 1)..<end].map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        #expect(readme.contains(block), "README.md must show the example of ReadmeExample.swift verbatim")
    }
}
