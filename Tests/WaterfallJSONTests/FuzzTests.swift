import Foundation
import Testing
@_spi(Package) import WaterfallJSON

/// Random byte mutations of valid documents: the reader never crashes, and accepts exactly what Foundation
/// accepts, apart from the documented differences in ``FoundationOracle``.
@Suite struct FuzzTests {
    /// Mutated documents per run; more with `WATERFALL_FUZZ_ITERATIONS`.
    static let cases = max(50_000, Int(ProcessInfo.processInfo.environment["WATERFALL_FUZZ_ITERATIONS"] ?? "") ?? 0)

    /// Bytes that matter to the grammar, so mutations reach interesting states more often than random bytes.
    static let interesting: [UInt8] =
        Array(#"{}[],:"\/ 0123456789eE.-+tfnu"#.utf8) + [
            0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ]

    @Test(arguments: [0xF022_0001 as UInt64, 0xF022_0002])
    func mutatedDocumentsAgreeWithFoundation(seed: UInt64) throws {
        var generator = RandomJSON(rng: SplitMix64(seed: seed))
        var corpus = (0..<200).map { _ in Array(generator.document().utf8) }
        var rng = generator.rng
        var reader = JSONReader(maximumDepth: 512)
        var rejections = 0
        for iteration in 0..<(Self.cases / 2) {
            var bytes = rng.pick(corpus)
            for _ in 0..<Int.random(in: 1...3, using: &rng) { mutate(&bytes, corpus: corpus, using: &rng) }
            let ours = Result { () throws(JSONError) in try reader.parse(bytes).root.value }
            let theirs = FoundationOracle.parse(bytes)
            // Written on failure only: describing the bytes costs more than parsing them.
            func context() -> String { "seed \(seed) iteration \(iteration): \(bytes)" }
            switch (ours, theirs) {
            case (.success(let value), let object?):
                if let difference = FoundationOracle.difference(value, object) {
                    Issue.record("\(context()): \(difference)")
                }
                if iteration % 7 == 0 { corpus[iteration % corpus.count] = bytes }
            case (.failure, nil):
                rejections += 1
            case (.success, nil):
                Issue.record("\(context()): accepted here, rejected by Foundation")
            case (.failure(let error), _?):
                rejections += 1
                if !FoundationOracle.isKnownStricter(error, in: bytes) {
                    Issue.record("\(context()): rejected here (\(error)), accepted by Foundation")
                }
            }
        }
        // The mutations must exercise both sides.
        #expect(rejections > Self.cases / 10 && rejections < Self.cases / 2 * 95 / 100)
    }

    /// Applies one random flip, overwrite, insertion, deletion or splice to `bytes`.
    private func mutate(_ bytes: inout [UInt8], corpus: [[UInt8]], using rng: inout SplitMix64) {
        let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0 where !bytes.isEmpty:
            bytes[position] ^= 1 << UInt8.random(in: 0...7, using: &rng)
        case 1 where !bytes.isEmpty:
            bytes[position] = rng.pick(Self.interesting)
        case 2:
            bytes.insert(
                rng.chance(0.8) ? rng.pick(Self.interesting) : UInt8.random(in: 0...255, using: &rng), at: position)
        case 3 where !bytes.isEmpty:
            bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...3, using: &rng)))
        case 4:
            let donor = rng.pick(corpus)
            guard !donor.isEmpty else { return }
            let start = Int.random(in: 0..<donor.count, using: &rng)
            let end = min(donor.count, start + Int.random(in: 1...16, using: &rng))
            bytes.insert(contentsOf: donor[start..<end], at: position)
        default:
            if !bytes.isEmpty { bytes.removeLast() }
        }
    }
}
