import Testing
import WaterfallTestSupport

@testable import WaterfallLayout

/// The growth of the engine's appended arrays: by doubling while small, many times over once mapped, into a buffer
/// advised for huge pages once large; every element kept in order whichever way it grew.
struct ArrayGrowthTests {
    @Test func growsByDoublingThenManyTimesOverThenIntoHugePages() {
        var values: ContiguousArray<Double> = [1, 2, 3]
        values.reserveForAppend(values.capacity)
        #expect(values.capacity >= 6 && values.capacity < ContiguousArray<Double>.mapped)
        // Each growth of a full mapped array is many times over, the one that reaches 4 MiB into huge pages.
        var mapped = ContiguousArray<Double>((0..<ContiguousArray<Double>.mapped).map(Double.init))
        for _ in 0..<2 {
            while mapped.count < mapped.capacity { mapped.append(Double(mapped.count)) }
            let before = mapped.capacity
            mapped.reserveForAppend(1)
            #expect(mapped.capacity >= before * ContiguousArray<Double>.largeGrowth)
        }
        #expect(mapped.capacity >= ContiguousArray<Double>.hugePaged)
        #expect(mapped.elementsEqual((0..<mapped.count).lazy.map(Double.init)))
    }

    @Test func appendsPastTheHugePageSizeKeepEveryElementInOrder() {
        let count = ContiguousArray<Int32>.hugePaged + 1_000
        var list: ContiguousArray<Int32> = []
        var next: Int32 = 0
        while list.count < count {
            let step = min(10_000, count - list.count)
            list.reserveForAppend(step)
            let capacity = list.capacity
            for _ in 0..<step {
                list.append(next)
                next += 1
            }
            #expect(list.capacity == capacity, "an append past reserveForAppend's room grew the array again")
        }
        #expect(list.elementsEqual(0..<Int32(count)))
    }

    @Test func elementsThatAreReferencesMoveIntoHugePagesIntact() {
        let count = ContiguousArray<String>.hugePaged + 1
        var names = ContiguousArray((0..<count).map { "item \($0)" })
        names.reserveForAppend(ContiguousArray<String>.hugePaged)
        names.append("last")
        #expect(names.count == count + 1)
        #expect(names[0] == "item 0" && names[count - 1] == "item \(count - 1)" && names[count] == "last")
        // A copy taken before a growth keeps its own buffer.
        let copy = names
        names.reserveForAppend(names.capacity)
        names[0] = "changed"
        #expect(copy[0] == "item 0" && copy.count == count + 1)
    }

    @Test func aBulkLoadWhoseInputsMoveIntoHugePagesPlacesAsALayoutBuiltWhole() async throws {
        let heights = (0..<(ContiguousArray<ItemInput>.hugePaged + 5_000)).map { Double($0 * 37 % 101 + 10) }
        var layout = try await build(spec(width: 320, SectionProperties(columns: 3), heights: []))
        var at = 0
        for size in [10, heights.count - 20_010, 20_000] {
            _ = try await layout.validateAndApply([
                .insertItems(section: 0, at: at, items: plainItems(Array(heights[at..<(at + size)])))
            ])
            at += size
        }
        #expect(layout.itemCount(inSection: 0) == heights.count)
        let whole = try await build(spec(width: 320, SectionProperties(columns: 3), heights: heights))
        #expect(layout.frames(ofSection: 0) == whole.frames(ofSection: 0))
    }
}
