import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// `layout.css`'s params: what is accepted, and each refusal naming its field and value.
@Suite struct StylesheetRequestTests {
    static func decoded(_ params: String) -> DecodedRequest {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"layout.css","params":\#(params)}"#
        var reader = JSONReader()
        return DecodedRequest(.line(ArraySlice(line.utf8)), reader: &reader, maxBatchOps: 100)
    }

    @Test func decodesEveryParam() {
        let request = Self.decoded(
            ##"{"layout":"feed","minWidth":320,"maxWidth":1920.5,"sections":[2,0],"items":24,"selector":"#feed .grid"}"##
        )
        guard case .call(_, _, .layoutCSS(let css)) = request else {
            Issue.record("not a layout.css call: \(request)")
            return
        }
        #expect(
            css
                == StylesheetRequest(
                    layout: "feed", minWidth: 320, maxWidth: 1920.5, sections: [2, 0], items: 24,
                    selector: "#feed .grid"))
    }

    @Test func defaultsToEverySectionAndItemInDotWaterfall() {
        guard case .call(_, _, .layoutCSS(let css)) = Self.decoded(#"{"layout":"f","minWidth":1,"maxWidth":1}"#)
        else {
            Issue.record("not decoded")
            return
        }
        #expect(css == StylesheetRequest(layout: "f", minWidth: 1, maxWidth: 1))
    }

    @Test(arguments: [
        (#"{"layout":"f","minWidth":0,"maxWidth":10}"#, "params.minWidth: 0 must be a number > 0 and ≤ 100000"),
        (
            #"{"layout":"f","minWidth":500,"maxWidth":400}"#,
            "params.maxWidth: 400 must be a number ≥ minWidth (500) and ≤ 100000"
        ),
        (
            #"{"layout":"f","minWidth":99000,"maxWidth":100001}"#,
            "params.maxWidth: 100001 must be a number ≥ minWidth (99000) and ≤ 100000"
        ),
        (
            #"{"layout":"f","minWidth":100,"maxWidth":10101}"#,
            "params.maxWidth: 10101 is more than 10000 px above minWidth (100): ask in parts"
        ),
        (#"{"layout":"f","minWidth":1,"maxWidth":2,"sections":[0,1,0]}"#, "params.sections[2]: 0 is listed twice"),
        (
            #"{"layout":"f","minWidth":1,"maxWidth":2,"sections":[-1]}"#,
            "params.sections[0]: -1 is out of range (0 to 2147483647)"
        ),
        (#"{"layout":"f","minWidth":1,"maxWidth":2,"items":-3}"#, "params.items: -3 is out of range (0 to 2147483647)"),
        (
            #"{"layout":"f","minWidth":1,"maxWidth":2,"selector":"a{}"}"#,
            #"params.selector: 'a{}' is not 1–256 characters of A-Z a-z 0-9, spaces and . # - _ : [ ] = > ~ + * ( ) ' ""#
        ),
        (#"{"layout":"f","minWidth":1,"maxWidth":2,"width":3}"#, "params.width: unknown field"),
    ])
    func refusesWithTheFieldAndValue(params: String, message: String) {
        guard case .failed(_, let error, _, _) = Self.decoded(params) else {
            Issue.record("\(params) was accepted")
            return
        }
        #expect(error.code == .badParams)
        #expect(error.message == message)
    }

    @Test func aMissingSectionIsNotFoundAndSnappingIsRefused() {
        let spec = LayoutSpec(width: 300, sections: [SectionSpec(items: [Item(height: 10)])])
        let request = StylesheetRequest(layout: "f", minWidth: 300, maxWidth: 400, sections: [1])
        #expect(throws: ProtocolError(.notFound, "params.sections[0]: 1 is not a section (there are 1)")) {
            try request.stylesheet(of: spec, columnLimit: 1024)
        }
        var snapped = spec
        snapped.scale = 2
        #expect(throws: ProtocolError.self) {
            try StylesheetRequest(layout: "f", minWidth: 300, maxWidth: 400).stylesheet(of: snapped, columnLimit: 1024)
        }
    }

    /// Two fixed columns of fixed heights: one piece; the section's column width divides the container width, and
    /// the item gives only its height.
    @Test func writesOnePieceForFixedColumnsAndHeights() throws {
        let spec = LayoutSpec(
            width: 300,
            sections: [SectionSpec(properties: SectionProperties(columns: 2), items: [Item(height: 50)])])
        try Self.expectOnePiece(
            spec,
            """
            &::before{content:'';display:block;padding-top:50px}\
            >.s0{--g:10px;--l:0px;--w:calc((100% - 10px)/2);&.i0{height:50px}}
            """)
    }

    /// Three columns of `[2, 1, 1]`: `--w` stays the mean column, `(W − 20) / 3`, and the section's rule places its
    /// items by `--a` and `--b`, the widths of the columns left of an item and of its own in `--w`s (1.5 for the
    /// wide column, 0.75 for a narrow one); the span of two from column 1 is 1.5 `--w`s and one spacing wide.
    @Test func writesColumnsOfDifferentWidthsAsSharesOfTheMeanColumn() throws {
        let spec = LayoutSpec(
            width: 300,
            sections: [
                SectionSpec(
                    properties: SectionProperties(columns: 3, columnWidths: [2, 1, 1]),
                    items: [Item(height: 50), Item(height: 30), Item(height: 40), Item(height: 20, span: .columns(2))])
            ])
        try Self.expectOnePiece(
            spec,
            """
            &::before{content:'';display:block;padding-top:70px}\
            >.s0{--g:10px;--l:0px;--w:calc((100% - 20px)/3);--a:0;--b:1.5;\(ResponsiveStylesheet.weightedPlacement)\
            &.i0{height:50px}&.i1{--c:1;--a:1.5;--b:.75;height:30px}\
            &.i2{--c:2;--a:2.25;--b:.75;height:40px}&.i3{--c:1;--s:2;--a:1.5;--k:50;height:20px}}
            """)
    }

    /// Expects the stylesheet of `spec` over 300–400 px in `#g` to be one piece: the container's rule, the placement
    /// rule, then `rules`.
    static func expectOnePiece(_ spec: LayoutSpec, _ rules: String) throws {
        let (sheet, _) = try StylesheetRequest(layout: "f", minWidth: 300, maxWidth: 400, selector: "#g")
            .stylesheet(of: spec, columnLimit: 1024)
        #expect(sheet.pieces == 1)
        #expect(
            String(decoding: sheet.css, as: UTF8.self)
                == "#g{container-type:inline-size;position:relative;padding:0;\n\(ResponsiveStylesheet.placement)\(rules)\n}\n"
        )
    }

    /// A later section's elements hang from its origin, `--o`, which a piece changes on its own; a header gives
    /// its own left, width and height.
    @Test func laterSectionsUseTheirOrigin() throws {
        let spec = LayoutSpec(
            width: 300,
            sections: [
                SectionSpec(properties: SectionProperties(columns: 1), items: [Item(height: 1, aspectWidth: 2)]),
                SectionSpec(properties: SectionProperties(columns: 1, headerHeight: 20), items: [Item(height: 5)]),
            ])
        let (sheet, _) = try StylesheetRequest(layout: "f", minWidth: 300, maxWidth: 400, sections: [1])
            .stylesheet(of: spec, columnLimit: 1024)
        let css = String(decoding: sheet.css, as: UTF8.self)
        #expect(css.contains(">.s1{--g:10px;--l:0px;--w:100%;--o:50%;&.h{left:0;width:100%;height:20px}"))
        #expect(css.contains("&.i0{--k:20;height:5px}"))
        #expect(!css.contains(".s0"))
    }
}
