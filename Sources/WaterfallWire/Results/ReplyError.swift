/// A result that is not shaped as its method declares: the path of the field at fault and what is wrong with it
/// (`result.sections[2].items: not an array`).
public struct ReplyError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
