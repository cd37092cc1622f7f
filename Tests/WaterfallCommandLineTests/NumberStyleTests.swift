import Testing

@testable import WaterfallCommandLine

@Suite struct NumberStyleTests {
    @Test(arguments: [
        (111.66666666666667, "111.67", "111.66666666666667"),
        (172.5, "172.5", "172.5"),
        (510.25, "510.25", "510.25"),
        (375, "375", "375"),
        (0.1 + 0.2, "0.3", "0.30000000000000004"),
        (0.001, "0", "0.001"),
        (-0.001, "0", "-0.001"),
        (-12.345678, "-12.35", "-12.345678"),
        (1.999, "2", "1.999"),
        (1e20, "1e+20", "1e+20"),
    ])
    func writesNumbers(_ value: Double, readable: String, exact: String) {
        #expect(NumberStyle.readable.text(value) == readable)
        #expect(NumberStyle.exact.text(value) == exact)
    }
}
