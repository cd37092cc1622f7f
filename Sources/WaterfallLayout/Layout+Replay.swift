import WaterfallModel

extension Layout {
    /// Applies the commands of several changes that were made one after another as if they were one change, and
    /// leaves `seq` at `seq`: what a layout rebuilt from a journal does.
    ///
    /// Each section the commands touch is placed once, from its first changed item (the sections in child tasks
    /// when there is enough work), rather than once per change: a journal of single-item updates in the middle of
    /// large sections otherwise re-places the rest of a section per record. The frames are those of applying the
    /// changes one by one, since frames depend only on the inputs.
    ///
    /// - Throws: `LayoutError` for the first command that does not apply; the layout is then unchanged.
    public mutating func replay(_ commands: [LayoutCommand], seq: Int) async throws(LayoutError) {
        _ = try await apply(commands, listingItems: false, namingOps: false)
        setSeq(seq)
    }
}
