import Testing
import WaterfallJSON

/// Numbers formatted once and copied: the same text as formatting them in place, through values and fragments.
@Suite struct JSONNumberTextTests {
    static let values: [Double] = [
        0, -0.0, 10, 192.5, 172.5, 174.333_333_333_333_34, -1e-7, 1e300, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 9_007_199_254_740_992, -9_007_199_254_740_991, 330.666_666_666_666_7,
    ]

    @Test(arguments: values)
    func copiesTheTextTheWriterWrites(_ value: Double) {
        let text = JSONNumberText(value)
        var direct = JSONWriter(capacity: 16)
        direct.value(value)
        #expect(text.bytes == Array(direct.bytes))
        #expect(text.count == direct.byteCount)

        var copied = JSONWriter(capacity: 16)
        copied.beginArray()
        copied.value(text)
        copied.value(text)
        copied.fragment(maximumLength: 8 + 2 * JSONFragment.numberLength) { f in
            f.number(text)
            f.text(",")
            f.number(value)
        }
        copied.endArray()
        let one = String(decoding: direct.bytes, as: UTF8.self)
        #expect(String(decoding: copied.bytes, as: UTF8.self) == "[\(one),\(one),\(one),\(one)]")
    }

    @Test func splicesRawBytes() {
        var w = JSONWriter(capacity: 4)
        let member = Array(#""x":10,"w":172.5"#.utf8)
        w.beginArray()
        member.withUnsafeBytes { w.raw($0) }
        member.withUnsafeBytes { w.raw($0) }
        w.fragment(maximumLength: member.count + 2) { f in
            f.text("{")
            member.withUnsafeBytes { f.bytes($0) }
            f.text("}")
        }
        w.endArray()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"["x":10,"w":172.5,"x":10,"w":172.5,{"x":10,"w":172.5}]"#)
    }
}
