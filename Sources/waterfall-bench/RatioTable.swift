/// The table of the daemon against its peers: each of the daemon's figures beside a peer's (the floor, simdjson, the raw client) taken in the
/// same run, their ratio, and the goal.
struct RatioTable {
    private var rows: [(String, String, String, String, String)] = []

    var isEmpty: Bool { rows.isEmpty }

    mutating func add(_ measure: String, daemon: String, peer: String, ratio: String, goal: String) {
        rows.append((measure, daemon, peer, ratio, goal))
        print("  \(measure): \(daemon)\(peer == "—" ? "" : " vs \(peer): \(ratio)") (goal \(goal))")
    }

    /// A ratio `value` against a goal of at least `goal`, as "0.12× (goal ≥ 0.3×: not met)" parts.
    mutating func add(_ measure: String, daemon: String, peer: String, ratio value: Double, atLeast goal: Double) {
        add(
            measure, daemon: daemon, peer: peer, ratio: Format.ratio(value),
            goal: "≥ \(Format.ratio(goal)): \(value >= goal ? "met" : "not met")")
    }

    /// A ratio of times `value` against a goal of at most `goal`, as "1.2× (goal ≤ 1.5×: met)" parts.
    mutating func add(_ measure: String, daemon: String, peer: String, ratio value: Double, atMost goal: Double) {
        add(
            measure, daemon: daemon, peer: peer, ratio: Format.ratio(value),
            goal: "≤ \(Format.ratio(goal)): \(value <= goal ? "met" : "not met")")
    }

    func render() -> String {
        var lines = ["| measure | daemon | peer | ratio | goal |", "|---|---|---|---|---|"]
        for row in rows { lines.append("| \(row.0) | \(row.1) | \(row.2) | \(row.3) | \(row.4) |") }
        return lines.joined(separator: "\n")
    }
}
