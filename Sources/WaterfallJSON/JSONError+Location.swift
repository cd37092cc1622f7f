extension JSONError {
    /// Where `offset` is in `input`, as people count in a text file: line and column from 1, a column counting
    /// characters (UTF-8 sequences), not bytes.
    public func location(in input: some Collection<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in input.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The description with the place given as line and column of `input` (for files) instead of a byte offset
    /// (for protocol lines): "unexpected '}' at line 3, column 5".
    public func description(in input: some Collection<UInt8>) -> String {
        let text = description
        let marker = " at byte \(offset)"
        guard text.hasSuffix(marker) else { return text }
        let (line, column) = location(in: input)
        return text.dropLast(marker.count) + " at line \(line), column \(column)"
    }
}
