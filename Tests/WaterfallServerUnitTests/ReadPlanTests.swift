import Testing
@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

@testable import WaterfallServer

/// How a read's requests are gathered into visits: consecutive changes to one layout, at most
/// `LayoutRegistry.maxChangesPerVisit` each, in request order, anything else alone.
@Suite struct ReadPlanTests {
    /// A one-item update of `layout`, with request id `id`.
    static func update(_ layout: String, id: Int) -> String {
        #"{"id":\#(id),"method":"items.update","params":{"layout":"\#(layout)","section":0,"items":[{"i":0,"h":5}]}}"#
    }

    /// The plan of `lines`, as (kind, layout or method, ids) per step.
    static func plan(_ lines: [String]) -> [String] {
        var reader = JSONReader()
        var plan = ReadPlan(requests: lines.count)
        for line in lines {
            plan.append(DecodedRequest(.line(Array(line.utf8)[...]), reader: &reader, maxBatchOps: 100))
        }
        return plan.finished().map { step in
            switch step {
            case .changes(let changes):
                "changes \(changes[0].layout) " + changes.map { "\($0.id)" }.joined(separator: ",")
            case .single(.call(let id, _, let call)): "call \(call.method) \(id)"
            case .single(.failed(let id, _, _, _)): "failed \(id)"
            case .single(.tooLarge): "tooLarge"
            case .single(.change(let change)): "a change alone \(change.id)"
            case .single(.array(let elements)): "array of \(elements.count)"
            }
        }
    }

    @Test func runsEndAtAnotherLayoutOrAnotherMethod() {
        let lines = [
            Self.update("a", id: 1), Self.update("a", id: 2), Self.update("b", id: 3),
            #"{"id":4,"method":"ping"}"#, Self.update("b", id: 5), "not json", Self.update("b", id: 6),
            Self.update("b", id: 7),
        ]
        #expect(
            Self.plan(lines) == [
                "changes a int(1),int(2)", "changes b int(3)", "call ping int(4)", "changes b int(5)", "failed none",
                "changes b int(6),int(7)",
            ])
    }

    @Test func aRunHoldsAtMostOneVisitsChanges() {
        let count = 2 * LayoutRegistry.maxChangesPerVisit + 1
        let plan = Self.plan((0..<count).map { Self.update("a", id: $0) })
        #expect(plan.count == 3)
        let sizes = plan.map { $0.split(separator: " ")[2].split(separator: ",").count }
        #expect(sizes == [LayoutRegistry.maxChangesPerVisit, LayoutRegistry.maxChangesPerVisit, 1])
        #expect(plan[2] == "changes a int(\(count - 1))")
    }

    @Test func aBatchArrayIsOneStepBetweenRuns() {
        let lines = [
            Self.update("a", id: 1), "[" + Self.update("a", id: 2) + "," + Self.update("a", id: 3) + "]",
            Self.update("a", id: 4),
        ]
        #expect(Self.plan(lines) == ["changes a int(1)", "array of 2", "changes a int(4)"])
    }

    @Test func aReadWithoutLinesPlansNothing() {
        #expect(Self.plan([]).isEmpty)
    }
}
