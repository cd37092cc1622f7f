import Foundation
import Testing
@_spi(Package) import WaterfallJSON

/// The reader against Foundation's `JSONSerialization` on generated documents (see ``FoundationOracle`` for
/// the differences excluded by name).
@Suite struct DifferentialTests {
    /// Documents per run; more with `WATERFALL_FUZZ_ITERATIONS`.
    static let documents = max(20_000, Int(ProcessInfo.processInfo.environment["WATERFALL_FUZZ_ITERATIONS"] ?? "") ?? 0)

    @Test(arguments: [0x00C0_FFEE as UInt64, 0xBADD_CAFE])
    func agreesWithFoundationOnGeneratedDocuments(seed: UInt64) throws {
        var generator = RandomJSON(rng: SplitMix64(seed: seed))
        var reader = JSONReader(maximumDepth: 512)
        var accepted = 0
        for iteration in 0..<(Self.documents / 2) {
            let bytes = Array(generator.document().utf8)
            let ours = Result { () throws(JSONError) in try reader.parse(bytes).root.value }
            let theirs = FoundationOracle.parse(bytes)
            let context =
                "seed \(seed) iteration \(iteration): \(String(decoding: bytes, as: UTF8.self).debugDescription)"
            switch (ours, theirs) {
            case (.success(let value), let object?):
                accepted += 1
                if let difference = FoundationOracle.difference(value, object) {
                    Issue.record("\(context): \(difference)")
                }
            case (.failure(let error), nil):
                // Both reject; the generator only makes out-of-range numbers invalid.
                #expect(error.reason == .numberOutOfRange, "\(context): \(error)")
            case (.success, nil):
                Issue.record("\(context): accepted here, rejected by Foundation")
            case (.failure(let error), _?):
                Issue.record("\(context): rejected here (\(error)), accepted by Foundation")
            }
        }
        #expect(accepted > Self.documents / 2 * 9 / 10)
    }
}
