import WaterfallProtocol
import WaterfallWire

/// A read's requests in the order they run, with each run of consecutive changes to one layout already gathered
/// into the visit that makes them (`LayoutRegistry.apply`).
///
/// Built as the lines are decoded, on the connection's thread: gathering the runs in the session's work would copy
/// each change out of the list of requests and into the run, a retain and a release of each of its strings and
/// arrays, on the thread that also places and encodes.
struct ReadPlan: Sendable {
    /// One step of a read's work.
    enum Step: Sendable {
        /// A request answered alone: anything but a change (`DecodedRequest.change` never comes here).
        case single(DecodedRequest)
        /// Consecutive changes to one layout, at most `LayoutRegistry.maxChangesPerVisit`, made in one visit.
        case changes([LayoutChange])
    }

    private(set) var steps: [Step] = []
    /// The changes of the run being gathered, and their layout.
    private var run: [LayoutChange] = []
    private var runLayout = ""

    init() {}

    /// Adds the next request of the read.
    mutating func append(_ request: consuming DecodedRequest) {
        switch consume request {
        case .change(let change):
            if !run.isEmpty, change.layout != runLayout || run.count >= LayoutRegistry.maxChangesPerVisit {
                endRun()
            }
            if run.isEmpty { runLayout = change.layout }
            run.append(change)
        case let other:
            endRun()
            steps.append(.single(other))
        }
    }

    /// The plan, once every request is added.
    consuming func finished() -> [Step] {
        endRun()
        return steps
    }

    private mutating func endRun() {
        guard !run.isEmpty else { return }
        steps.append(.changes(run))
        run = []
    }
}
