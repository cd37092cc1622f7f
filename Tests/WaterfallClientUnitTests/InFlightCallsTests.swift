import Testing

@testable import WaterfallClient

@Suite struct InFlightCallsTests {
    @Test func repliesInOrderAnswerTheOldestEntry() {
        var calls = InFlightCalls<String>()
        calls.append(id: 1, "a")
        calls.append(id: 2, "b")
        #expect(calls.answer(1)?.call == "a")
        #expect(calls.answer(2)?.call == "b")
        #expect(calls.count == 0)
        #expect(calls.answer(3) == nil)
    }

    /// A call that ended early keeps its place until its reply comes, so that a reply with `"id": null` that comes
    /// after it is still matched to the request it answers.
    @Test func anEndedCallKeepsItsPlaceForAnIdlessReply() {
        var calls = InFlightCalls<String>()
        calls.append(id: 7, "cancelled")
        calls.append(id: 8, "waiting")
        #expect(calls.end(7) == "cancelled")
        #expect(calls.end(7) == nil)
        #expect(calls.count == 2)
        // The reply to 7 comes and finds no call; then the daemon answers 8 with no id.
        #expect(calls.answer(7).map { $0.id == 7 && $0.call == nil } == true)
        #expect(calls.answerOldest()?.call == "waiting")
        #expect(calls.answerOldest() == nil)
    }

    /// A reply read in one pass goes only to a call that takes it so: any other (one that wants the reply's node,
    /// or one that ended) keeps its entry for the reply read in full.
    @Test func aConditionalAnswerLeavesTheEntriesItDoesNotAccept() {
        var calls = InFlightCalls<String>()
        calls.append(id: 1, "node")
        calls.append(id: 2, "mutation")
        calls.append(id: 3, "ended")
        #expect(calls.end(3) == "ended")
        #expect(calls.answer(1, ifItsCall: { $0 == "mutation" }) == nil)
        #expect(calls.answer(3, ifItsCall: { _ in true }) == nil)
        #expect(calls.count == 3)
        #expect(calls.answer(2, ifItsCall: { $0 == "mutation" })?.call == "mutation")
        #expect(calls.answer(1)?.call == "node")
        #expect(calls.answer(3).map { $0.id == 3 && $0.call == nil } == true)
        #expect(calls.count == 0)
    }

    @Test func aReplyOutOfOrderFindsItsEntry() {
        var calls = InFlightCalls<String>()
        for id in 1...4 { calls.append(id: Int64(id), "call \(id)") }
        #expect(calls.answer(3)?.call == "call 3")
        #expect(calls.answer(1)?.call == "call 1")
        #expect(calls.answer(2)?.call == "call 2")
        #expect(calls.answer(4)?.call == "call 4")
        #expect(calls.count == 0)
    }

    /// Many calls through the ring, a few hundred in flight at a time (a pipelining client): every answer is the
    /// call of its id, whatever the storage did under it.
    @Test(arguments: [1, 255, 3_000])
    func aLongPipelineAnswersEveryCallOnce(inFlight: Int) {
        var calls = InFlightCalls<Int64>()
        var next: Int64 = 0
        var answered: Int64 = 0
        while answered < 10_000 {
            while calls.count < inFlight {
                calls.append(id: next, next)
                next += 1
            }
            let entry = calls.answer(answered)
            #expect(entry?.call == answered)
            answered += 1
        }
        #expect(calls.removeAll().count == inFlight - 1)
        #expect(calls.count == 0)
    }
}
