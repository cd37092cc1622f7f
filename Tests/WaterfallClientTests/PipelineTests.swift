import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport

/// `updateItems(pipelining:)`: many requests written as the window allows, their replies decoded into one buffer.
@Suite(.tags(.server)) struct PipelineTests {
    static let spec = LayoutSpec(
        width: 300, defaults: SectionProperties(columns: 3),
        sections: [SectionSpec(items: (0..<50).map { Item(height: Double(20 + $0 % 7)) })])

    /// The updates of a pipeline, for each window from one on: the results of the same updates made one call at a
    /// time on another layout, in the same order.
    @Test(arguments: [1, 2, 7, 256])
    func resultsAreThoseOfCallsOneAtATime(window: Int) async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("piped", Self.spec)
            _ = try await client.createLayout("called", Self.spec)
            let requests = (0..<300).map { k in
                [ItemUpdate(index: (k * 7) % 50, item: Item(height: Double(10 + k % 13)))]
                    + (k % 5 == 0 ? [ItemUpdate(index: 49, item: Item(height: Double(k)))] : [])
            }
            let piped = await client.updateItems(pipelining: requests, inSection: 0, of: "piped", window: window)
            var called: [MutationResult] = []
            for updates in requests { called.append(try await client.updateItems(updates, inSection: 0, of: "called")) }
            #expect(piped.count == requests.count)
            #expect(piped.map { try? $0.get() } == called.map { Optional($0) })
            #expect(piped.compactMap { try? $0.get().seq } == Array(2...301))
            #expect(try await client.frames(of: "piped") == (try await client.frames(of: "called")))
        }
    }

    /// A bulk load streamed in chunks of inserts: the frames of one insert of every item, each chunk's result that
    /// of the same insert made alone.
    @Test func insertsStreamABulkLoad() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let empty = LayoutSpec(width: 300, defaults: SectionProperties(columns: 3), sections: [SectionSpec()])
            _ = try await client.createLayout("piped", empty)
            _ = try await client.createLayout("whole", empty)
            let items = (0..<2_000).map { Item(height: Double(20 + ($0 * 37) % 180)) }
            let chunks = stride(from: 0, to: items.count, by: 125).map {
                (at: $0, items: Array(items[$0..<($0 + 125)]))
            }
            let results = await client.insertItems(pipelining: chunks, inSection: 0, of: "piped", window: 4)
            #expect(results.count == 16)
            #expect(results.compactMap { try? $0.get().seq } == Array(2...17))
            #expect(
                results.compactMap { try? $0.get().diff?.sections.first?.items.count }
                    == Array(repeating: 125, count: 16))
            _ = try await client.insertItems(items, at: 0, inSection: 0, of: "whole")
            // The same frames; only the seq differs (16 inserts against one).
            let (piped, whole) = (try await client.frames(of: "piped"), try await client.frames(of: "whole"))
            #expect(piped.sections == whole.sections && piped.contentSize == whole.contentSize)
            #expect(piped.seq == 17 && whole.seq == 2)
        }
    }

    /// A request the daemon refuses fails alone; those around it succeed.
    @Test func eachRequestHasItsOwnResult() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("f", Self.spec)
            let requests = (0..<40).map { k in [ItemUpdate(index: k % 10 == 3 ? 50 + k : k, item: Item(height: 30))] }
            let results = await client.updateItems(pipelining: requests, inSection: 0, of: "f", window: 8)
            for (k, result) in results.enumerated() {
                switch result {
                case .success: #expect(k % 10 != 3, "request \(k) succeeded")
                case .failure(let error): #expect(k % 10 == 3 && error.source == .daemon, "request \(k): \(error)")
                }
            }
            let empty = await client.updateItems(pipelining: [], inSection: 0, of: "f")
            #expect(empty.isEmpty)
        }
    }

    /// A daemon that never answers: every request sent times out, each with its own error, and the call returns.
    @Test func aSilentDaemonTimesEachRequestOut() async throws {
        try await SilentListener.withClient(timeout: .milliseconds(100)) { client in
            let requests = Array(repeating: [ItemUpdate(index: 0, item: Item(height: 1))], count: 20)
            let results = await client.updateItems(pipelining: requests, inSection: 0, of: "f", window: 8)
            #expect(results.count == 20)
            for result in results {
                guard case .failure(let error) = result else {
                    Issue.record("a reply from a silent daemon")
                    continue
                }
                #expect(error.source == .timeout && error.message == "no reply to items.update within 0.1 s")
            }
        }
    }

    /// Cancelling the caller stops the sending: the requests not sent fail with `cancelled`, and those sent (the
    /// first window) are still waited for, here until they time out.
    @Test func cancellingTheCallerStopsTheSending() async throws {
        try await SilentListener.withClient(timeout: .milliseconds(300)) { client in
            let requests = Array(repeating: [ItemUpdate(index: 0, item: Item(height: 1))], count: 20)
            let run = Task { await client.updateItems(pipelining: requests, inSection: 0, of: "f", window: 8) }
            try await Task.sleep(for: .milliseconds(50))
            run.cancel()
            let sources = await run.value.map { result -> WaterfallClientError.Source? in
                if case .failure(let error) = result { error.source } else { nil }
            }
            #expect(sources == Array(repeating: .timeout, count: 8) + Array(repeating: .cancelled, count: 12))
        }
    }

    /// A closed client: nothing is sent, and every request fails with the connection's end.
    @Test func aClosedClientFailsEveryRequest() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            client.close()
            let requests = Array(repeating: [ItemUpdate(index: 0, item: Item(height: 1))], count: 5)
            let results = await client.updateItems(pipelining: requests, inSection: 0, of: "f")
            #expect(results.count == 5)
            #expect(results.allSatisfy { if case .failure(let e) = $0 { e.source == .connection } else { false } })
        }
    }
}
