import WaterfallModel

/// The one owner of a layout's mutable state: mutations and reads of a layout are serialized here, and layouts
/// run in parallel with each other.
///
/// A mutation may suspend while a task group places sections; the actor is reentrant across that suspension, so a
/// small FIFO gate keeps a second request from seeing the layout half-changed.
public actor LayoutActor {
    private var layout: LayoutWidths
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    // MARK: Lifecycle

    public init(_ layout: LayoutWidths) {
        self.layout = layout
    }

    // MARK: Public

    /// Runs `body` on the layout, to change it (`LayoutWidths.apply`), with no other request to this layout in between:
    /// what `body` publishes (events) goes out in the order of the changes. A caller may make several changes in
    /// one visit (a pipelining client's consecutive requests), each with its own result.
    public func withLayout<T: Sendable>(_ body: @Sendable (inout LayoutWidths) async -> T) async -> T {
        await enter()
        defer { leave() }
        var working = LayoutWidths.empty
        // Swapped out and back rather than copied, so that the working copy is unique and mutates in place.
        swap(&layout, &working)
        let result = await body(&working)
        swap(&layout, &working)
        return result
    }

    /// Runs `body` on the current layout, after any mutation in flight (and before any that comes after).
    public func read<T: Sendable>(_ body: @Sendable (LayoutWidths) -> T) async -> T {
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

extension LayoutWidths {
    /// A stand-in held by `LayoutActor` while the real layout is being changed.
    static let empty = LayoutWidths(first: .empty, rest: [])
}

extension Layout {
    /// A stand-in for a layout taken out of its place while it changes.
    static let empty = Layout(placeholderWidth: 1)

    private init(placeholderWidth: Double) {
        self.init(
            width: placeholderWidth, scale: 0, direction: .ltr, minContentHeight: 0, defaults: SectionProperties(),
            limits: .default)
    }
}
