import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

extension ChangeVisit {
    /// The last stage of a change: who gets what of it. Planned before the change is applied (what each scoped
    /// reader holds is read from the layout as it was), then carried out on its outcomes: the requester's reply
    /// and, for the subscribers, one `layout.changed` line per width and viewport followed, every diff scoped and
    /// mapped to the screen.
    struct FanOut {
        /// The requester's route through the widths.
        let request: WidthRoute
        /// What the requester's viewport held before the change.
        let requestHold: ViewportHold?
        /// Each subscriber audience's route, and what its viewport held.
        private(set) var routes: [AudienceKey: WidthRoute] = [:]
        private(set) var holds: [AudienceKey: ViewportHold] = [:]
        /// Whether the requester's own diff lists item frames (it has no viewport).
        let ownFull: Bool
        /// The widths whose diffs list item frames for an unscoped subscriber.
        private(set) var full: Set<Double> = []
        /// The widths the change takes from a subscriber, which moves to the first width.
        private(set) var removed: Set<Double> = []

        /// Plans the fan-out of `changes[k]`, admitted as `admission`, to `audience`, from `layout` before the change.
        @inline(__always)
        init(
            _ changes: [LayoutChange], _ k: Int, _ admission: Admission, audience: [AudienceKey],
            before layout: borrowing LayoutWidths
        ) {
            let request = admission.route(changes[k].width)
            self.request = request
            let viewport = changes[k].viewport
            requestHold = viewport.map { layout.at(width: request.from)?.hold($0) } ?? nil
            ownFull = changes[k].wantsDiff && viewport == nil
            // A layout nobody watches (the usual case) skips the subscribers' bookkeeping altogether: building it
            // empty still cost calls and releases of empty collections, for every change.
            guard !audience.isEmpty else { return }
            for key in audience { routes[key] = admission.route(key.width) }
            for (key, route) in routes {
                if let viewport = key.viewport { holds[key] = layout.at(width: route.from)?.hold(viewport) }
            }
            for (key, route) in routes where key.viewport == nil && !route.isMove { full.insert(route.to) }
            removed = Set(routes.values.filter(\.isMove).map(\.from))
        }

        /// Whether the engine lists the item frames of the diff at `width`.
        @inline(__always)
        func listsItems(atWidth width: Double) -> Bool {
            (ownFull && width == request.to) || full.contains(width)
        }

        /// The requester's reply to `changes[k]`, applied to `layout` with `outcomes`, and the subscribers' event
        /// (nil when nobody subscribes); moves the subscribers of a removed width to the first.
        ///
        /// The layout is read only through members that copy nothing (an opaque call on `layout.first` copies the
        /// whole `Layout`, a retain of each of its arrays); what needs a width's `Layout` (a scoped diff, the
        /// subscribers' lines) is in functions of its own, so that the usual reply does not pay for that copy.
        @inline(__always)
        func finish(
            _ changes: [LayoutChange], _ k: Int, _ validated: ValidatedChange, _ outcomes: WidthOutcomes,
            on layout: LayoutWidths, subscribers: SubscriberList
        ) -> (reply: ChangeOutcome, event: ChangeEvent?) {
            let wantsDiff = changes[k].wantsDiff
            let mine = request.outcome(in: outcomes)
            // What the engine gives is in flow coordinates; every reply and event carries screen coordinates (a
            // no-op for a vertical layout: Geometry, "Horizontal feeds").
            let screen = layout.screen
            let own = requestHold.map { ownDiff(mine, hold: $0, validated, on: layout) }
            let size = layout.contentSize(atWidth: request.to) ?? layout.contentSize
            var reply = ChangeOutcome(seq: layout.seq, size: size, anchor: mine.anchor.map(screen.anchor))
            if wantsDiff { reply.diff = own ?? screen.diff(mine.diff) }
            guard !routes.isEmpty else { return (reply, nil) }
            let (event, encoded) = self.event(changes, k, validated, outcomes, on: layout, subscribers: subscribers)
            if wantsDiff, own == nil, let bytes = encoded[request] {
                reply.encoded = bytes
                reply.diff = nil
            }
            return (reply, event)
        }

        // MARK: Private

        /// The requester's diff scoped to what its viewport held (`requestHold`), on screen.
        @inline(never)
        private func ownDiff(
            _ mine: WidthOutcome, hold: ViewportHold, _ validated: ValidatedChange, on layout: LayoutWidths
        ) -> LayoutDiff {
            let target = layout.at(width: request.to) ?? layout.first
            return layout.screen.diff(
                target.scoped(mine.diff, hold: hold, commands: validated.commands, anchor: mine.anchor).diff)
        }

        /// The subscribers' event for `changes[k]`: one line per audience (each diff scoped and mapped to the
        /// screen), and each unscoped route's encoded diff, which the requester's reply may share.
        @inline(never)
        private func event(
            _ changes: [LayoutChange], _ k: Int, _ validated: ValidatedChange, _ outcomes: WidthOutcomes,
            on layout: LayoutWidths, subscribers: SubscriberList
        ) -> (ChangeEvent, [WidthRoute: [UInt8]]) {
            var event = ChangeEvent()
            var encoded: [WidthRoute: [UInt8]] = [:]
            var movedLines: [AudienceKey: [UInt8]] = [:]
            for (key, route) in routes {
                let outcome = route.outcome(in: outcomes)
                let there = layout.at(width: route.to) ?? layout.first
                let screen = there.screen
                let bytes: [UInt8]
                if let hold = holds[key] {
                    // A subscription's viewport moves only by `subscribe`: the requester's anchor is not the
                    // subscriber's.
                    bytes = ReplyEncoding.encodedDiff(
                        screen.diff(
                            there.scoped(outcome.diff, hold: hold, commands: validated.commands, anchor: nil).diff))
                } else if let cached = encoded[route] {
                    bytes = cached
                } else {
                    bytes = ReplyEncoding.encodedDiff(screen.diff(outcome.diff))
                    encoded[route] = bytes
                }
                let line = ReplyEncoding.changedEvent(
                    changes[k].layout, seq: there.seq, contentSize: there.contentSize, ops: changes[k].ops, diff: bytes,
                    anchor: outcome.anchor.map(screen.anchor))
                if route.isMove { movedLines[key] = line } else { event.lines[key] = line }
            }
            if !movedLines.isEmpty {
                for (session, key) in subscribers.moveToFirstWidth(from: removed) {
                    event.moved[session] = movedLines[key]
                }
            }
            return (event, encoded)
        }
    }
}
