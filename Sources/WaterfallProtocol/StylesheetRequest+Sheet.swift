import WaterfallLayout
import WaterfallWire

extension StylesheetRequest {
    /// The stylesheet of the inline inputs, after `layout.create`'s checks of them against `limits`.
    ///
    /// - Throws: what `layout.create` throws for the inputs (its fields under `params.layout`), then what
    ///   `stylesheet(of:columnLimit:)` throws.
    package func stylesheet(
        ofInline spec: LayoutSpec, limits: LayoutLimits
    ) throws(ProtocolError) -> (sheet: ResponsiveStylesheet, layout: ResponsiveLayout) {
        do {
            try Layout.check(spec, limits: limits)
        } catch {
            throw ProtocolError(error, prefix: "params.layout")
        }
        return try stylesheet(of: spec, columnLimit: limits.maxColumns)
    }

    /// The stylesheet of a layout with inputs `spec` (as `layout.export` gives them).
    ///
    /// - Throws: `bad_params` for a section the layout lacks or a layout with pixel snapping, `invalid_geometry`
    ///   when a section's column width is negative at `minWidth`, `limit` past the engine's bounds.
    package func stylesheet(
        of spec: LayoutSpec, columnLimit: Int
    ) throws(ProtocolError) -> (sheet: ResponsiveStylesheet, layout: ResponsiveLayout) {
        // not_found, as layout.get says of a section that does not exist (the Errors article).
        for (k, s) in (sections ?? []).enumerated() where s >= spec.sections.count {
            throw ProtocolError(
                .notFound, "params.sections[\(k)]: \(s) is not a section (there are \(spec.sections.count))")
        }
        // The stylesheet places items down a block's flow; a horizontal feed would need one written along x, which
        // is not made (the Methods article, `layout.css`): refused rather than answered with a vertical sheet.
        guard spec.axis == .vertical else {
            throw .badParams(
                "params.layout",
                "\(subject) has axis \"horizontal\": layout.css writes vertical layouts only (a horizontal feed's "
                    + "frames come from layout.get or query)")
        }
        guard spec.scale == 0 else {
            throw .badParams(
                "params.layout",
                "\(subject) has scale \(Self.text(spec.scale)): pixel snapping is not linear in the width, and layout.css "
                    + "needs scale 0")
        }
        if let s = spec.sections.indices.first(where: { spec.sections[$0].usesLookahead(defaults: spec.defaults) }) {
            throw .badParams(
                "params.layout",
                "\(subject) has lookahead in section \(s): each window's best order changes at widths of its own, "
                    + "more pieces than layout.css writes (its frames come from layout.get or query)")
        }
        if let field = ResponsiveLayout.firstStamps(in: spec) {
            throw .badParams("params.layout", "\(subject) sets \(field): \(ResponsiveLayout.stampsRefusal)")
        }
        let responsive: ResponsiveLayout
        do {
            responsive = try ResponsiveLayout.compute(
                spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: items, columnLimit: columnLimit)
        } catch {
            throw ProtocolError(error)
        }
        return (ResponsiveStylesheet(responsive, sections: sections, selector: selector), responsive)
    }
}
