import Testing
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The "did you mean" of unknown names: the nearest candidate when one is clearly nearest, else none.
@Suite struct NearestNameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var candidates: [String]
        var expected: String?
        var testDescription: String { "\(name) → \(expected ?? "none")" }
    }

    static let methods = Method.allCases.map(\.rawValue)
    static let configKeys = ["logLevel", "maxLayouts", "maxColumns", "maxLineBytes", "socket", "socketMode"]

    static let cases: [Case] = [
        // A swap of two neighbours is one edit.
        Case(name: "layout.craete", candidates: methods, expected: "layout.create"),
        Case(name: "layout.creat", candidates: methods, expected: "layout.create"),
        Case(name: "item.insert", candidates: methods, expected: "items.insert"),
        Case(name: "section", candidates: ["layout", "sections", "at"], expected: "sections"),
        Case(name: "sectons", candidates: ["layout", "sections", "at"], expected: "sections"),
        // Case alone is nearest of all, even among names one edit away.
        Case(name: "loglevel", candidates: configKeys, expected: "logLevel"),
        Case(name: "MAXLAYOUTS", candidates: configKeys, expected: "maxLayouts"),
        // Two equally near: no guess.
        Case(name: "maxColumn", candidates: ["maxColumns", "maxColumnz"], expected: nil),
        // Too far: a third of the length, at most 2.
        Case(name: "frobnicate", candidates: methods, expected: nil),
        Case(name: "lgLvel", candidates: configKeys, expected: "logLevel"),
        Case(name: "lgLvl", candidates: configKeys, expected: nil),
        // A short name is not matched to an unrelated short one.
        Case(name: "x", candidates: ["h", "w", "id"], expected: nil),
        Case(name: "H", candidates: ["h", "w", "id"], expected: "h"),
        Case(name: "", candidates: ["h"], expected: nil),
        Case(name: "--sokcet", candidates: ["--socket", "--json", "--config"], expected: "--socket"),
    ]

    @Test(arguments: cases) func nearest(_ c: Case) {
        #expect(NearestName.nearest(to: c.name, among: c.candidates) == c.expected)
    }

    @Test func hintEndsAMessage() {
        #expect(NearestName.hint(for: "layout.craete", among: Self.methods) == "; did you mean 'layout.create'?")
        #expect(NearestName.hint(for: "frobnicate", among: Self.methods) == "")
    }

    struct Distance: Sendable, CustomTestStringConvertible {
        var a: String
        var b: String
        var distance: Int
        var testDescription: String { "\(a) ↔ \(b)" }
    }

    @Test(arguments: [
        Distance(a: "", b: "abc", distance: 3),
        Distance(a: "abc", b: "abc", distance: 0),
        Distance(a: "abc", b: "acb", distance: 1),
        Distance(a: "kitten", b: "sitting", distance: 3),
        Distance(a: "ca", b: "abc", distance: 3),
        Distance(a: "section", b: "sections", distance: 1),
    ])
    func distance(_ d: Distance) {
        let a = Array(d.a.unicodeScalars)
        let b = Array(d.b.unicodeScalars)
        #expect(NearestName.distance(a, b) == d.distance)
        #expect(NearestName.distance(b, a) == d.distance)
    }
}
