@_spi(Package) import WaterfallJSON
import WaterfallModel

/// What every mutating method answers: the layout's new version, its content size and, unless the request said
/// `"diff": false`, how the frames moved (the Diffs article).
public struct MutationResult: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    public var diff: LayoutDiff?
    /// Where the request's scroll anchor went; nil when it named none.
    public var anchor: AnchorOutcome?

    public init(seq: Int, contentSize: Size, diff: LayoutDiff?, anchor: AnchorOutcome? = nil) {
        self.seq = seq
        self.contentSize = contentSize
        self.diff = diff
        self.anchor = anchor
    }
}

/// The answer to a scoped `subscribe`: what a client that holds nothing needs to hold `viewport`'s elements at
/// `seq`, as a scoped diff (an entry for each section the viewport crosses). `WindowedModel` starts from one, and
/// moves to another when it scrolls.
public struct ViewportSnapshot: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    public var viewport: Viewport
    public var diff: LayoutDiff

    public init(seq: Int, contentSize: Size, viewport: Viewport, diff: LayoutDiff) {
        self.seq = seq
        self.contentSize = contentSize
        self.viewport = viewport
        self.diff = diff
    }
}

/// The result of `layout.get`: the frames of the sections asked for (all by default).
public struct LayoutFrames: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    /// Each with its pinned header's `pinMaxY`, if it has one.
    public var sections: [SectionFrames]

    public init(seq: Int, contentSize: Size, sections: [SectionFrames]) {
        self.seq = seq
        self.contentSize = contentSize
        self.sections = sections
    }
}

/// The result of `query`: the headers, items and footers in a rect.
public struct QueryResult: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    public var elements: [Element]
}

/// The result of `version`.
public struct ServerVersion: Sendable, Equatable {
    public var server: String
    public var version: String
    public var protocolVersion: Int
    /// Changes at every start of the daemon.
    public var instance: String
    /// Whether layouts survive a restart.
    public var durable: Bool
    /// The daemon's limits, as it names them.
    public var limits: JSONValue
}

/// The result of `stats`: counters whose set grows with the daemon, so they are kept as the daemon wrote them.
public struct ServerStats: Sendable, Equatable {
    public var values: JSONValue

    /// The integer at a dotted path (`"connections.open"`), if there is one.
    public subscript(path: String) -> Int? {
        var value: JSONValue? = values
        for key in path.split(separator: ".") { value = value?[String(key)] }
        switch value {
        case .int(let n)?: return Int(n)
        case .double(let d)?: return Int(exactly: d)
        default: return nil
        }
    }
}

/// The result of `layout.export`: a layout's inputs, which `layout.create` of them rebuilds.
public struct LayoutExport: Sendable, Hashable {
    public var seq: Int
    public var spec: LayoutSpec
}
