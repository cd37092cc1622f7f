@_spi(Package) import WaterfallJSON

/// Seeded random JSON text with escapes, Unicode, odd number forms and whitespace, written independently of
/// `JSONWriter` so differential tests do not check the writer against itself.
struct RandomJSON {
    // MARK: Lifecycle

    /// A generator drawing from `rng`.
    init(rng: SplitMix64) {
        self.rng = rng
    }

    // MARK: Internal

    /// The generator's random source, exposed so callers can continue the same sequence.
    var rng: SplitMix64

    /// One document: a value (usually a container) with optional surrounding whitespace.
    mutating func document() -> String {
        whitespace() + value(depth: 0, container: rng.chance(0.85)) + whitespace()
    }

    /// A random value tree (numbers finite), for writer round trips.
    mutating func jsonValue(depth: Int = 0) -> JSONValue {
        let roll = Int.random(in: 0..<(depth < 4 ? 10 : 7), using: &rng)
        switch roll {
        case 0: return .null
        case 1: return .bool(rng.chance(0.5))
        case 2: return .int(Int64.random(in: .min ... .max, using: &rng) >> UInt64.random(in: 0...63, using: &rng))
        case 3: return .double(randomDouble())
        case 4, 5, 6: return .string(stringValue().decoded)
        case 7, 8:
            return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in jsonValue(depth: depth + 1) })
        default:
            var seen = Set<String>()
            var members: [(key: String, value: JSONValue)] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let key = stringValue().decoded
                if seen.insert(key).inserted { members.append((key, jsonValue(depth: depth + 1))) }
            }
            return .object(members)
        }
    }

    // MARK: Private

    /// Characters other than the escapes, in rough proportion to real payloads.
    private static let plain: [Unicode.Scalar] =
        Array("abcxyzAZ09 _-.:/'<>~".unicodeScalars) + [
            "\u{7F}", "\u{80}", "é", "ß", "\u{7FF}", "\u{800}", "€", "\u{FFFD}", "\u{FFFF}", "😀", "\u{10000}",
            "\u{10FFFF}", "\u{E000}", "\u{D7FF}",
        ]

    /// Optional JSON whitespace.
    private mutating func whitespace() -> String {
        guard rng.chance(0.3) else { return "" }
        return String((0..<Int.random(in: 1...3, using: &rng)).map { _ in rng.pick([" ", "\t", "\n", "\r"]) })
    }

    /// Text of a value; containers become rarer with depth.
    private mutating func value(depth: Int, container: Bool = false) -> String {
        let roll =
            container ? Int.random(in: 6...9, using: &rng) : Int.random(in: 0..<(depth < 5 ? 10 : 6), using: &rng)
        switch roll {
        case 0: return rng.pick(["null", "true", "false"])
        case 1, 2: return number()
        case 3, 4, 5: return stringValue().text
        case 6, 7:
            let elements = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
                whitespace() + value(depth: depth + 1) + whitespace()
            }
            return "[" + elements.joined(separator: ",") + whitespace() + "]"
        default:
            var seen = Set<String>()
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let key = stringValue()
                guard seen.insert(key.decoded).inserted else { continue }
                members.append(whitespace() + key.text + whitespace() + ":" + whitespace() + value(depth: depth + 1))
            }
            return "{" + members.joined(separator: ",") + whitespace() + "}"
        }
    }

    /// A string literal and its decoded value, mixing raw characters and every escape form.
    private mutating func stringValue() -> (text: String, decoded: String) {
        var text = "\""
        var decoded = ""
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let roll = Int.random(in: 0..<10, using: &rng)
            if roll < 6 {
                let scalar = rng.pick(Self.plain)
                text.unicodeScalars.append(scalar)
                decoded.unicodeScalars.append(scalar)
            } else if roll < 8 {
                let (escape, scalar) = rng.pick(
                    [
                        ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\u{8}"), ("\\f", "\u{C}"), ("\\n", "\n"),
                        ("\\r", "\r"), ("\\t", "\t"),
                    ] as [(String, Unicode.Scalar)])
                text += escape
                decoded.unicodeScalars.append(scalar)
            } else {
                let scalar = randomScalar()
                decoded.unicodeScalars.append(scalar)
                for unit in String(scalar).utf16 {
                    let hex = String(unit, radix: 16, uppercase: rng.chance(0.5))
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
            }
        }
        return (text + "\"", decoded)
    }

    /// Any scalar, biased toward the edges of the UTF-8 and UTF-16 encodings.
    private mutating func randomScalar() -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0...0x1F, 0x20...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF,
            0x10000...0x10FFFF,
        ]
        return Unicode.Scalar(UInt32.random(in: rng.pick(ranges), using: &rng))!
    }

    /// Number text in the RFC grammar, including long mantissas, big exponents and values out of range.
    private mutating func number() -> String {
        var text = rng.chance(0.3) ? "-" : ""
        if rng.chance(0.2) {
            text += "0"
        } else {
            text += String(Int.random(in: 1...9, using: &rng))
            text += digits(Int.random(in: 0...(rng.chance(0.1) ? 30 : 8), using: &rng))
        }
        if rng.chance(0.4) { text += "." + digits(Int.random(in: 1...(rng.chance(0.1) ? 25 : 6), using: &rng)) }
        if rng.chance(0.3) {
            text += rng.pick(["e", "E"]) + rng.pick(["", "+", "-"])
            text += String(Int.random(in: 0...(rng.chance(0.1) ? 400 : 30), using: &rng))
        }
        return text
    }

    /// `count` random decimal digits.
    private mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
    }

    /// A finite double: plain decimals, integers, and random bit patterns across the whole range.
    private mutating func randomDouble() -> Double {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return Double(Int.random(in: -100_000...100_000, using: &rng)) / 8
        case 1: return Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &rng))
        default:
            while true {
                let value = Double(bitPattern: rng.next())
                if value.isFinite { return value }
            }
        }
    }
}
