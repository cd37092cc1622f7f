import WaterfallModel

/// A layout at several widths (`layout.create`'s `widths`): one `Layout` per width, the same inputs laid out at
/// each, changed together as one value.
///
/// A change is validated once, on a shape that checks geometry and limits at every width, and applied to every
/// width with one seq (`LayoutWidths+Apply`): a change validated against the layout applies at every width, so
/// either all widths change or none does. The settings that hold at every width (limits, parallelism, grain) are
/// held here and handed to each width; each `Layout` knows only its own width.
public struct LayoutWidths: Sendable {
    /// The layout at the first width, the default of every method that returns frames.
    public internal(set) var first: Layout
    /// The layouts at the other widths, in the order of `widths`.
    var rest: [Layout]
    /// The resource limits of later commands, at every width (the item limit counts a frame per width).
    public var limits: LayoutLimits {
        didSet {
            let value = limits
            updateEachWidth { $0.limits = value }
        }
    }
    /// Whether a change may place widths, and sections within a width, in task groups (tests turn it off).
    public var allowsParallelism: Bool {
        didSet {
            let value = allowsParallelism
            updateEachWidth { $0.allowsParallelism = value }
        }
    }
    /// The fewest items worth a child task within a width (see `Layout.parallelGrain`).
    package var parallelGrain: Int {
        didSet {
            let value = parallelGrain
            updateEachWidth { $0.parallelGrain = value }
        }
    }
    /// Whether no item's height depends on the width (no aspect items), when known: what lets widths share the
    /// first width's placement (`LayoutWidths+SharedPlacement`); nil when unknown.
    var heightsIgnoreWidth: Bool?

    // MARK: Lifecycle

    /// Builds and places a layout at each of `spec.widths`; the diff (the first width's) lists every section as
    /// new.
    ///
    /// - Throws: `LayoutError` naming the first invalid field.
    /// - Complexity: that of `Layout.make`, per width; the widths are placed in parallel.
    public static func make(
        _ spec: LayoutSpec, limits: LayoutLimits = .default, allowsParallelism: Bool = true
    ) async throws(LayoutError) -> (layouts: LayoutWidths, diff: LayoutDiff) {
        var layouts = try empty(spec, limits: limits, allowsParallelism: allowsParallelism)
        let change = try layouts.validate([.insertSections(at: 0, sections: spec.sections)], namingOps: false)
        let diff = await layouts.perform(change, countsAsChange: false) { _ in true }[0].diff
        layouts.setSeq(1)
        return (layouts, diff)
    }

    /// Builds and places a layout at each of `spec.widths` whose version is `seq` (not 1): a layout restored from
    /// storage, whose next change must continue its numbering.
    ///
    /// Unlike `make`, it builds no diff: listing every frame of a large layout, only to drop it, would be a large
    /// share of a restore.
    ///
    /// - Throws: `LayoutError` naming the first invalid field (stored inputs were valid when stored, so this means
    ///   the limits shrank or the storage lies).
    public static func restored(
        _ spec: LayoutSpec, seq: Int, limits: LayoutLimits = .default, allowsParallelism: Bool = true
    ) async throws(LayoutError) -> LayoutWidths {
        var layouts = try empty(spec, limits: limits, allowsParallelism: allowsParallelism)
        try await layouts.replay([.insertSections(at: 0, sections: spec.sections)], seq: seq)
        return layouts
    }

    /// `layout` alone, at its one width.
    public init(_ layout: Layout) {
        self.init(first: layout, rest: [])
    }

    init(first: Layout, rest: [Layout]) {
        self.first = first
        self.rest = rest
        limits = first.limits
        allowsParallelism = first.allowsParallelism
        parallelGrain = first.parallelGrain
    }

    /// A layout with `spec`'s settings at each of its widths and no sections yet, after checking them.
    static func empty(
        _ spec: LayoutSpec, limits: LayoutLimits, allowsParallelism: Bool
    ) throws(LayoutError) -> LayoutWidths {
        let first = try Layout.empty(spec, limits: limits, allowsParallelism: allowsParallelism)
        return LayoutWidths(
            first: first,
            rest: spec.widths.dropFirst().map { width in
                var other = first
                other.width = width
                return other
            })
    }

    // MARK: Public

    /// Every width the layout is laid out at, the first first.
    public var widths: [Double] { [first.width] + rest.map(\.width) }

    /// How many widths the layout is laid out at.
    public var widthCount: Int { 1 + rest.count }

    /// The version, the same at every width: 1 after creation, one more for each successful change.
    @inlinable
    public var seq: Int { first.seq }

    /// Items plus sections plus columns at every width, a measure of the memory the layout holds (the daemon
    /// budgets it): a layout at k widths holds k frames per item.
    public var weight: Int { rest.reduce(first.weight) { $0 + $1.weight } }

    /// Everything `make` would need to rebuild the same frames at the same widths (see `Layout.spec`).
    ///
    /// - Complexity: O(items).
    public var spec: LayoutSpec {
        var spec = first.spec
        spec.widths = widths
        return spec
    }

    /// The layout at `width` (its frames, listings and queries are that width's), or nil when the layout is not laid
    /// out at that width.
    public func at(width: Double) -> Layout? {
        if width == first.width { return first }
        return rest.first { $0.width == width }
    }

    /// The content size at the first width.
    package var contentSize: Size { first.contentSize }

    /// How the first width's flow coordinates map to the screen (the same at every width).
    ///
    /// Always inlined, as `Layout.screen`: two fields, read in the daemon's visit of every change.
    @inlinable @inline(__always)
    package var screen: ScreenMapping { first.screen }

    /// The content size at `width` (`contentSize` of `at(width:)`, without copying the layout), or nil when the
    /// layout is not laid out at that width.
    public func contentSize(atWidth width: Double) -> Size? {
        width == first.width ? first.contentSize : rest.first { $0.width == width }?.contentSize
    }

    /// Checks `commands` (and `anchor`) against the layout as it is, at every width, without changing it (see
    /// `Layout.validate(_:anchor:namingOps:)`): the item and column limits count each width's frames.
    ///
    /// - Throws: `LayoutError` for the first invalid command, naming the field and the value.
    /// - Complexity: O(commands' size + sections × widths).
    public func validate(
        _ commands: [LayoutCommand], anchor: ItemPath? = nil, namingOps: Bool? = nil
    ) throws(LayoutError) -> ValidatedChange {
        try first.validate(commands, anchor: anchor, namingOps: namingOps, alongside: rest)
    }

    /// The widths the layout will have once `change` is applied.
    package func widths(after change: ValidatedChange) -> [Double] {
        Self.widths(after: change.commands) ?? widths
    }

    /// Whether the layout is at one width and stays there after `change` (no configure among its commands sets
    /// widths): the usual case, which needs no list of the widths.
    package func staysAtOneWidth(after change: ValidatedChange) -> Bool {
        rest.isEmpty && Self.widths(after: change.commands) == nil
    }

    /// The commands that put the layout back as it is now once `change` has been applied to it, the same at every
    /// width (see `Layout.undoing(_:)`).
    public func undoing(_ change: ValidatedChange) -> [LayoutCommand]? {
        first.undoing(change)
    }

    /// Applies the commands of several changes that were made one after another as if they were one change, at
    /// every width, and leaves the version at `seq`: what a layout rebuilt from a journal does.
    ///
    /// Each section the commands touch is placed once, from its first changed item (the sections in child tasks
    /// when there is enough work), rather than once per change: a journal of single-item updates in the middle of
    /// large sections otherwise re-places the rest of a section per record. The frames are those of applying the
    /// changes one by one, since frames depend only on the inputs.
    ///
    /// - Throws: `LayoutError` for the first command that does not apply; the layout is then unchanged.
    public mutating func replay(_ commands: [LayoutCommand], seq: Int) async throws(LayoutError) {
        let change = try validate(commands, namingOps: false)
        _ = await perform(change, countsAsChange: false) { _ in false }
        setSeq(seq)
    }

    // MARK: Internal

    /// Sets the version at every width.
    mutating func setSeq(_ value: Int) {
        updateEachWidth { $0.seq = value }
    }

    /// The widths `commands` leave when a configure among them sets widths; nil when they keep the layout's.
    static func widths(after commands: [LayoutCommand]) -> [Double]? {
        var result: [Double]?
        for case .configureLayout(let patch) in commands {
            if let widths = patch.resolvedWidths { result = widths }
        }
        return result
    }

    // MARK: Private

    private mutating func updateEachWidth(_ body: (inout Layout) -> Void) {
        body(&first)
        for k in rest.indices { body(&rest[k]) }
    }
}
