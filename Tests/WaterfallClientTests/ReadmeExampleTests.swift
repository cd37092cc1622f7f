import Foundation
import Testing
// README example begin
import WaterfallClient

/// Creates the layout "feed", then keeps a frame model in sync with it, whoever changes it, until it is dropped.
func follow(socket: String? = nil) async throws -> FrameModel {
    let client = try await WaterfallClient.connect(to: socket)  // nil: where waterfalld listens by default
    let spec = LayoutSpec(width: 375, sections: [SectionSpec(items: [Item(height: 120), Item(height: 80)])])
    _ = try await client.createLayout("feed", spec, replace: true)
    let events = try await client.subscribe("feed")
    var model = FrameModel(try await client.frames(of: "feed"))
    _ = try await client.insertItems([Item(height: 60, id: "new")], at: 2, inSection: 0, of: "feed")
    for try await case .changed(let change) in events {
        try model.apply(change)  // replays the ops on the indices, then applies the diff
        print("seq \(model.seq): \(model.itemCount) items, \(model.contentSize.height) points tall")
    }
    return model
}
// README example end

@Suite struct ReadmeExampleTests {
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
        let source = try String(contentsOf: here, encoding: .utf8)
        let readme = try String(
            contentsOf: here.deletingLastPathComponent().appendingPathComponent("../../README.md"), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "// README example begin"))
        let end = try #require(lines.firstIndex(of: "// README example end"))
        let block = lines[(start + 1)..<end].map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        #expect(readme.contains(block), "README.md must show the example of ReadmeExampleTests.swift verbatim")
    }
}
