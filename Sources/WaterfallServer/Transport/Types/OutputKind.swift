/// What a chunk of output carries, which decides where it may go in the byte stream.
enum OutputKind: Sendable, Equatable {
    /// Whole notification lines (events): never inside a reply, so they wait while one is partly queued.
    case events
    /// Whole reply lines.
    case replies
    /// Reply lines whose last one goes on in the next chunk.
    case replyPart
}
