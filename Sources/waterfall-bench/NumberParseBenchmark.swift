import Glibc
@_spi(Package) import WaterfallJSON
import WaterfallTestSupport

/// Number conversion: `JSONView.double` on numbers as clients write them, against `Double(String)` on
/// the same texts and against the conversion before Eisel–Lemire (Clinger's fast path, else `Double(String)`).
enum NumberParseBenchmark {
    static func run(numbers: Int, runs: Int, table: inout Table) async {
        var rng = SplitMix64(seed: 42)
        // What JSON.stringify and Swift's description write for a random height: mostly 17 significant digits.
        let doubles = (0..<numbers).map { _ in Double.random(in: 20..<400, using: &rng).description }
        await measure("17-digit doubles in [20, 400)", doubles, runs: runs, table: &table)
        // Hand-written or rounded values: a few digits and a fraction.
        let decimals = (0..<numbers).map { _ in
            "\(Int.random(in: 0..<4_000, using: &rng)).\(Int.random(in: 1..<100, using: &rng))"
        }
        await measure("short decimals (120.5)", decimals, runs: runs, table: &table)
        let integers = (0..<numbers).map { _ in String(Int.random(in: 0..<20_000, using: &rng)) }
        await measure("integers (7, 120, 1044)", integers, runs: runs, isInteger: true, table: &table)
        let subnormals = (0..<numbers).map { _ in
            Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &rng)).description
        }
        await measure("subnormals", subnormals, runs: runs, table: &table)
        // Odd integers between 2^53 and 2^54 lie halfway between two doubles: an exact product settles them.
        let ties = (0..<numbers).map { _ in String((1 << 53) + 2 * UInt64.random(in: 0..<(1 << 52), using: &rng) + 1) }
        await measure("ties, 2^53 + odd", ties, runs: runs, table: &table)
        // Between 2^52 and 2^53 doubles are the integers, so n + 0.5 is a tie: Eisel–Lemire settles it by a
        // divisibility test; followed by a far nonzero digit it is just above one, which only the exact big-decimal
        // conversion can tell.
        let halves = (0..<numbers).map { _ in "\((1 << 52) + UInt64.random(in: 0..<(1 << 52), using: &rng)).5" }
        await measure("ties, 2^52 + n + 0.5", halves, runs: runs, table: &table)
        let aboveHalves = halves.map { $0 + "000000000000000000001" }
        await measure("2^52 + n + 0.5 + 10^-22 (exact conversion)", aboveHalves, runs: runs, table: &table)
    }

    /// Times the conversion of `texts` (one parsed array; the parse is not timed) three ways.
    ///
    /// Integers take the view's short-integer shortcut (up to 15 bytes), which both conversions share, so for them only
    /// `Double(String)` is compared.
    private static func measure(
        _ name: String, _ texts: [String], runs: Int, isInteger: Bool = false, table: inout Table
    ) async {
        let document: JSONDocument
        do {
            document = try JSONDocument(parsing: "[" + texts.joined(separator: ",") + "]")
        } catch {
            print("numparse: \(name): \(error)")
            return
        }
        var sink = 0.0
        // Several passes over one array that stays in cache, so that a run lasts milliseconds.
        let passes = 20
        let count = Double(texts.count * passes)
        let (ours, standard) = interleavedCPUTime(runs: runs) {
            document.withRoot { root in
                for _ in 0..<passes { for element in root.elements { sink += element.double ?? 0 } }
            }
        } _: {
            for _ in 0..<passes { for text in texts { sink += Double(text) ?? 0 } }
        }
        table.add(
            "numparse \(name)",
            "\(Format.seconds(ours / count)) per number (Double(String) \(Format.seconds(standard / count)))",
            "\(Format.ratio(standard / ours)) faster")
        guard !isInteger else { return }
        let (again, previous) = interleavedCPUTime(runs: runs) {
            document.withRoot { root in
                for _ in 0..<passes { for element in root.elements { sink += element.double ?? 0 } }
            }
        } _: {
            document.withRoot { root in
                for _ in 0..<passes { for element in root.elements { sink += PreviousConversion.double(element) } }
            }
        }
        if sink == 42 { print(sink) }
        table.add(
            "numparse \(name), before Eisel–Lemire",
            "\(Format.seconds(again / count)) per number (before: \(Format.seconds(previous / count)))",
            "\(Format.ratio(previous / again)) faster")
    }

    /// The median thread CPU times of `a` and `b` run in turn, `runs` times each after a warm-up of each.
    ///
    /// CPU time rather than `Measure`'s wall clock: these runs are short, and on a shared host a run that the
    /// scheduler suspends for a slice of another process's has its wall time stretched several times over.
    private static func interleavedCPUTime(runs: Int, _ a: () -> Void, _ b: () -> Void) -> (a: Double, b: Double) {
        func cpuTime(_ body: () -> Void) -> Double {
            let start = Measure.threadCPUSeconds()
            body()
            return Measure.threadCPUSeconds() - start
        }
        a()
        b()
        var times: (a: [Double], b: [Double]) = ([], [])
        for _ in 0..<runs {
            times.a.append(cpuTime(a))
            times.b.append(cpuTime(b))
        }
        return (times.a.sorted()[runs / 2], times.b.sorted()[runs / 2])
    }
}

/// A conversion without Eisel–Lemire, for comparison: Clinger's fast path for up to 19 digits
/// with a power of ten within ±22 and a mantissa up to 2^53, else `Double(String(decoding:))`. Compiled into the
/// benchmark, where it may be inlined into the timed loop, it is spared a call into WaterfallJSON.
private enum PreviousConversion {
    static func double(_ view: JSONView) -> Double {
        let bytes = view.rawBytes
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return .nan }
        let count = bytes.count
        var i = 0
        let isNegative = p[0] == UInt8(ascii: "-")
        if isNegative { i = 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var scale = 0
        var sawPoint = false
        while i < count {
            let byte = p[i]
            if byte == UInt8(ascii: ".") {
                sawPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                if mantissa != 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
                if significantDigits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0")) }
                if sawPoint { scale -= 1 }
            } else {
                break
            }
            i += 1
        }
        var exponent = 0
        if i < count {
            i += 1
            let isNegativeExponent = i < count && p[i] == UInt8(ascii: "-")
            if i < count && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) { i += 1 }
            while i < count {
                if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if isNegativeExponent { exponent = -exponent }
        }
        let power = scale + exponent
        if significantDigits <= 19 && mantissa <= 1 << 53 && power >= -22 && power <= 22 {
            let value = power < 0 ? Double(mantissa) / powersOfTen[-power] : Double(mantissa) * powersOfTen[power]
            return isNegative ? -value : value
        }
        if mantissa == 0 { return isNegative ? -0.0 : 0.0 }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
