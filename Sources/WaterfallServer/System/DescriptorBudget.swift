import Glibc

/// How the daemon shares its open-file limit among its own descriptors, its clients' connections and its layouts'
/// open journals, so that no client and no number of layouts can make an `open` or an `accept` fail.
///
/// Running out is not an error the daemon could handle: libdispatch's workqueue monitor opens `/proc/<tid>/stat`
/// for its pool threads and stops the process when that `open` fails. So every use of descriptors that grows with
/// what clients do has a share here that it never passes: connections past theirs are refused with a `limit` error
/// (accepted only to be told so), and journals past theirs are closed, least recently used first, and opened again
/// when their layout is next written.
package struct DescriptorBudget: Sendable, Equatable {
    // MARK: Lifecycle

    /// The shares of `limit` descriptors: `reserved` for the daemon, then half of the rest each for connections and
    /// journals, journals at most `maxOpenJournals` (none when nothing is durable).
    ///
    /// - Throws: `DescriptorBudget.TooSmall` when `limit` leaves fewer than `minimumConnections` connections or
    ///   `minimumJournals` journals.
    package init(limit: Int, maxOpenJournals: Int, durable: Bool) throws(TooSmall) {
        let needed = Self.reserved + Self.minimumConnections + (durable ? Self.minimumJournals : 0)
        guard limit >= needed else { throw TooSmall(limit: limit, needed: needed) }
        self.limit = limit
        let available = limit - Self.reserved
        journals = durable ? min(maxOpenJournals, available / 2) : 0
        connections = available - journals
    }

    // MARK: Package

    /// A limit too small to run with: the one-line start-up error names it and what is needed.
    package struct TooSmall: Error, Equatable, CustomStringConvertible {
        package var limit: Int
        package var needed: Int

        package var description: String {
            "the open-file limit (RLIMIT_NOFILE) is \(limit) descriptors; waterfalld needs at least \(needed) "
                + "(raise it with LimitNOFILE= in the service's unit, or ulimit -n)"
        }
    }

    /// Descriptors the daemon keeps for itself: the standard streams, the listener, the event loop's epoll and
    /// eventfd, the state directory's lock, Dispatch's own, and those open for a moment (a snapshot being written,
    /// a directory being synced, a file read at recovery, a connection accepted only to be refused, `/proc` read
    /// for `stats`), with room to spare for the workqueue monitor.
    package static let reserved = 32
    package static let minimumConnections = 8
    package static let minimumJournals = 8
    /// Files recovery reads at once, within `reserved`.
    static let recoveryReaders = 8

    /// The soft limit in force.
    package let limit: Int
    /// Connections open at once, at most (`maxConnections` may lower it).
    package let connections: Int
    /// Journal segments open at once, at most.
    package let journals: Int

    /// Raises the soft open-file limit to the hard one (a service gets 1,024 unless its unit sets `LimitNOFILE`,
    /// while the hard limit is usually far higher), then shares it out.
    ///
    /// - Throws: `TooSmall` when even the raised limit is too small.
    package static func atStart(maxOpenJournals: Int, durable: Bool) throws(TooSmall) -> DescriptorBudget {
        try DescriptorBudget(limit: raiseSoftLimit(), maxOpenJournals: maxOpenJournals, durable: durable)
    }

    /// Logs the shares at start (at debug: a fresh start's stderr stays its start-up error, if any), and a
    /// warning when the limit allows fewer connections than `maxConnections`.
    package func log(to logger: Logger, maxConnections: Int) {
        let journalShare = journals > 0 ? ", \(journals) for open journals" : ""
        logger.debug(
            "open-file limit \(limit): \(min(connections, maxConnections)) for connections\(journalShare), "
                + "\(Self.reserved) for the daemon")
        if connections < maxConnections {
            logger.warning(
                "maxConnections is \(maxConnections) but the open-file limit \(limit) allows \(connections) "
                    + "connections (raise LimitNOFILE= or ulimit -n)")
        }
    }

    /// The descriptors the process has open now (the entries of `/proc/self/fd`, less the one reading it).
    package static func inUse() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count - 1
    }

    /// The soft open-file limit in force.
    package static func softLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(Int32.max) }
        return Int(min(limit.rlim_cur, rlim_t(Int32.max)))
    }

    // MARK: Private

    /// Sets the soft limit to the hard limit where allowed (a seccomp filter or a capped hard limit may refuse),
    /// and returns the soft limit in force.
    private static func raiseSoftLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int(Int32.max) }
        // The kernel refuses soft limits above fs.nr_open even when the hard limit is infinite.
        let ceiling = min(limit.rlim_max, rlim_t(1 << 20))
        if limit.rlim_cur < ceiling {
            var raised = limit
            raised.rlim_cur = ceiling
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
        }
        return softLimit()
    }
}
