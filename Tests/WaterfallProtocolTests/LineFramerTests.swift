import Testing
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The framer against the standard library's `split`, and by hand on the edge cases.
@Suite struct LineFramerTests {
    // MARK: Differential

    /// Chunk sizes the framer is fed with; `0` stands for the whole input at once.
    static let chunkSizes = [1, 2, 3, 7, 64, 4096, 0]

    @Test(arguments: chunkSizes)
    func matchesSplitOnRandomInputs(chunkSize: Int) {
        for seed in UInt64(1)...200 {
            var rng = SplitMix64(seed: seed)
            let limit = Int(rng.next() % 24) + 1
            let input = Self.randomInput(&rng)
            let expected = Self.reference(input, limit: limit)
            let actual = Self.frame(input, limit: limit, chunkSize: chunkSize)
            #expect(actual == expected, "seed \(seed), limit \(limit), chunk size \(chunkSize)")
            if actual != expected { return }
        }
    }

    /// Lines longer than a read are carried in buffers the framer reuses: each line handed out keeps its bytes,
    /// whether it is still held when later lines reuse a buffer (a request being applied) or dropped at once.
    @Test(arguments: [false, true])
    func longLinesKeepTheirBytesWhileBuffersAreReused(holding: Bool) {
        var rng = SplitMix64(seed: 9)
        let limit = 400_000
        var expected: [InputLine] = []
        var input: [UInt8] = []
        for k in 0..<12 {
            // Some over the limit, some short, most a few reads long; each its own bytes.
            let length = k == 5 ? limit + 10 : k == 8 ? 10 : 70_000 + Int(rng.next() % 250_000)
            let line = (0..<length).map { i in UInt8(ascii: "a") + UInt8((i &+ k &* 7) % 26) }
            input += line + [0x0A]
            expected.append(length > limit ? .tooLarge : .line(line[...]))
        }
        var framer = LineFramer(maxLineBytes: limit)
        var held: [InputLine] = []
        var offset = 0
        while offset < input.count {
            let end = min(offset + 60 * 1024, input.count)
            for line in framer.append(input[offset..<end]) {
                let index = held.count
                #expect(line == expected[index], "line \(index)")
                // Dropped lines are stood in for by their expected value, so indices stay aligned.
                held.append(holding ? line : expected[index])
            }
            offset = end
        }
        #expect(held == expected)
        #expect(framer.bufferedByteCount == 0)
    }

    /// Spare buffers are kept while long lines keep coming, and let go once the connection has nothing left to do,
    /// so an idle connection holds no more than its partial line; not while a line is carried.
    @Test func letsSparesGoWhenReleased() {
        var framer = LineFramer(maxLineBytes: 1 << 20)
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000) + [0x0A]
        let stream = Array(repeating: line, count: 4).joined() + line[..<50_000]
        var offset = 0
        while offset < stream.count {
            let end = min(offset + 30_000, stream.count)
            _ = framer.append(Array(stream[offset..<end]))
            offset = end
        }
        #expect(framer.bufferedByteCount == 50_000)
        // One buffer carries the fifth line, two wait for the lines after.
        #expect(framer.spareCapacity >= 2 * 100_000)
        _ = framer.releaseSpares()
        #expect(framer.spareCapacity >= 2 * 100_000)
        let lines = framer.append(Array(line[50_000...]))
        #expect(lines == [.line(line.dropLast())])
        _ = framer.releaseSpares()
        #expect(framer.spareCapacity == 0)
    }

    /// A client that writes a bulk load line by line has its reads end with a line about every other time, while the
    /// daemon is still busy with the lines before: such a chunk is no pause, and the spares stay for the next lines
    /// (dropped there, every line would be carried in fresh pages).
    @Test func keepsSparesWhenAChunkEndsWithItsLine() {
        var framer = LineFramer(maxLineBytes: 1 << 20)
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 100_000) + [0x0A]
        for _ in 0..<4 {
            _ = framer.append(Array(line[..<60_000]))
            #expect(framer.append(Array(line[60_000...])) == [.line(line.dropLast())])
        }
        #expect(framer.spareCapacity >= 2 * 100_000)
    }

    /// The newline search reads eight bytes at a time: a newline at every offset of a word, among bytes one bit
    /// away from it or with the high bit set, is found exactly.
    @Test func findsEveryNewlineAmongNearBytes() {
        let near: [UInt8] = [0x0B, 0x08, 0x8A, 0x00, 0xFF, 0x0E, 0x1A, 0x4A]
        for length in 0..<40 {
            for at in 0..<length {
                var input = (0..<length).map { near[($0 &* 5 &+ length) % near.count] }
                input[at] = 0x0A
                input.append(0x0A)
                let expected = Self.reference(input, limit: 100)
                #expect(Self.frame(input, limit: 100, chunkSize: 0) == expected, "length \(length), newline at \(at)")
                #expect(Self.frame(input, limit: 100, chunkSize: 9) == expected, "length \(length), newline at \(at)")
            }
        }
    }

    // MARK: Hand cases

    @Test func dropsCarriageReturnBeforeNewline() {
        #expect(Self.frame("ab\r\ncd\n", limit: 10) == [.line(bytes("ab")), .line(bytes("cd"))])
    }

    @Test func keepsCarriageReturnInsideALine() {
        #expect(Self.frame("a\rb\n\r\r\n", limit: 10) == [.line(bytes("a\rb")), .line(bytes("\r"))])
    }

    @Test func skipsEmptyLines() {
        #expect(Self.frame("\n\n\r\na\n\n", limit: 10) == [.line(bytes("a"))])
    }

    /// The Wire protocol article: lines of only spaces and tabs are ignored like empty ones; a line with anything else is kept.
    @Test func skipsLinesOfOnlySpacesAndTabs() {
        #expect(Self.frame("   \n\t\n \t \r\na\n \ta\n", limit: 10) == [.line(bytes("a")), .line(bytes(" \ta"))])
    }

    @Test(arguments: [1, 3, 0])
    func acceptsALineOfExactlyTheLimit(chunkSize: Int) {
        let expected: [InputLine] = [.line(bytes("abcd")), .line(bytes("efgh"))]
        #expect(Self.frame("abcd\nefgh\r\n", limit: 4, chunkSize: chunkSize) == expected)
    }

    @Test(arguments: [1, 3, 0])
    func refusesALineOfTheLimitPlusOne(chunkSize: Int) {
        let expected: [InputLine] = [.tooLarge, .tooLarge, .line(bytes("ok"))]
        #expect(Self.frame("abcde\nabcde\r\nok\n", limit: 4, chunkSize: chunkSize) == expected)
    }

    @Test func discardsAnOverlongLineSplitAcrossManyChunksWithoutBufferingIt() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(framer.append(bytes("first\nxx")) == [.line(bytes("first"))])
        for _ in 0..<1000 {
            #expect(framer.append([UInt8](repeating: 0x78, count: 97)).isEmpty)
            #expect(framer.bufferedByteCount <= 101)
        }
        #expect(framer.isDiscarding)
        #expect(framer.append(bytes("tail\nnext\n")) == [.tooLarge, .line(bytes("next"))])
        #expect(!framer.isDiscarding)
    }

    @Test func carriesATrailingPartialLine() {
        var framer = LineFramer(maxLineBytes: 100)
        #expect(framer.append(bytes("one\ntw")) == [.line(bytes("one"))])
        #expect(framer.bufferedByteCount == 2)
        #expect(framer.append(bytes("o")) == [])
        #expect(framer.append(bytes("\n")) == [.line(bytes("two"))])
        #expect(framer.append(bytes("three")) == [])
        framer.reset()
        #expect(framer.append(bytes("\n")) == [])
    }

    @Test func returnsSlicesOfTheChunkForWholeLines() {
        var framer = LineFramer(maxLineBytes: 100)
        let chunk = bytes("ab\ncd\n")
        let lines = framer.append(chunk)
        guard case .line(let second) = lines.last else {
            Issue.record("no line")
            return
        }
        #expect(second.startIndex == 3)
    }

    // MARK: Private

    /// Lines as the standard library splits them: what follows the last `\n` is not a line yet.
    private static func reference(_ input: [UInt8], limit: Int) -> [InputLine] {
        var pieces = input.split(separator: 0x0A, omittingEmptySubsequences: false)
        pieces.removeLast()
        return pieces.compactMap { piece in
            let line = piece.last == 0x0D ? piece.dropLast() : piece
            if line.isEmpty { return nil }
            return line.count > limit ? .tooLarge : .line(line)
        }
    }

    private static func frame(_ text: String, limit: Int, chunkSize: Int = 0) -> [InputLine] {
        frame(Array(text.utf8), limit: limit, chunkSize: chunkSize)
    }

    private static func frame(_ input: [UInt8], limit: Int, chunkSize: Int) -> [InputLine] {
        var framer = LineFramer(maxLineBytes: limit)
        var lines: [InputLine] = []
        let step = chunkSize == 0 ? max(input.count, 1) : chunkSize
        var offset = 0
        while offset < input.count {
            let end = min(offset + step, input.count)
            lines += framer.append(input[offset..<end])
            offset = end
        }
        return lines
    }

    /// Lines of random lengths (some far over any limit) with `\r` sprinkled in and around them.
    private static func randomInput(_ rng: inout SplitMix64) -> [UInt8] {
        let alphabet: [UInt8] = [0x61, 0x62, 0x0D, 0x7B, 0x22]
        var input: [UInt8] = []
        for _ in 0..<Int(rng.next() % 60) {
            let length = rng.next() % 8 == 0 ? Int(rng.next() % 200) : Int(rng.next() % 30)
            for _ in 0..<length { input.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) }
            input.append(0x0A)
        }
        for _ in 0..<Int(rng.next() % 5) { input.append(0x61) }
        return input
    }
}

private func bytes(_ text: String) -> ArraySlice<UInt8> {
    Array(text.utf8)[...]
}

/// A small seeded generator, so a failing seed can be replayed.
private struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
