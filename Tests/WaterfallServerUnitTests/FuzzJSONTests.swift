import Testing
import WaterfallTestSupport

/// The fuzzer's tree walks: one walk with one path under construction must find the nodes, in the order, that
/// listing every path by prefixing the children's found (the slow, plain definition), and node `k` of
/// `path(at:)` must be the `k`th of them, so a seeded mutation picks uniformly among the nodes.
@Suite struct FuzzJSONTests {
    /// The plain definition the walk must agree with: every path, by prefixing the children's.
    static func prefixedPaths(_ tree: FuzzJSON) -> [[FuzzJSON.Step]] {
        var result: [[FuzzJSON.Step]] = [[]]
        switch tree {
        case .raw: break
        case .array(let elements):
            for (k, element) in elements.enumerated() { result += prefixedPaths(element).map { [.index(k)] + $0 } }
        case .object(let members):
            for member in members { result += prefixedPaths(member.value).map { [.key(member.key)] + $0 } }
        }
        return result
    }

    static let trees: [FuzzJSON] =
        FuzzTemplate.all.compactMap(\.fullParams) + [
            FuzzJSON("1"), FuzzJSON("[]"), FuzzJSON("{}"), FuzzJSON(#"[[[1,[2]],{"a":{"b":[3,{}]}}],-0]"#),
            // Last: a key twice.
            FuzzJSON(#"{"a":1}"#).adding("a", FuzzJSON("[2,3]")),
        ]

    @Test(arguments: trees.indices)
    func theWalkFindsEveryPathInOrder(tree index: Int) {
        let tree = Self.trees[index]
        let expected = Self.prefixedPaths(tree)
        #expect(tree.paths == expected)
        #expect(tree.nodeCount == expected.count)
        for (k, path) in expected.enumerated() { #expect(tree.path(at: k) == path) }
        #expect(tree.path(at: expected.count) == nil)
        // A duplicated key's path names its first member (the subscript's reading), so only where no key repeats
        // are the numbers those that subscripting every path finds.
        if index < Self.trees.count - 1 {
            #expect(tree.numberPaths == expected.filter { tree[$0]?.isNumber == true })
        }
        #expect(tree.paths { _, last in last == .key("layout") } == expected.filter { $0.last == .key("layout") })
    }
}
