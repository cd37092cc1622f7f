/// The known name nearest a mistyped one, for the "did you mean" of an error: the daemon's unknown method, params
/// field and config key, and waterfallctl's unknown command and flag all ask it.
///
/// Names are compared ignoring case by their optimal-string-alignment distance (Levenshtein plus the swap of two
/// neighbours, so `craete` is one edit from `create`). A candidate is suggested only when it is within
/// `threshold(for:)` edits, fewer edits than the name has characters, and strictly nearer than every other
/// candidate: a tie suggests nothing, so the hint is never a guess between two names.
package enum NearestName {
    // MARK: Package

    /// The candidate clearly nearest `name`, or nil when none is near or two are equally near. A candidate that
    /// differs from `name` only in case (`loglevel` and `logLevel`) is nearest of all.
    package static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        let folded = Array(name.lowercased().unicodeScalars)
        let limit = min(threshold(for: folded.count), folded.count - 1)
        var best: (name: String, distance: Int)?
        var tied = false
        for candidate in candidates where candidate != name {
            let distance = self.distance(folded, Array(candidate.lowercased().unicodeScalars))
            guard distance <= limit else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance && candidate != current.name { tied = true }
                continue
            }
            best = (candidate, distance)
            tied = false
        }
        return tied ? nil : best?.name
    }

    /// `; did you mean 'x'?` for the candidate nearest `name`, or an empty string: the end of an error message
    /// that names `name`.
    package static func hint(for name: String, among candidates: some Sequence<String>) -> String {
        guard let nearest = nearest(to: name, among: candidates) else { return "" }
        return "; did you mean '\(nearest)'?"
    }

    /// The most edits a suggestion may be from a name of `length` characters: a third of it, at least 1 and at
    /// most 2, so that a short name is not matched to an unrelated short one.
    package static func threshold(for length: Int) -> Int {
        min(2, max(1, length / 3))
    }

    /// The optimal-string-alignment distance between `a` and `b`: insertions, deletions, substitutions and swaps
    /// of two neighbours, each one edit.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows of the edit table: two back (for swaps), the previous and the current.
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    value = min(value, twoBack[j - 2] + 1)
                }
                current[j] = value
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
