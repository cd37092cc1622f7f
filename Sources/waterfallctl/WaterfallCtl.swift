import Foundation
import WaterfallCommandLine

/// waterfallctl's entry point: the process's arguments, environment and streams to `WaterfallCtl.run`.
@main
enum WaterfallCtlMain {
    static func main() async {
        let status = await WaterfallCtl.run(
            Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
            terminal: .standard)
        exit(status.rawValue)
    }
}
