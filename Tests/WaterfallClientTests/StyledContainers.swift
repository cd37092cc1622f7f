import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// Containers styled by `layout.css`, rendered together in one Chromium page load and compared with the daemon's
/// frames: every element's box relative to its container, and the container's height against the content height.
struct StyledContainers {
    /// One container: its class (the stylesheet's selector), width, children, and what the daemon says.
    struct Container {
        var className: String
        var width: Double
        var elements: String
        var expected: LayoutFrames
        var label: String
    }

    static let tolerance = 0.05

    /// Every stylesheet the containers need.
    var style = ""
    var containers: [Container] = []

    /// Adds a container of `width` for the layout `name`, after a fresh `layout.create` of `spec` at that width (as
    /// `scratch`) gives its frames.
    mutating func add(
        _ client: WaterfallClient, spec: LayoutSpec, firstItems: Int?, width: Double, className: String,
        elements: String, label: String
    ) async throws {
        let fresh = ResponsiveFeeds.spec(spec, width: width, firstItems: firstItems)
        _ = try await client.createLayout("scratch", fresh, replace: true, options: .init(diff: false))
        containers.append(
            Container(
                className: className, width: width, elements: elements,
                expected: try await client.frames(of: "scratch"),
                label: label))
    }

    /// A page filled by `fill` through a client of a fresh in-process daemon, then checked: the largest difference,
    /// the boxes and the containers.
    static func checked(
        _ fill: (WaterfallClient, inout StyledContainers) async throws -> Void
    ) async throws -> (worst: Double, boxes: Int, containers: Int) {
        try await InProcessDaemon.with { daemon in
            var page = StyledContainers()
            try await fill(try await WaterfallClient.connect(to: daemon.path), &page)
            let (worst, boxes) = try page.check()
            return (worst, boxes, page.containers.count)
        }
    }

    /// Styles the layout `spec` as `name` over `minWidth...maxWidth` (each section cut to `firstItems`), and adds a
    /// container of class `className` at each of `widths(…)`'s widths.
    mutating func addFeed(
        _ client: WaterfallClient, name: String, spec: LayoutSpec, minWidth: Double, maxWidth: Double,
        firstItems: Int?, className: String, random: Int, _ rng: inout SplitMix64
    ) async throws {
        _ = try await client.createLayout(name, ResponsiveFeeds.spec(spec, width: minWidth))
        let sheet = try await client.stylesheet(
            of: name, minWidth: minWidth, maxWidth: maxWidth, items: firstItems, selector: ".\(className)")
        style += sheet.css
        let elements = sheet.elements()
        for width in try Self.widths(
            spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: firstItems, random: random, &rng)
        {
            try await add(
                client, spec: spec, firstItems: firstItems, width: width, className: className, elements: elements,
                label: name)
        }
    }

    /// The widths to look at for `spec` over a range: `random` seeded grid widths, both sides of every piece's
    /// start (1/64 px apart), and the ends.
    static func widths(
        _ spec: LayoutSpec, minWidth: Double, maxWidth: Double, firstItems: Int?, random: Int,
        _ rng: inout SplitMix64
    ) throws -> [Double] {
        let pieces = try ResponsiveLayout.compute(spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: firstItems)
            .pieces
        var widths = (0..<random).map { _ in
            Double(Int.random(in: Int(minWidth * 64)...Int(maxWidth * 64), using: &rng)) / 64
        }
        for piece in pieces.dropFirst() { widths += [piece.start - 1.0 / 64, piece.start] }
        return widths + [minWidth, maxWidth]
    }

    /// Renders every container and records an issue for each box or height off by more than `tolerance`.
    ///
    /// Every container sits at the page's origin: `getBoundingClientRect` is in single precision, which a million
    /// px down a long page rounds to 1/8 px.
    func check() throws -> (worst: Double, boxes: Int) {
        var html = """
            <!doctype html><html><head><style>body{margin:0}.w{position:absolute;left:0;top:0}
            \(style)</style></head><body>

            """
        for container in containers {
            html += "<div class=\"w\"><div class=\"\(container.className)\" style=\"width:\(container.width)px\">\n"
            html += "\(container.elements)</div></div>\n"
        }
        html += """
            <pre id="out"></pre><script>
            const out = [...document.querySelectorAll('.w > div')].map(c => {
              const o = c.getBoundingClientRect();
              const boxes = [...c.children].map(e => {
                const r = e.getBoundingClientRect();
                const [section, name] = e.className.split(' ');
                const kind = name === 'h' ? -1 : name === 'f' ? -2 : +name.slice(1);
                return [+section.slice(1), kind, r.x - o.x, r.y - o.y, r.width, r.height];
              });
              return [o.width, o.height, boxes];
            });
            document.getElementById('out').textContent = JSON.stringify(out);
            </script></body></html>
            """
        let measured = try JSONSerialization.jsonObject(with: Data(try Chromium.output(of: html).utf8)) as? [Any] ?? []
        #expect(measured.count == containers.count, "\(measured.count) containers measured of \(containers.count)")
        var worst = 0.0
        var boxes = 0
        for (row, want) in zip(measured.map { $0 as? [Any] ?? [] }, containers) where row.count == 3 {
            let width = row[0] as? Double ?? -1
            let height = row[1] as? Double ?? -1
            #expect(width == want.width, "\(want.label): container \(width) px wide, not \(want.width)")
            let heightOff = (height - want.expected.contentSize.height).magnitude
            worst = max(worst, heightOff)
            #expect(
                heightOff <= Self.tolerance,
                "\(want.label) at \(want.width): height \(height), not \(want.expected.contentSize.height)")
            for case let box as [Double] in row[2] as? [Any] ?? [] where box.count == 6 {
                let frame = Self.frame(want.expected, section: Int(box[0]), kind: Int(box[1]))
                let off =
                    frame.map {
                        max(
                            ($0.x - box[2]).magnitude, ($0.y - box[3]).magnitude, ($0.width - box[4]).magnitude,
                            ($0.height - box[5]).magnitude)
                    } ?? .infinity
                worst = max(worst, off)
                boxes += 1
                #expect(
                    off <= Self.tolerance,
                    "\(want.label) at \(want.width): element \(box[0...1]) at \(box[2...]), not \(String(describing: frame))"
                )
            }
        }
        return (worst, boxes)
    }

    /// The daemon's frame of an element: kind -1 is the header, -2 the footer, else the item's index.
    static func frame(_ frames: LayoutFrames, section: Int, kind: Int) -> Rect? {
        guard section >= 0, section < frames.sections.count else { return nil }
        let s = frames.sections[section]
        switch kind {
        case -1: return s.header
        case -2: return s.footer
        default: return kind >= 0 && kind < s.items.count ? s.items[kind].frame : nil
        }
    }
}
