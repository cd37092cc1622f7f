import Testing
import WaterfallWire

/// A method's identity: its own `==` compares cases, and agrees with comparing names.
@Suite struct MethodTests {
    @Test func methodsAreEqualExactlyWhenTheirNamesAre() {
        for a in Method.allCases {
            for b in Method.allCases {
                #expect((a == b) == (a.rawValue == b.rawValue), "\(a.rawValue) and \(b.rawValue)")
                #expect((Optional(a) != Optional(b)) == (a.rawValue != b.rawValue))
            }
        }
    }
}
