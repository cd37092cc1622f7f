import WaterfallLayout

/// A `layout.css` stylesheet read and evaluated as a browser would at one container width, for the forms the writer
/// uses only: nested rules, `@container not (width<Npx)` blocks, the cascade by specificity then order, `var()`,
/// and `calc()` of px, `%` (of the container's width) and numbers. Chromium's 1/64 px layout unit is not modelled.
struct StylesheetEvaluation {
    /// One declaration: the element it applies to, its property and value, and where it stands in the cascade.
    struct Declaration {
        /// The section (nil: every child), and the element (`h`, `f`, `i57`; nil: every element of the section).
        var section: Int?
        var element: String?
        /// The `::before` block, which holds the container's height.
        var before: Bool
        var property: String
        /// `value` read as `tokens(_:)` reads it.
        var tokens: [String]
        /// The width from which its `@container` block applies (0: always).
        var from: Double
    }

    private(set) var declarations: [Declaration] = []
    /// The declarations of `>*`, of each section's rule, and of each element's (`s0 i5`), in document order.
    private var ofEveryChild: [Int] = []
    private var ofSection: [Int: [Int]] = [:]
    private var ofElement: [String: [Int]] = [:]

    // MARK: Lifecycle

    /// Reads `css`: the container's rule, whose children are the placement rule, the first piece, and the blocks.
    init(_ css: String) {
        var text = Substring(css)
        guard let open = text.firstIndex(of: "{") else { return }
        text = text[text.index(after: open)...]
        read(&text, section: nil, element: nil, before: false, from: 0)
    }

    // MARK: Internal

    /// The box of section `section`'s element `element` (`h`, `f`, `i57`) at container width `width`.
    func box(section: Int, element: String, width: Double) -> Rect {
        var values: [String: [String]] = [:]
        // By specificity (`>*`, `>.sN`, `&.iK`), and within one in document order: the last that applies wins.
        let lists = [ofEveryChild, ofSection[section] ?? [], ofElement["s\(section) \(element)"] ?? []]
        for list in lists {
            for d in list.lazy.map({ declarations[$0] }) where d.from <= width { values[d.property] = d.tokens }
        }
        func length(_ property: String) -> Double {
            Self.evaluate(values[property] ?? ["0"], custom: values, width: width)
        }
        let boxWidth = length("width")
        var height = length("height")
        if let ratio = values["aspect-ratio"], ratio.count == 3 {
            height = boxWidth * (Double(ratio[2]) ?? .nan)
        }
        return Rect(x: length("left"), y: length("top") + length("margin-top"), width: boxWidth, height: height)
    }

    /// The container's height at `width`: its `::before` block's padding.
    func height(width: Double) -> Double {
        let padding = declarations.last { $0.before && $0.property == "padding-top" && $0.from <= width }
        return Self.evaluate(padding?.tokens ?? ["0"], custom: [:], width: width)
    }

    // MARK: Private

    /// Reads declarations and nested rules up to the `}` that closes the rule being read.
    private mutating func read(
        _ text: inout Substring, section: Int?, element: String?, before: Bool, from: Double
    ) {
        while let stop = text.firstIndex(where: { $0 == ";" || $0 == "{" || $0 == "}" }) {
            let head = text[..<stop].trimmingWhitespace
            let mark = text[stop]
            text = text[text.index(after: stop)...]
            if mark == "{" {
                var (s, e, b, f) = (section, element, before, from)
                if head.hasPrefix("@container not (width<") {
                    f = Double(head.dropFirst("@container not (width<".count).prefix { $0 != "p" }) ?? .nan
                } else if head == "&::before" {
                    b = true
                } else if head.hasPrefix(">.s") {
                    s = Int(head.dropFirst(3))
                } else if head.hasPrefix("&.") {
                    e = String(head.dropFirst(2))
                }
                read(&text, section: s, element: e, before: b, from: f)
                continue
            }
            if let colon = head.firstIndex(of: ":") {
                let k = declarations.count
                if before {
                    // Read by `height(width:)` alone.
                } else if let section, let element {
                    ofElement["s\(section) \(element)", default: []].append(k)
                } else if let section {
                    ofSection[section, default: []].append(k)
                } else {
                    ofEveryChild.append(k)
                }
                declarations.append(
                    Declaration(
                        section: section, element: element, before: before, property: String(head[..<colon]),
                        tokens: Self.tokens(String(head[head.index(after: colon)...])), from: from))
            }
            if mark == "}" { return }
        }
    }

    /// A value's `tokens` (a number, a length or a `calc()`), its `var()`s taken from `custom`, at container width
    /// `width`.
    static func evaluate(_ tokens: [String], custom: [String: [String]], width: Double) -> Double {
        var expression = Expression(tokens: tokens, custom: custom, width: width)
        return expression.sum()
    }

    /// Numbers (with their unit), operators, parentheses and `var(` names. A `-` is an operator only before a space
    /// (`calc()` needs spaces around `+` and `-`); otherwise it starts a number.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var rest = Substring(text)
        while let c = rest.first {
            if c == " " {
                rest = rest.dropFirst()
            } else if rest.hasPrefix("calc(") {
                tokens.append("(")
                rest = rest.dropFirst(5)
            } else if rest.hasPrefix("var(") {
                let name = rest.dropFirst(4).prefix { $0 != ")" }
                tokens.append("var:" + name)
                rest = rest.dropFirst(4 + name.count + 1)
            } else if "()*/+".contains(c) || rest.hasPrefix("- ") {
                tokens.append(String(c))
                rest = rest.dropFirst()
            } else {
                let number = rest.prefix { !" ()*/+".contains($0) }
                tokens.append(String(number))
                rest = rest.dropFirst(number.count)
            }
        }
        return tokens
    }

    /// A recursive-descent reading of a token list: sums of products of factors.
    private struct Expression {
        var tokens: [String]
        let custom: [String: [String]]
        let width: Double
        var next = 0

        mutating func sum() -> Double {
            var value = product()
            while next < tokens.count, tokens[next] == "+" || tokens[next] == "-" {
                let sign = tokens[next] == "+" ? 1.0 : -1.0
                next += 1
                value += sign * product()
            }
            return value
        }

        mutating func product() -> Double {
            var value = factor()
            while next < tokens.count, tokens[next] == "*" || tokens[next] == "/" {
                let times = tokens[next] == "*"
                next += 1
                let other = factor()
                value = times ? value * other : value / other
            }
            return value
        }

        mutating func factor() -> Double {
            guard next < tokens.count else { return .nan }
            let token = tokens[next]
            next += 1
            if token == "(" {
                let value = sum()
                next += 1  // the `)`
                return value
            }
            if token.hasPrefix("var:") {
                let name = String(token.dropFirst(4))
                return StylesheetEvaluation.evaluate(custom[name] ?? ["nan"], custom: custom, width: width)
            }
            if token.hasSuffix("%") { return (Double(token.dropLast()) ?? .nan) * width / 100 }
            if token.hasSuffix("px") { return Double(token.dropLast(2)) ?? .nan }
            return Double(token) ?? .nan
        }
    }
}

extension Substring {
    /// Without the spaces and newlines at either end.
    fileprivate var trimmingWhitespace: Substring {
        var text = self
        while text.first == " " || text.first == "\n" { text = text.dropFirst() }
        while text.last == " " || text.last == "\n" { text = text.dropLast() }
        return text
    }
}
