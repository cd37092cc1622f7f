import WaterfallLayout

/// `swift run -c release waterfall-bench [--quick] [--only NAME,…]`: prints one table of figures and ratios.
@main
enum WaterfallBench {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        let quick = arguments.contains("--quick")
        let only = arguments.firstIndex(of: "--only").map { arguments[$0 + 1].split(separator: ",").map(String.init) }
        func wants(_ name: String) -> Bool { only?.contains(name) ?? true }
        let runs = quick ? 3 : 7
        let columns = arguments.firstIndex(of: "--columns").map {
            arguments[$0 + 1].split(separator: ",").compactMap { Int($0) }
        }
        var table = Table()
        if wants("kernel") {
            print("kernel")
            await KernelBenchmark.run(
                items: quick ? 200_000 : 1_000_000, columns: columns ?? [2, 3, 5, 8, 16, 64], runs: runs,
                table: &table)
        }
        print("\n" + table.render())
    }
}
