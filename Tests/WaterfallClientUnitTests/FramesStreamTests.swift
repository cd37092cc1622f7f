import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallClient

/// Reading a `layout.get` reply as it comes (`FramesStream`) against the general path (`JSONReader`, then
/// `ReplyDecoding.frames`): whatever it takes, in whatever pieces the line comes, it reads as the general path does,
/// and it leaves the rest.
@Suite struct FramesStreamTests {
    /// The general path's frames of `line`, or nil where it reads none (another reply, an error, a bad line).
    static func general(_ line: [UInt8]) -> LayoutFrames? {
        var reader = JSONReader()
        guard let root = try? reader.parse(line[...]).root, root["error"] == nil, let result = root["result"] else {
            return nil
        }
        return try? ReplyDecoding.frames(result)
    }

    /// The stream's frames of `line`, given in pieces ending at `cuts` (each a longer start of the line).
    static func streamed(_ line: [UInt8], cuts: [Int]) -> (id: Int64?, frames: LayoutFrames?) {
        var stream = FramesStream()
        for cut in cuts { line.withUnsafeBufferPointer { stream.advance(UnsafeBufferPointer(rebasing: $0[..<cut])) } }
        let frames = line.withUnsafeBufferPointer { stream.finish($0) }
        return (stream.id, frames)
    }

    /// Random cuts of a line of `count` bytes, in order.
    static func cuts(_ count: Int, _ random: inout SplitMix64) -> [Int] {
        var cuts: [Int] = []
        var at = 0
        while true {
            at += Int.random(in: 1...max(1, count / 8), using: &random)
            guard at < count else { return cuts }
            cuts.append(at)
        }
    }

    /// `layout.get` replies of random layouts (both axes, right to left, pinned headers, footers, ids), as the
    /// daemon writes them.
    static func replies(_ count: Int, seed: UInt64) async throws -> [[UInt8]] {
        var random = RandomCommands(seed: seed, maxItems: 40)
        random.axisChance = 0.3
        var lines: [[UInt8]] = []
        for k in 0..<count {
            guard let layout = try? await Layout.make(random.layout()).layout else { continue }
            var w = JSONWriter()
            var reply = try SnapshotReply(id: .int(Int64(k)), layout: layout, sections: nil)
            #expect(reply.write(&w, untilByteCount: .max))
            var line = w.takeBytes()
            if line.last == UInt8(ascii: "\n") { line.removeLast() }
            lines.append(line)
        }
        return lines
    }

    @Test func readsWhatTheDaemonWritesInAnyPiecesAsTheGeneralPathDoes() async throws {
        var random = SplitMix64(seed: 0x51f0_2207)
        var read = 0
        for (k, line) in try await Self.replies(150, seed: 0x0a11_0c8e).enumerated() {
            let expected = try #require(Self.general(line))
            for cuts in [[], Array(0..<line.count), Self.cuts(line.count, &random)] {
                let (id, frames) = Self.streamed(line, cuts: cuts)
                #expect(id == Int64(k))
                #expect(frames == expected, "\(String(decoding: line.prefix(300), as: UTF8.self))")
            }
            read += 1
        }
        #expect(read > 100)
    }

    /// Lines the stream must leave to the general path.
    static let left: [String] = [
        #"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"params.layout: no","data":{"kind":"not_found"}}}"#,
        #"{"jsonrpc":"2.0","method":"layout.changed","params":{"layout":"a","seq":2}}"#,
        #"{"jsonrpc":"2.0","id":"a","result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[]}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[],"more":1}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[{"section":0,"origin":0,"height":1,"count":0,"items":[],"x":1}]}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[{"section":0,"origin":0,"height":1,"count":1,"items":[{"i":0,"x":0,"y":0,"w":1,"h":1,"id":"a\u0062"}]}]}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[{"section":0,"origin":0,"height":1,"count":0,"header":null,"items":[]}]}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[{"section":0,"origin":0,"height":1,"width":1,"count":0,"items":[]}]}}"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[]}} x"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":1,"h":2},"sections":[{"section":0,"origin":0,"#,
        #"{"jsonrpc":"2.0","id":1,"result":{"seq":1.5,"contentSize":{"w":1,"h":2},"sections":[]}}"#,
        "",
    ]

    @Test(arguments: left)
    func leavesOtherLinesToTheGeneralPath(line: String) {
        let bytes = Array(line.utf8)
        var random = SplitMix64(seed: UInt64(bytes.count))
        #expect(Self.streamed(bytes, cuts: Self.cuts(bytes.count, &random)).frames == nil, "\(line)")
        #expect(Self.streamed(bytes, cuts: []).frames == nil, "\(line)")
    }

    /// Replies damaged a byte at a time: whatever the stream takes, the general path reads the same.
    @Test func agreesWithTheGeneralPathOnDamagedReplies() async throws {
        var random = SplitMix64(seed: 0xda3a_9ed0)
        let alphabet = Array(#"0123456789-.eE"{}[],: \ixyhwd"#.utf8) + [0x00, 0xC3]
        var taken = 0
        var left = 0
        for line in try await Self.replies(60, seed: 0xbad_11e5) where !line.isEmpty {
            for _ in 0..<20 {
                var damaged = line
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<damaged.count, using: &random)
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: damaged[at] = alphabet.randomElement(using: &random)!
                    case 1: damaged.remove(at: at)
                    default: damaged.insert(alphabet.randomElement(using: &random)!, at: at)
                    }
                }
                guard !damaged.isEmpty else { continue }
                let frames = Self.streamed(damaged, cuts: Self.cuts(damaged.count, &random)).frames
                if let frames {
                    taken += 1
                    #expect(frames == Self.general(damaged), "\(String(decoding: damaged.prefix(300), as: UTF8.self))")
                } else {
                    left += 1
                }
            }
        }
        #expect(taken > 0 && left > 0)
    }
}
