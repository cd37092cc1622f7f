import Foundation

/// How tables write numbers: readably (at most two decimals) or exactly (`--exact`).
enum NumberStyle: Sendable {
    /// Integers as integers, others rounded to two decimals with trailing zeros dropped: `111.67`, `172.5`.
    case readable
    /// The shortest digits that read back as the same double: the number the daemon sent, as it wrote it.
    case exact

    /// `value` in this style.
    func text(_ value: Double) -> String {
        // Past 2^53 a double holds no fraction, and `Int` would need checking: the shortest digits say it best.
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        if value == value.rounded() { return String(Int(value)) }
        switch self {
        case .exact:
            return "\(value)"
        case .readable:
            // printf rounds the exact binary value, so 0.125 is 0.12 and 0.135 (just above) is 0.14, as it is.
            var text = String(format: "%.2f", value)
            while text.last == "0" { text.removeLast() }
            if text.last == "." { text.removeLast() }
            return text == "-0" ? "0" : text
        }
    }
}
