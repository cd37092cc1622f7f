/// Why a frame model could not follow a change: the client should `layout.get` again.
public enum FrameModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A change came with a seq that does not follow the model's (one was missed).
    case outOfSequence(held: Int, received: Int)
    /// The request or diff does not fit the frames held (another client's view of the layout, a broken diff).
    case mismatch(String)
    /// An op of an event could not be read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .outOfSequence(let held, let received): return "the model holds seq \(held) and received seq \(received)"
        case .mismatch(let what): return "the change does not fit the frames held: \(what)"
        case .unreadable(let what): return "an op cannot be read: \(what)"
        }
    }
}
