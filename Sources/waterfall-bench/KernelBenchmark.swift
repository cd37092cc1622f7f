import WaterfallLayout
import WaterfallTestSupport

/// Full layout of one large section against the tightest loop over raw arrays doing the same placement.
enum KernelBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        var random = SplitMix64(seed: 42)
        let heights = (0..<items).map { _ in Double(Int.random(in: 50...400, using: &random)) }
        let section = SectionSpec(items: heights.map { Item(height: $0) })
        for c in columns {
            var spec = LayoutSpec(width: 1000, defaults: SectionProperties(columns: c, columnSpacing: 4, rowSpacing: 4))
            spec.sections = [section]
            guard var layout = try? await Layout.make(spec, allowsParallelism: false).layout else { continue }
            let (placement, limit) = await Measure.interleaved(runs: runs) {
                await layout.placeEverything()
            } _: {
                _ = rawPlacement(heights, columns: c)
            }
            table.add(
                "kernel, \(items) items, \(c) columns",
                "\(Format.rate(Double(items) / placement)) (limit \(Format.rate(Double(items) / limit)))",
                "\(Format.ratio(limit / placement)) of the limit", "≥ 0.7× of the limit")
        }
    }

    /// Shortest-column placement as the tightest loop: preallocated outputs, a linear scan, nothing else.
    static func rawPlacement(_ heights: [Double], columns: Int) -> (ys: [Double], columns: [UInt16]) {
        var ys = [Double](repeating: 0, count: heights.count)
        var picks = [UInt16](repeating: 0, count: heights.count)
        var columnY = [Double](repeating: 0, count: columns)
        heights.withUnsafeBufferPointer { heights in
            ys.withUnsafeMutableBufferPointer { ys in
                picks.withUnsafeMutableBufferPointer { picks in
                    columnY.withUnsafeMutableBufferPointer { columnY in
                        for k in 0..<heights.count {
                            var best = 0
                            var minimum = columnY[0]
                            for j in 1..<columns where columnY[j] < minimum {
                                minimum = columnY[j]
                                best = j
                            }
                            ys[k] = minimum
                            picks[k] = UInt16(best)
                            columnY[best] = minimum + heights[k] + 4
                        }
                    }
                }
            }
        }
        return (ys, picks)
    }
}
