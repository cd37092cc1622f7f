@_spi(Package) import WaterfallJSON
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
    /// The requests of the read not added yet, counting the one being added.
    private var remaining: Int

    /// A plan for a read of `requests` lines.
    init(requests: Int) {
        remaining = requests
    }

    /// Decodes the read's next line with `reader` and adds its request.
    mutating func append(_ line: InputLine, reader: inout JSONReader, maxBatchOps: Int) {
        // The commonest line's change goes straight into the run, not through a `DecodedRequest` (a copy).
        if case .line(let bytes) = line, let change = DecodedRequest.quickChange(bytes) {
            append(change: change)
        } else if case .line(let bytes) = line {
            append(DecodedRequest(parsing: bytes, reader: &reader, maxBatchOps: maxBatchOps))
        } else {
            append(.tooLarge)
        }
    }

    /// Adds the next request of the read.
    mutating func append(_ request: consuming DecodedRequest) {
        switch consume request {
        case .change(let change):
            append(change: change)
        case let other:
            remaining -= 1
            endRun()
            steps.append(.single(other))
        }
    }

    /// The plan, once every request is added.
    consuming func finished() -> [Step] {
        endRun()
        return steps
    }

    // MARK: Private

    /// Adds the next request of the read, a change.
    private mutating func append(change: consuming LayoutChange) {
        defer { remaining -= 1 }
        if !run.isEmpty, change.layout != runLayout || run.count >= LayoutRegistry.maxChangesPerVisit {
            endRun()
        }
        if run.isEmpty {
            runLayout = change.layout
            // Room for the run this change may start at once: grown an element at a time, the array is copied into
            // each larger one, a change at a time.
            run.reserveCapacity(max(1, min(remaining, LayoutRegistry.maxChangesPerVisit)))
        }
        run.append(change)
    }

    private mutating func endRun() {
        guard !run.isEmpty else { return }
        steps.append(.changes(run))
        run = []
    }
}
