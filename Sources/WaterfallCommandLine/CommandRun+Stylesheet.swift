import WaterfallClient

/// `css` and `html`: `layout.css`'s stylesheet, alone or in a page to try it in a browser.
extension CommandRun {
    /// The options of `css` and `html`, read and checked.
    struct StylesheetOptions {
        var minWidth: Double
        var maxWidth: Double
        var items: Int?
        var sections: [Int]?
        var selector: String?
    }

    func stylesheetOptions() throws(UsageError) -> StylesheetOptions {
        StylesheetOptions(
            minWidth: try invocation.pixels("--min") ?? 0, maxWidth: try invocation.pixels("--max") ?? 0,
            items: try invocation.count("--items"), sections: try invocation.sections(),
            selector: invocation.options["--selector"])
    }

    func stylesheet(_ client: WaterfallClient) async throws -> WaterfallCtl.ExitStatus {
        let options = try stylesheetOptions()
        let sheet = try await client.stylesheet(
            of: name, minWidth: options.minWidth, maxWidth: options.maxWidth, sections: options.sections,
            items: options.items, selector: command == .css ? options.selector : nil)
        let text =
            command == .css
            ? sheet.css
            : sheet.page(
                width: options.maxWidth,
                title: "\(name), \(Self.format(options.minWidth))–\(Self.format(options.maxWidth)) px")
        if let path = invocation.options["--output"] {
            do {
                try terminal.writeFile(path, text)
            } catch {
                terminal.writeError("waterfallctl: cannot write \(path): \(error)\n")
                return .daemonError
            }
        } else {
            terminal.write(text)
        }
        return .success
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
