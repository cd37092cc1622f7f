import Foundation
import Testing
import WaterfallTestSupport

/// A JSON-RPC library the daemon's authors did not write drives the built daemon: aiorpcx, the library ElectrumX
/// is built on, over the Unix socket with its newline framing (its default), with calls, an error, a
/// notification and a batch array holding a notification and an error. CI installs it (`.ci/run`).
@Suite(.tags(.process, .tool)) struct ThirdPartyClientTests {
    /// The client, run as `python3 -c script socket`; exit 3 when aiorpcx is missing.
    static let script = """
        import asyncio
        import sys

        try:
            import aiorpcx
        except ImportError:
            sys.exit(3)


        async def main(path):
            async with aiorpcx.connect_us(path) as session:
                pong = await session.send_request("ping")
                print("ping", pong["pong"])
                spec = {"layout": "py", "width": 300, "sections": [{"items": [{"h": 10}]}], "diff": False}
                created = await session.send_request("layout.create", spec)
                print("created seq", created["seq"])
                try:
                    await session.send_request("layout.get", {"layout": "missing"})
                except aiorpcx.RPCError as error:
                    print("error", error.code, error.message)
                update = {"layout": "py", "section": 0, "items": [{"i": 0, "h": 20}]}
                await session.send_notification("items.update", update)
                async with session.send_batch() as batch:
                    batch.add_request("ping")
                    batch.add_notification("items.update", {**update, "items": [{"i": 0, "h": 30}]})
                    batch.add_request("no.such.method", [1, 2])
                    batch.add_request("layout.get", {"layout": "py"})
                pong, missing, layout = batch.results
                print("batch ping", pong["pong"])
                print("batch error", missing.code, missing.message)
                print("batch layout seq", layout["seq"], "height", layout["contentSize"]["h"])


        asyncio.run(asyncio.wait_for(main(sys.argv[1]), 20))
        """

    /// Whether python3 can import aiorpcx.
    static func hasAiorpcx() async -> Bool {
        guard let python = ChildProcess.which("python3"),
            let process = try? ChildProcess(
                python, ["-c", "import aiorpcx"], environment: [:])
        else { return false }
        return await process.waitForExit(within: 30)?.status == 0
    }

    @Test(
        "aiorpcx calls, notifies and batches against the daemon",
        .enabled("the Python module aiorpcx is not installed (pip install aiorpcx; CI installs it)") {
            await hasAiorpcx()
        })
    func aiorpcxDrivesTheDaemon() async throws {
        let daemon = try await DaemonProcess.start(.init(arguments: ["--ephemeral"]))
        let python = try #require(ChildProcess.which("python3"))
        let process = try ChildProcess(
            python, ["-c", Self.script, daemon.socketPath], environment: [:])
        let exit = await process.waitForExit(within: 60)
        #expect(exit?.status == 0, "aiorpcx client: \(process.standardError)")
        #expect(
            process.standardOutput == """
                ping True
                created seq 1
                error -32001 params.layout: layout 'missing' does not exist
                batch ping True
                batch error -32601 method: no method named "no.such.method"
                batch layout seq 3 height 30

                """)
        _ = await daemon.stop()
    }
}
