/// Seeded structural mutations of valid requests: case `index` of run `seed` is always the same request, so a
/// failure is replayed from the two numbers it prints.
package enum WireFuzzMutations {
    /// Case `index` of the run seeded with `seed`: a random template in a random form, mutated one to three times.
    package static func mutation(seed: UInt64, index: Int) -> FuzzCase {
        var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        let template = FuzzTemplate.all.randomElement(using: &rng)!
        let forms: [FuzzCase.Form] =
            template.isChange ? [.plain, .batch, .batchOfThree, .notification] : [.plain, .notification]
        let form = forms.randomElement(using: &rng)!
        var request = FuzzCase.request(template.method, template.fullParams, form: form)
        var names: [String] = []
        var envelopeFuzzed = false
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let (mutated, name, touchedEnvelope) = mutate(request, &rng)
            request = mutated
            names.append(name)
            envelopeFuzzed = envelopeFuzzed || touchedEnvelope
        }
        return FuzzCase(
            request: request, form: form,
            label:
                "mutation \(index) of seed \(seed): \(template.method) (\(form.rawValue)), \(names.joined(separator: ", "))",
            envelopeFuzzed: envelopeFuzzed)
    }

    // MARK: Private

    /// The members a mutation of the envelope touches; a path starting with one of them changes the reply's id or
    /// whether there is one.
    private static let envelopeKeys: Set<String> = ["jsonrpc", "id", "method"]

    private static let methods = FuzzTemplate.all.map(\.method) + ["batch", "items.insertx", "", "Ping"]

    /// Values put where another was: extremes, other types, a deep nest, and long strings.
    private static func randomValue(_ rng: inout SplitMix64) -> FuzzJSON {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .string(String(repeating: "x", count: Int.random(in: 0...300, using: &rng)))
        case 1: return .object([("h", .raw("1"))])
        case 2:
            return .array(
                (0..<Int.random(in: 0...4, using: &rng)).map { _ in .raw("\(Int.random(in: -1...6, using: &rng))") })
        case 3: return .string(FuzzCase.slotName)
        default: return .raw(WireFuzzTable.values.randomElement(using: &rng)!)
        }
    }

    /// One mutation of `request`: the new request, its name, and whether it touched the envelope.
    private static func mutate(
        _ request: FuzzJSON, _ rng: inout SplitMix64
    ) -> (FuzzJSON, String, Bool) {
        // A node other than the root, uniformly, without listing every path (large arrays have hundreds of
        // thousands).
        let nodes = request.nodeCount
        guard nodes > 1, let path = request.path(at: Int.random(in: 1..<nodes, using: &rng)) else {
            return (request, "none", false)
        }
        let touches =
            path.count == 1 && { if case .key(let key) = path[0] { envelopeKeys.contains(key) } else { false } }()
        let place = path.map(\.description).joined()
        switch Int.random(in: 0..<14, using: &rng) {
        case 0:
            return (request.updating(path) { _ in nil }, "drop \(place)", touches)
        case 1:
            // Duplicate the last key of `path` in its object (the reader refuses duplicate keys).
            guard case .key(let key) = path.last!, let value = request[path] else { break }
            let parent = Array(path.dropLast())
            return (request.updating(parent) { $0.adding(key, value) }, "duplicate \(place)", false)
        case 2, 3:
            let value = randomValue(&rng)
            return (request.replacing(path, with: value), "\(place) = \(value.text.prefix(40))", touches)
        case 4:
            let depth = [1, 2, 10, 63, 64, 65, 200].randomElement(using: &rng)!
            return (
                request.updating(path) { value in
                    (0..<depth).reduce(value) { nested, k in k % 2 == 0 ? .array([nested]) : .object([("v", nested)]) }
                }, "nest \(place) \(depth) deep", touches
            )
        case 5:
            guard case .array = request[path] else { break }
            return (request.replacing(path, with: .array([])), "empty \(place)", false)
        case 6:
            guard case .array(let elements) = request[path], let first = elements.first else { break }
            // Up to about the line limit, sometimes past it (too_large): a power of two at random, so that most
            // are small and a run is not spent writing and parsing quarter-megabyte lines (uniform sizes would make
            // mutations far slower than the table).
            let size = max(1, first.text.utf8.count + 1)
            let count = min(1 << Int.random(in: 1...18, using: &rng), FuzzFixture.maxLineBytes * 5 / 4 / size)
            return (
                request.replacing(path, with: .array(Array(repeating: first, count: count))),
                "\(place) × \(count)", false
            )
        case 7:
            guard case .array(let elements) = request[path], let element = elements.randomElement(using: &rng) else {
                break
            }
            return (request.replacing(path, with: .array(elements + [element])), "repeat in \(place)", false)
        case 8:
            let parent = Array(path.dropLast())
            guard case .object = request[parent] else { break }
            let key = ["zz", "Section", "layout", "items", "params", "method", "ops"].randomElement(using: &rng)!
            return (
                request.updating(parent) { $0.adding(key, randomValue(&rng)) },
                "add \(key) to \(parent.map(\.description).joined())",
                parent.isEmpty
            )
        case 9:
            // Another method, at the top or in a batch op.
            let methodPaths = request.paths { _, last in last == .key("method") }
            guard let target = methodPaths.randomElement(using: &rng) else { break }
            let method = methods.randomElement(using: &rng)!
            return (
                request.replacing(target, with: .string(method)),
                "method \(target.map(\.description).joined()) = \(method)", target.count == 1
            )
        case 10:
            let layoutPaths = request.paths { _, last in last == .key("layout") }
            guard let target = layoutPaths.randomElement(using: &rng) else { break }
            let name = ["zz", "bad name", "", String(repeating: "n", count: 129), "new"].randomElement(using: &rng)!
            return (request.replacing(target, with: .string(name)), "layout = '\(name.prefix(20))'", false)
        case 11:
            // Ops of other templates (valid ones) around the batch's ops.
            let opsPaths = request.paths { _, last in last == .key("ops") }
            guard let target = opsPaths.first, case .array(let ops) = request[target] else { break }
            let change = FuzzTemplate.all.filter(\.isChange).randomElement(using: &rng)!
            let op = FuzzJSON.object([
                ("method", .string(change.method)),
                (
                    "params",
                    FuzzCase.batchKeys(of: change.method).reduce(change.params ?? .object([])) { $0.removing($1) }
                ),
            ])
            let mixed = Bool.random(using: &rng) ? [op] + ops : ops + [op]
            return (request.replacing(target, with: .array(mixed)), "ops + \(change.method)", false)
        case 12:
            // The text itself: cut short, or a stray byte inserted.
            var text = Array(request.text.utf8)
            let at = Int.random(in: 0..<text.count, using: &rng)
            if Bool.random(using: &rng) {
                text.removeSubrange(at...)
            } else {
                text.insert(
                    [UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "\""), 0x7F, 0xC3].randomElement(using: &rng)!,
                    at: at)
            }
            return (.raw(String(decoding: text, as: UTF8.self)), "text edited at \(at)", true)
        default:
            // A number replaced by another extreme (most mutations keep the request well-formed).
            let numbers = request.numberPaths
            guard let target = numbers.randomElement(using: &rng) else { break }
            let value = WireFuzzTable.values.randomElement(using: &rng)!
            return (
                request.replacing(target, with: .raw(value)), "\(target.map(\.description).joined()) = \(value)",
                target == [.key("id")]
            )
        }
        return (request, "none", false)
    }
}
