/// The fuzz table: every method × every number field of its template (nested ones included) × extreme values,
/// each in every form the method allows, then each method's request id × the same values.
package enum WireFuzzTable {
    /// The values tried in every number field, as JSON text: the Int64 and Int32 bounds and one past them (past
    /// Int64, as text no Int64 holds), the fixture's counts and one past them (3 sections; 4 and 5 items), the
    /// configured limits and one past them, zeros of both signs, huge, tiny and overflowing doubles, fractions,
    /// exponents, and every other JSON type.
    package static let values: [String] = [
        "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
        "3", "4", "5", "6", "\(FuzzFixture.maxColumns)", "\(FuzzFixture.maxColumns + 1)",
        "\(FuzzFixture.maxItemsPerLayout)", "\(FuzzFixture.maxItemsPerLayout + 1)", "1024", "1025",
        "-1", "0", "-0", "1", "-0.0", "1e308", "-1e308", "5e-324", "1e-300", "1e999", "-1e999", "0.1", "1e20",
        "1.0", "1e2", "2.5", "1e9", "1000000001",
        "\"1\"", "null", "[]", "[1]", "{}", "true", "false",
    ]

    /// Every case of the table, in a fixed order: for each field and value, the plain form first, so that the
    /// runner knows a twin's outcome before the other forms of it.
    package static func cases() -> [FuzzCase] {
        var result: [FuzzCase] = []
        for (t, template) in FuzzTemplate.all.enumerated() {
            guard let params = template.fullParams else { continue }
            let forms: [FuzzCase.Form] =
                template.isChange ? [.plain, .batch, .batchOfThree, .notification] : [.plain, .notification]
            for path in params.numberPaths {
                let field = "params" + path.map(\.description).joined()
                for value in values {
                    let changed = params.replacing(path, with: .raw(value))
                    let twin = "\(t) \(field) \(value)"
                    for form in forms {
                        result.append(
                            FuzzCase(
                                request: FuzzCase.request(template.method, changed, form: form), form: form,
                                label: "\(template.method) \(field) = \(value) (\(form.rawValue))", twin: twin))
                    }
                }
            }
        }
        // The request id of every method: only an Int64 or a string is an id; anything else is answered with id
        // null.
        for template in FuzzTemplate.all {
            for value in values {
                let request = FuzzCase.envelope(method: template.method, params: template.fullParams, id: .raw(value))
                result.append(
                    FuzzCase(
                        request: request, form: .plain, label: "\(template.method) id = \(value)",
                        envelopeFuzzed: true))
            }
        }
        return result
    }
}
