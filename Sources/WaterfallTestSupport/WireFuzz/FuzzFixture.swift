/// The daemon configuration and the layout every fuzz case starts from.
///
/// The limits are small so that a case can reach them (a count at the limit and one past it are among the values
/// tried), and `fsync` is `"never"`: a kill -9 loses nothing the kernel has, and fuzzing is not a disk test.
package enum FuzzFixture {
    package static let maxColumns = 64
    package static let maxItemsPerLayout = 2_000
    package static let maxSectionsPerLayout = 64
    package static let maxBatchOps = 32
    package static let maxLineBytes = 262_144

    /// The daemon's config file; at log level debug, so that its standard error says why each connection closed.
    package static let config = """
        {"fsync": "never", "logLevel": "debug", "maxColumns": \(maxColumns), "maxItemsPerLayout": \(maxItemsPerLayout),
         "maxSectionsPerLayout": \(maxSectionsPerLayout), "maxBatchOps": \(maxBatchOps),
         "maxLineBytes": \(maxLineBytes), "maxLayouts": 1000}
        """

    /// The built daemon at `executable` under this config, started in `directory` (on its state there, unless
    /// ephemeral), once it listens.
    package static func daemon(
        _ executable: String, in directory: String, durable: Bool
    ) throws(ChildProcess.SpawnError) -> DaemonProcess {
        let daemon = try DaemonProcess(
            DaemonProcess.Options(command: [executable], config: config, durable: durable), in: directory)
        try daemon.requireListening()
        return daemon
    }

    /// The items of each section of the fixture layout.
    package static let itemCounts = [4, 0, 5]

    /// `layout.create`'s params for the fixture (without `layout`): three sections of 4, 0 and 5 items, one with
    /// an adaptive column count, headers, footers, a pinned header, aspect items, a span and an id.
    package static let spec = FuzzJSON(
        #"""
        {"width":300,"scale":2,"minContentHeight":10,"defaults":{"columns":2,"rowSpacing":4},
         "sections":[
          {"items":[{"h":10},{"h":20,"w":10},{"h":30,"span":2},{"h":40,"id":"x"}]},
          {"minColumnWidth":50,"maxColumns":3,"headerHeight":10,"items":[]},
          {"columns":3,"pinHeader":true,"headerHeight":5,"footerHeight":5,
           "items":[{"h":1},{"h":2},{"h":3},{"h":4,"span":"full"},{"h":5}]}],
         "replace":true,"diff":false}
        """#)

    /// The name of fuzz slot `k`: each case of a round runs on a layout of its own.
    package static func slot(_ k: Int) -> String { "f\(k)" }

    /// A request line that (re)creates the fixture as `layout`.
    package static func createLine(_ layout: String, id: String) -> String {
        let params = spec.adding("layout", .string(layout), first: true)
        return #"{"jsonrpc":"2.0","id":"# + id + #","method":"layout.create","params":"# + params.text + "}"
    }
}
