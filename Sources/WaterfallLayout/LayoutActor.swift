/// The one owner of a layout's mutable state: mutations and reads of a layout are serialized here, and layouts
/// run in parallel with each other.
///
/// A mutation may suspend while a task group places sections; the actor is reentrant across that suspension, so a
/// small FIFO gate keeps a second request from seeing the layout half-changed.
public actor LayoutActor {
    private var layout: Layout
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    // MARK: Lifecycle

    public init(_ layout: Layout) {
        self.layout = layout
    }

    // MARK: Public

    /// Applies `commands` atomically and returns the diff and the layout as it now is.
    public func apply(_ commands: [LayoutCommand]) async throws(LayoutError) -> (diff: LayoutDiff, layout: Layout) {
        try await apply(commands) { ($0, $1) }
    }

    /// Applies `commands` atomically, then runs `commit` on the diff and the new layout before any other request
    /// to this layout runs, so that what `commit` publishes (events) goes out in the order of the changes.
    ///
    /// `listingItems` is asked inside the actor, after any change before: false leaves the item frames out of
    /// the diff; `namingOps` is as in `Layout.apply(_:listingItems:namingOps:)`.
    public func apply<T: Sendable>(
        _ commands: [LayoutCommand], listingItems: @Sendable () -> Bool = { true }, namingOps: Bool? = nil,
        commit: @Sendable (LayoutDiff, Layout) -> T
    ) async throws(LayoutError) -> T {
        await enter()
        defer { leave() }
        var working = layout
        // Release our reference so the working copy is unique and mutates in place.
        layout = Layout.empty
        do throws(LayoutError) {
            let diff = try await working.apply(commands, listingItems: listingItems(), namingOps: namingOps)
            // Swapped back, not copied: a copy would retain and release every array of the layout.
            swap(&layout, &working)
            return commit(diff, layout)
        } catch {
            swap(&layout, &working)
            throw error
        }
    }

    /// Runs `body` on the current layout, after any mutation in flight (and before any that comes after).
    public func read<T: Sendable>(_ body: @Sendable (Layout) -> T) async -> T {
        if busy {
            await enter()
            defer { leave() }
            return body(layout)
        }
        return body(layout)
    }

    /// Changes the resource limits for later commands.
    public func setLimits(_ limits: LayoutLimits) async {
        await enter()
        defer { leave() }
        layout.limits = limits
    }

    // MARK: Private

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func leave() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

extension Layout {
    /// A stand-in held by `LayoutActor` while the real layout is being changed.
    static let empty = Layout(placeholderWidth: 1)

    private init(placeholderWidth: Double) {
        self.init(
            width: placeholderWidth, scale: 0, direction: .ltr, minContentHeight: 0, defaults: SectionProperties(),
            limits: .default)
    }
}
