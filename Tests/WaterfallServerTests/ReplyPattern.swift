/// A documented reply line: exact bytes, except that `…` stands for any one JSON value (an uptime, a byte count).
struct ReplyPattern: Sendable {
    /// Where a line first departs from the pattern.
    struct Difference: Sendable, Equatable {
        /// The byte offset in the actual line.
        var actualOffset: Int
        /// The byte offset in the documented line.
        var expectedOffset: Int
    }

    var text: String

    init(_ text: String) { self.text = text }

    /// Nil when `line` matches, else where it first differs.
    func firstDifference(in line: String) -> Difference? {
        let expected = Array(text.utf8)
        let actual = Array(line.utf8)
        var i = 0
        var j = 0
        while i < expected.count {
            if expected[i...].starts(with: Self.wildcard) {
                guard let end = Self.endOfValue(in: actual, from: j) else {
                    return Difference(actualOffset: j, expectedOffset: i)
                }
                i += Self.wildcard.count
                j = end
                continue
            }
            guard j < actual.count, actual[j] == expected[i] else {
                return Difference(actualOffset: j, expectedOffset: i)
            }
            i += 1
            j += 1
        }
        return j == actual.count ? nil : Difference(actualOffset: j, expectedOffset: i)
    }

    // MARK: Private

    private static let wildcard = Array("…".utf8)

    /// The offset just past the JSON value that starts at `start`, or nil when none starts there.
    private static func endOfValue(in bytes: [UInt8], from start: Int) -> Int? {
        var k = start
        var depth = 0
        var inString = false
        while k < bytes.count {
            let byte = bytes[k]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    k += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return k + 1 }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return k > start ? k : nil }
                    depth -= 1
                    if depth == 0 { return k + 1 }
                case UInt8(ascii: ","):
                    if depth == 0 { return k > start ? k : nil }
                default: break
                }
            }
            k += 1
        }
        return depth == 0 && !inString && k > start ? k : nil
    }
}
