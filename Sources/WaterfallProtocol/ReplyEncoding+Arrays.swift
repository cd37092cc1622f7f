@_spi(Package) import WaterfallJSON
import WaterfallWire

extension ReplyEncoding {
    /// Starts the next reply of a batch array's line: `[` before the first, a comma before the others. Until
    /// `endArray`, replies end without their newline (`JSONWriter.endsLines`).
    package static func arrayElement(_ w: inout JSONWriter, first: Bool) {
        w.raw(first ? openingBracket[...] : comma[...])
        w.endsLines = false
    }

    /// Ends a batch array's line begun by `arrayElement`: `]` and the newline.
    package static func endArray(_ w: inout JSONWriter) {
        w.raw(closingBracket[...])
        w.endsLines = true
        w.newline()
    }

    private static let openingBracket: [UInt8] = [UInt8(ascii: "[")]
    private static let comma: [UInt8] = [UInt8(ascii: ",")]
    private static let closingBracket: [UInt8] = [UInt8(ascii: "]")]
}
