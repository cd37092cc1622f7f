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
