@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

/// A valid request of one method against the fixture layout, whose every field the fuzzer varies.
///
/// `params` omits `layout` (the slot's name goes first when the case is written); nil for a method without params.
package struct FuzzTemplate: Sendable {
    package var method: String
    package var params: FuzzJSON?
    /// Whether `params` names a layout.
    package var namesLayout: Bool
    /// Whether the method changes an existing layout (and so may be an op of a `batch`).
    package var isChange: Bool

    package init(_ method: String, _ params: String?, namesLayout: Bool = true, isChange: Bool = false) {
        self.method = method
        self.params = params.map(FuzzJSON.init)
        self.namesLayout = namesLayout
        self.isChange = isChange
    }

    // Section properties with a fixed column count, and with an adaptive one (a section may not set both).
    private static let fixedBase =
        #""columns":3,"columnSpacing":4,"rowSpacing":6,"insets":{"top":1,"left":2,"bottom":3,"right":4},"#
        + #""headerHeight":10,"footerHeight":12,"headerInsets":{"top":1,"left":2,"bottom":3,"right":4},"#
        + #""footerInsets":{"top":1,"left":2,"bottom":3,"right":4},"tolerance":2,"placement":"shortest","#
        + #""tieBreak":"cursor","spanPlacement":"leastWhitespace","pinHeader":true,"#
        + #""lookahead":{"items":1,"limit":2}"#
    /// With stamps (not in `weighted`: a section may not set stamps and columnWidths together).
    private static let fixed = fixedBase + #","stamps":[{"column":1,"span":2,"y":5,"h":20}]"#
    /// A section's own fixed properties with columns of different widths (defaults with them would refuse an
    /// adaptive section).
    private static let weighted = fixedBase + #","columnWidths":[2,1.5,0.5]"#
    private static let adaptive = #""minColumnWidth":40,"maxColumns":4,"columnSpacing":5,"placement":"next""#
    private static let item = #"{"h":10,"w":5,"span":2,"id":"a"}"#
    private static let anchor = #","anchor":{"section":0,"i":1},"diff":true"#

    /// One template per method (two for those with both kinds of section properties), every number of the
    /// protocol in at least one of them: the fields of the fuzz table. A method without a template written here
    /// gets its declaration's example (`declared`).
    package static let all: [FuzzTemplate] =
        written
        + Method.allCases.filter { method in
            method != .batch && !written.contains { $0.method == method.rawValue }
        }.map(declared)

    /// The template of a method's declared example: its params but `layout`.
    static func declared(_ method: Method) -> FuzzTemplate {
        let declaration = MethodTable.declaration(method)
        let namesLayout = declaration.params.contains { $0.name == "layout" }
        let params = declaration.example.params.filter { $0.key != "layout" }
        return FuzzTemplate(
            method.rawValue, declaration.params.isEmpty ? nil : JSONValue.object(params).jsonText,
            namesLayout: namesLayout, isChange: ChangeMethod(rawValue: method.rawValue) != nil)
    }

    private static let written: [FuzzTemplate] = [
        FuzzTemplate("ping", nil, namesLayout: false),
        FuzzTemplate("version", nil, namesLayout: false),
        FuzzTemplate("layout.list", nil, namesLayout: false),
        FuzzTemplate("stats", nil, namesLayout: false),
        FuzzTemplate(
            "layout.create",
            #"{"width":300,"scale":2,"direction":"rtl","minContentHeight":10,"defaults":{\#(fixed)},"#
                + #""sections":[{\#(adaptive),"items":[\#(item)]},{\#(weighted),"items":[\#(item),{"h":3}]}],"#
                + #""replace":true,"diff":false}"#),
        FuzzTemplate("layout.create", #"{"width":300,"defaults":{\#(adaptive)},"replace":true}"#),
        FuzzTemplate(
            "layout.create",
            #"{"widths":[300,200,480],"defaults":{\#(adaptive)},"sections":[{"items":[\#(item)]}],"replace":true}"#),
        FuzzTemplate(
            "layout.configure", #"{"width":320,"scale":1,"minContentHeight":5,"defaults":{\#(fixed)}\#(anchor)}"#,
            isChange: true),
        FuzzTemplate("layout.configure", #"{"defaults":{\#(adaptive)}}"#, isChange: true),
        FuzzTemplate("layout.configure", #"{"widths":[300,200,480],"diff":true}"#, isChange: true),
        FuzzTemplate("layout.drop", "{}"),
        FuzzTemplate("layout.get", #"{"sections":[0,2]}"#),
        FuzzTemplate("layout.get", #"{"width":200}"#),
        FuzzTemplate("layout.export", "{}"),
        FuzzTemplate(
            "layout.css", #"{"minWidth":320,"maxWidth":640,"sections":[0,2],"items":3,"selector":".feed"}"#),
        FuzzTemplate(
            "sections.insert", #"{"at":1,"sections":[{\#(fixed),"items":[\#(item)]},{\#(adaptive)}]\#(anchor)}"#,
            isChange: true),
        FuzzTemplate("sections.delete", #"{"sections":[0,2]\#(anchor)}"#, isChange: true),
        FuzzTemplate("sections.move", #"{"from":0,"to":2\#(anchor)}"#, isChange: true),
        FuzzTemplate("sections.configure", #"{"section":1,\#(weighted)\#(anchor)}"#, isChange: true),
        FuzzTemplate("sections.configure", #"{"section":2,\#(adaptive)}"#, isChange: true),
        FuzzTemplate(
            "items.insert", #"{"section":0,"at":2,"items":[\#(item),{"h":5}]\#(anchor)}"#, isChange: true),
        FuzzTemplate("items.delete", #"{"section":2,"items":[0,3]\#(anchor)}"#, isChange: true),
        FuzzTemplate(
            "items.update", #"{"section":0,"items":[{"i":1,"h":15,"w":3,"span":1,"id":"b"}]\#(anchor)}"#,
            isChange: true),
        FuzzTemplate("items.move", #"{"from":[0,1],"to":[2,0]\#(anchor)}"#, isChange: true),
        FuzzTemplate(
            "items.update", #"{"section":0,"items":[{"i":0,"h":25}],"width":200,"viewport":{"y":0,"h":100}}"#,
            isChange: true),
        FuzzTemplate(
            "items.update", #"{"section":0,"items":[{"i":1,"h":15,"column":1}],"viewport":{"y":0,"h":100}}"#,
            isChange: true),
        FuzzTemplate("query", #"{"rect":{"x":0,"y":0,"w":300,"h":500}}"#),
        FuzzTemplate("query", #"{"rect":{"x":0,"y":0,"w":300,"h":500},"order":"reading","width":480}"#),
        FuzzTemplate("items.neighbors", #"{"section":0,"i":1,"width":200}"#),
        FuzzTemplate("subscribe", "{}"),
        FuzzTemplate("subscribe", #"{"viewport":{"y":10,"h":200},"width":480}"#),
        FuzzTemplate("unsubscribe", "{}"),
    ]

    /// `params` with the slot's layout name first (the placeholder `FuzzCase.slotName`).
    package var fullParams: FuzzJSON? {
        guard let params else { return nil }
        return namesLayout ? params.adding("layout", .string(FuzzCase.slotName), first: true) : params
    }
}
