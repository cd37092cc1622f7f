@_spi(Package) import WaterfallJSON

/// Runs fuzz cases through a daemon and checks every answer.
///
/// A round sends up to `slots` cases at once, each on a layout of its own (a fresh copy of `FuzzFixture`), each
/// followed by a probe (`layout.get` of no sections: the layout's seq and content size). It checks that every
/// request with an id gets exactly one reply, with that id, in order, either a result or an error of a
/// documented kind other than `internal`; that an error changes nothing (the probe is the fixture's, and every
/// `exportEvery` rounds each layout's `layout.export` is too); that a form fails when its plain twin fails; and
/// that the daemon never exits. Layouts a case changed are re-created, and layouts it made are dropped.
///
/// When the daemon dies, the round's cases are replayed one at a time on a restarted daemon to name the one that
/// killed it, and the run goes on. Every `killEvery` rounds (a durable daemon) the daemon is killed with SIGKILL
/// while reads are in flight, and what it recovers must equal what it last acknowledged.
package final class WireFuzzer {
    package var slots = 16
    package var exportEvery = 16
    /// Rounds between kill -9s of the daemon (0: never).
    package var killEvery = 0
    /// Failures kept in full (all are counted).
    package var keptFailures = 40

    package private(set) var failures: [String] = []
    package private(set) var failureCount = 0
    package private(set) var cases = 0
    package private(set) var kills = 0
    package private(set) var crashes = 0
    /// Replies by error kind ("result" for results, "none" for notifications).
    package private(set) var outcomes: [String: Int] = [:]

    // MARK: Lifecycle

    package init(daemon: DaemonProcess) throws(LineSocket.Failure) {
        self.daemon = daemon
        socket = try LineSocket(path: daemon.socketPath)
    }

    // MARK: Package

    /// Runs `cases`, `slots` at a time.
    package func run(_ cases: some Sequence<FuzzCase>) {
        if !prepared { prepare() }
        var round: [FuzzCase] = []
        for fuzzCase in cases {
            round.append(fuzzCase)
            if round.count == slots {
                runRound(round)
                round.removeAll(keepingCapacity: true)
            }
        }
        if !round.isEmpty { runRound(round) }
    }

    // MARK: Private

    private let daemon: DaemonProcess
    private var socket: LineSocket
    private var prepared = false
    private var nextID = 1
    private var rounds = 0
    private var baselineProbe = ""
    private var baselineExport = ""
    /// The plain form's outcome of the last twin key seen (its forms come one after another).
    private var lastTwin: (key: String, failed: Bool)?
    /// The last case run on each slot, for a failure found later by an export.
    private var lastCase: [String] = []

    private func fail(_ text: String) {
        failureCount += 1
        if failures.count < keptFailures { failures.append(text) }
    }

    /// Creates every slot and records the fixture's probe and export.
    private func prepare() {
        prepared = true
        lastCase = Array(repeating: "(none)", count: slots)
        do throws(FuzzProblem) {
            try resetSlots(Array(0..<slots), drop: [])
            let probe = try call(probeLine(0, id: "p"))
            let export = try call(#"{"id":"x","method":"layout.export","params":{"layout":"f0"}}"#)
            guard let probeText = probe.resultText, let exportText = export.resultText else {
                throw FuzzProblem("the fixture's probe or export failed: \(probe.line) \(export.line)")
            }
            baselineProbe = String(probeText)
            baselineExport = String(exportText)
        } catch {
            fail("setting up the fixture: \(error)")
        }
    }

    private func probeLine(_ slot: Int, id: String) -> String {
        #"{"id":"\#(id)","method":"layout.get","params":{"layout":"\#(FuzzFixture.slot(slot))","sections":[]}}"#
    }

    /// Sends one line and returns its reply (skipping events).
    private func call(_ line: String) throws(FuzzProblem) -> FuzzReply {
        do { try socket.send(line + "\n") } catch { throw FuzzProblem("\(error)") }
        return try nextReply()
    }

    private func nextReply() throws(FuzzProblem) -> FuzzReply {
        while true {
            let line: String
            do { line = try socket.readLine() } catch { throw FuzzProblem("\(error)") }
            let reply = try FuzzReply(line)
            if !reply.isEvent { return reply }
        }
    }

    /// Re-creates `slots` as the fixture and drops `drop`; every one of them must succeed.
    private func resetSlots(_ slots: [Int], drop: [String]) throws(FuzzProblem) {
        guard !slots.isEmpty || !drop.isEmpty else { return }
        var text = ""
        for slot in slots { text += FuzzFixture.createLine(FuzzFixture.slot(slot), id: "\"reset\"") + "\n" }
        for name in drop { text += #"{"id":"drop","method":"layout.drop","params":{"layout":"\#(name)"}}"# + "\n" }
        do { try socket.send(text) } catch { throw FuzzProblem("\(error)") }
        for _ in 0..<(slots.count + drop.count) {
            let reply = try nextReply()
            if reply.isError { throw FuzzProblem("a reset failed: \(reply.line.prefix(400))") }
        }
    }

    /// One round: the cases on slots 0..<count, their probes, the list of layouts, then the resets.
    private func runRound(_ round: [FuzzCase]) {
        rounds += 1
        let firstID = nextID
        nextID += round.count
        var text = ""
        var lines: [String] = []
        for (slot, fuzzCase) in round.enumerated() {
            let line = fuzzCase.line(slot: FuzzFixture.slot(slot), id: firstID + slot)
            lines.append(line)
            lastCase[slot] = fuzzCase.label
            text += line + "\n" + probeLine(slot, id: "p\(firstID + slot)") + "\n"
        }
        text += #"{"id":"list","method":"layout.list"}"# + "\n"
        do throws(FuzzProblem) {
            do { try socket.send(text) } catch { throw FuzzProblem("\(error)") }
            var dirty: [Int] = []
            for (slot, fuzzCase) in round.enumerated() {
                cases += 1
                if try check(fuzzCase, line: lines[slot], slot: slot, id: firstID + slot) { dirty.append(slot) }
            }
            let list = try nextReply()
            let extras = try layoutNames(list).filter { name in
                !(0..<slots).contains { FuzzFixture.slot($0) == name }
            }
            if killEvery > 0, rounds % killEvery == 0 { try killAndRecover() }
            try resetSlots(dirty, drop: extras)
            if rounds % exportEvery == 0 { try compareExports() }
        } catch {
            roundFailed(round, lines: lines, error)
        }
    }

    /// Checks one case's reply and its probe; whether its slot needs re-creating.
    private func check(_ fuzzCase: FuzzCase, line: String, slot: Int, id: Int) throws(FuzzProblem) -> Bool {
        let probeID = JSONValue.string("p\(id)")
        var answer: FuzzReply? = try nextReply()
        let probe: FuzzReply
        if answer?.id == probeID {
            probe = answer!
            answer = nil
        } else {
            probe = try nextReply()
            guard probe.id == probeID else {
                throw FuzzProblem(
                    "a second reply, or one out of order, to: \(fuzzCase.label)\n  \(line.prefix(600))\n  "
                        + "\(probe.line.prefix(400))")
            }
        }
        let shown = "\(fuzzCase.label)\n  \(line.prefix(600))"
        // The reader refuses a number that overflows a double (1e999) as it parses, before any id is known, and an
        // envelope is checked before the daemon knows whether it is a notification's (`params` not an object): the
        // replies with id null that a case of a valid envelope, a notification's included, may get.
        let unreadLine =
            answer.map { answer in
                answer.id == .null
                    && (answer.kind == "parse_error" || answer.kind == "too_large"
                        || (answer.kind == "bad_params"
                            && answer.message?.hasPrefix("params: must be an object") == true))
            } ?? false
        if let answer {
            outcomes[answer.kind ?? "result", default: 0] += 1
            if unreadLine {
                outcomes["\(answer.kind!) with id null", default: 0] += 1
            } else if fuzzCase.form == .notification && !fuzzCase.envelopeFuzzed {
                fail("a notification was answered: \(shown)\n  \(answer.line.prefix(400))")
            } else if !fuzzCase.envelopeFuzzed, answer.id != .int(Int64(id)) {
                fail("a reply with id \(answer.id?.jsonText ?? "?"), not \(id): \(shown)\n  \(answer.line.prefix(400))")
            }
            if let kind = answer.kind, !FuzzReply.clientKinds.contains(kind) {
                fail("\(kind) error: \(shown)\n  \(answer.line.prefix(400))")
            }
        } else {
            outcomes["none", default: 0] += 1
            if fuzzCase.form != .notification && !fuzzCase.envelopeFuzzed { fail("no reply to: \(shown)") }
        }
        let unchanged = probe.resultText.map(String.init) == baselineProbe
        let failed = answer?.isError
        if failed == true && !unchanged {
            fail(
                "an error changed the layout: \(shown)\n  \(answer!.line.prefix(300))\n  probe: \(probe.line.prefix(300))"
            )
        }
        if let twin = fuzzCase.twin {
            if fuzzCase.form == .plain {
                lastTwin = (twin, failed ?? false)
            } else if let last = lastTwin, last.key == twin {
                switch fuzzCase.form {
                case .notification where last.failed && !unchanged:
                    fail("a notification changed the layout, though the same request with an id fails: \(shown)")
                case .batch where last.failed && failed == false, .batchOfThree where last.failed && failed == false:
                    fail("a batch succeeded, though its op alone fails: \(shown)")
                case .batch where !last.failed && failed == true:
                    fail(
                        "a batch of one op failed, though the op alone succeeds: \(shown)\n  \(answer!.line.prefix(300))"
                    )
                default:
                    break
                }
            }
        }
        return !unchanged || failed != true
    }

    /// The names of `layout.list`'s result.
    private func layoutNames(_ list: FuzzReply) throws(FuzzProblem) -> [String] {
        guard list.id == .string("list"), let value = try? JSONValue(parsing: list.line),
            case .array(let layouts) = value["result"]?["layouts"] ?? .null
        else { throw FuzzProblem("layout.list failed or came out of order: \(list.line.prefix(400))") }
        return layouts.compactMap { if case .string(let name) = $0["layout"] ?? .null { name } else { nil } }
    }

    /// Every slot's export must be the fixture's.
    private func compareExports() throws(FuzzProblem) {
        var text = ""
        for slot in 0..<slots {
            text += #"{"id":\#(slot),"method":"layout.export","params":{"layout":"\#(FuzzFixture.slot(slot))"}}"# + "\n"
        }
        do { try socket.send(text) } catch { throw FuzzProblem("\(error)") }
        for slot in 0..<slots {
            let reply = try nextReply()
            guard reply.id == .int(Int64(slot)) else {
                throw FuzzProblem("export out of order: \(reply.line.prefix(300))")
            }
            if reply.resultText.map(String.init) != baselineExport {
                fail(
                    "layout \(FuzzFixture.slot(slot)) is not the fixture, its last case being \(lastCase[slot]):\n  "
                        + "\(reply.line.prefix(600))")
                try resetSlots([slot], drop: [])
            }
        }
    }

    /// The exports of `names` by name (an error's line for a layout that fails).
    private func exports(_ names: [String]) throws(FuzzProblem) -> [String: String] {
        var text = ""
        for name in names { text += #"{"id":"e","method":"layout.export","params":{"layout":"\#(name)"}}"# + "\n" }
        do { try socket.send(text) } catch { throw FuzzProblem("\(error)") }
        var result: [String: String] = [:]
        for name in names {
            let reply = try nextReply()
            result[name] = reply.resultText.map(String.init) ?? reply.line
        }
        return result
    }

    /// kill -9 with reads in flight, a restart on the same state, and the recovered layouts compared with the
    /// last acknowledged ones: the same names, and the same export (seq included) for each.
    private func killAndRecover() throws(FuzzProblem) {
        let names = try layoutNames(call(#"{"id":"list","method":"layout.list"}"#)).sorted()
        let before = try exports(names)
        var text = ""
        for name in names {
            text += #"{"id":"r","method":"layout.get","params":{"layout":"\#(name)"}}"# + "\n"
            text +=
                #"{"id":"q","method":"query","params":{"layout":"\#(name)","rect":{"x":0,"y":0,"w":300,"h":300}}}"#
                + "\n"
        }
        try? socket.send(text)
        kills += 1
        do {
            try daemon.restart()
            socket = try LineSocket(path: daemon.socketPath)
        } catch {
            throw FuzzProblem("the daemon did not come back after kill -9: \(error)")
        }
        let recovered = try layoutNames(call(#"{"id":"list","method":"layout.list"}"#)).sorted()
        guard recovered == names else {
            fail("after kill -9 the daemon holds \(recovered), not \(names)")
            return
        }
        let after = try exports(names)
        for name in names where after[name] != before[name] {
            fail(
                "after kill -9 layout \(name) is not what was acknowledged:\n  before: \(before[name]!.prefix(400))\n  "
                    + "after: \(after[name]!.prefix(400))")
        }
    }

    /// A round that could not be checked to its end: the daemon died, hung or broke the protocol. A dead daemon
    /// is restarted and the round's cases are replayed one at a time to name the one that kills it.
    private func roundFailed(_ round: [FuzzCase], lines: [String], _ error: FuzzProblem) {
        let status = daemon.waitForExit(within: 2)
        guard let status else {
            fail("\(error); the round's lines:\n  " + lines.map { String($0.prefix(400)) }.joined(separator: "\n  "))
            recover()
            return
        }
        crashes += 1
        let errors = String(daemon.standardError.suffix(1_500))
        recover()
        var named = false
        for fuzzCase in round {
            let line = fuzzCase.line(slot: FuzzFixture.slot(0), id: 1)
            do throws(FuzzProblem) {
                do { try socket.send(line + "\n" + probeLine(0, id: "p1") + "\n") } catch {
                    throw FuzzProblem("\(error)")
                }
                var reply = try nextReply()
                if reply.id != .string("p1") { reply = try nextReply() }
                try resetSlots([0], drop: [])
            } catch {
                guard let died = daemon.waitForExit(within: 2) else { continue }
                named = true
                fail("the daemon \(died) on: \(fuzzCase.label)\n  \(line.prefix(600))\n  it said: \(fatalLines())")
                recover()
            }
        }
        if !named {
            fail(
                "the daemon \(status) in a round (\(error)) that no single case of it reproduces; it said: \(errors)"
                    + "\n  " + lines.map { String($0.prefix(400)) }.joined(separator: "\n  "))
        }
    }

    /// The lines of the daemon's standard error that say why it died (Swift's runtime failure and the frames of
    /// the project's code), rather than its register dump.
    private func fatalLines() -> String {
        let lines = daemon.standardError.split(separator: "\n").filter { line in
            line.contains("Fatal error") || line.contains("failure") || line.contains("Waterfall")
        }
        return lines.prefix(12).map { String($0.prefix(300)) }.joined(separator: "\n    ")
    }

    /// A restarted daemon (if it died) and a new connection, with every slot the fixture again.
    private func recover() {
        do {
            if daemon.exitStatus() != nil { try daemon.restart() }
            socket = try LineSocket(path: daemon.socketPath)
            let names = try layoutNames(call(#"{"id":"list","method":"layout.list"}"#))
            let extras = names.filter { name in !(0..<slots).contains { FuzzFixture.slot($0) == name } }
            try resetSlots(Array(0..<slots), drop: extras)
        } catch {
            fail("could not recover the daemon: \(error)")
        }
    }
}
