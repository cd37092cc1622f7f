/// The names of a layout's files: `L<id>.<generation>.wfj` (journal segments), `L<id>.wfs` (its snapshot) and
/// `L<id>.wfs.tmp` (a snapshot being written).
///
/// Layouts are named by a number, not by their name: a name may hold any character, and a replaced layout gets a
/// new number, so that its files and its predecessor's never mix (the higher number wins at recovery).
enum StoreFileName: Hashable {
    case segment(id: UInt64, generation: UInt64)
    case snapshot(id: UInt64)
    case temporary(id: UInt64)

    var text: String {
        switch self {
        case .segment(let id, let generation): return "L\(id).\(generation).wfj"
        case .snapshot(let id): return "L\(id).wfs"
        case .temporary(let id): return "L\(id).wfs.tmp"
        }
    }

    var id: UInt64 {
        switch self {
        case .segment(let id, _), .snapshot(let id), .temporary(let id): return id
        }
    }

    /// The file a name denotes, or nil for a name the store does not own (the lock, files moved aside).
    init?(_ text: String) {
        guard text.hasPrefix("L") else { return nil }
        let parts = text.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard let id = parts.first.flatMap({ UInt64($0) }) else { return nil }
        switch parts.count {
        case 2 where parts[1] == "wfs": self = .snapshot(id: id)
        case 3 where parts[1] == "wfs" && parts[2] == "tmp": self = .temporary(id: id)
        case 3 where parts[2] == "wfj":
            guard let generation = UInt64(parts[1]) else { return nil }
            self = .segment(id: id, generation: generation)
        default: return nil
        }
    }
}
