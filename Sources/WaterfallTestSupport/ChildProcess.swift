import Glibc

/// Starting child processes (the built daemon, `waterfallctl`, socat) for the tests and the benchmark.
///
/// posix_spawn, not Foundation's `Process`, which can miss the exit of a short-lived child while other tests
/// run; the caller reaps with `waitpid`.
package enum ChildProcess {
    /// Why a child could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts `executable` with `arguments` and exactly `environment` ("NAME=value" each), its standard input read
    /// from `input` and its output and errors written to `output` and `errors` (created or truncated), and returns
    /// its pid.
    ///
    /// The child gets default signal dispositions and an empty signal mask, whatever this process has set: a test
    /// process blocks or ignores signals that a daemon under test must receive.
    package static func spawn(
        _ executable: String, _ arguments: [String], environment: [String], input: String, output: String,
        errors: String
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SpawnError(description: "spawn \(executable): \(String(cString: strerror(status)))")
        }
        return child
    }
}
