import WaterfallLayout
import WaterfallWire

extension ResponsiveStylesheet {
    /// A length rounded as written: thousandths of a px and 1e-7 of the width (1e-5 %).
    struct Written: Hashable {
        var px: Int64
        var width: Int64

        static let zero = Written(px: 0, width: 0)

        init(px: Int64, width: Int64) {
            self.px = px
            self.width = width
        }

        init(_ length: LinearLength) {
            px = ResponsiveStylesheet.rounded(length.constant, decimals: 3)
            width = ResponsiveStylesheet.rounded(length.slope, decimals: 7)
        }
    }

    /// `value × 10^decimals` rounded (half away from zero), clamped to ±10^17 (far past any length Chromium lays
    /// out), 0 for NaN.
    ///
    /// Written for speed: it runs for every number of every piece, and neither a global table nor libm's `round` is
    /// free there.
    @inline(__always)
    static func rounded(_ value: Double, decimals: Int) -> Int64 {
        var scale = 1.0
        // Powers of ten are exact in a Double up to 10^22.
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value * scale
        guard scaled.isFinite else { return scaled.isNaN ? 0 : scaled > 0 ? Self.limit : -Self.limit }
        let clamped = min(max(scaled, -1e17), 1e17)
        return Int64(clamped < 0 ? clamped - 0.5 : clamped + 0.5)
    }

    private static let limit: Int64 = 100_000_000_000_000_000

    /// A length on its own: `12.5px`, `50%`, or `calc(12.5px + 50%)`, the percentage of the container's width
    /// (so only in properties whose percentages are of the containing block's width: `left`, `width`, margins,
    /// paddings); zero is `0`, or `0px` with `unit` (for a custom property that a `calc()` adds).
    mutating func appendLength(_ length: Written, unit: Bool) {
        if length.px != 0 && length.width != 0 {
            append("calc(")
            appendNumber(length.px, decimals: 3)
            append("px")
            append(length.width < 0 ? " - " : " + ")
            appendNumber(Int64(length.width.magnitude), decimals: 5)
            append("%)")
        } else if length.width != 0 {
            appendNumber(length.width, decimals: 5)
            append("%")
        } else {
            appendNumber(length.px, decimals: 3)
            if length.px != 0 || unit { append("px") }
        }
    }

    /// `value / 10^decimals` in decimal, without trailing zeros or a leading `0` before the point (`-.5`).
    mutating func appendNumber(_ value: Int64, decimals: Int) {
        if value < 0 { append(byte: UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let whole = magnitude / scale
        magnitude %= scale
        if whole != 0 || magnitude == 0 { appendDigits(whole, count: 0) }
        guard magnitude != 0 else { return }
        append(byte: UInt8(ascii: "."))
        var digits = decimals
        while magnitude % 10 == 0 {
            magnitude /= 10
            digits -= 1
        }
        appendDigits(magnitude, count: digits)
    }

    /// `value` in decimal, left-padded with zeros to `count` digits, written in place at the end of the text.
    private mutating func appendDigits(_ value: UInt64, count: Int) {
        var n = 1
        var rest = value / 10
        while rest != 0 {
            n += 1
            rest /= 10
        }
        let end = css.count + max(n, count)
        css.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(n, count)))
        rest = value
        css.withUnsafeMutableBufferPointer { text in
            for k in 1...n {
                text[end - k] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
    }
}
