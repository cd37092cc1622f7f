import Glibc

/// Sends sd_notify(3) datagrams (`READY=1`, `STOPPING=1`, `WATCHDOG=1`) to `$NOTIFY_SOCKET` without libsystemd.
struct SystemdNotifier: Sendable {
    // MARK: Lifecycle

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the environment.
    init() {
        address = getenv("NOTIFY_SOCKET").flatMap { UnixSocketAddress(String(cString: $0)) }
        let pidMatches = getenv("WATCHDOG_PID").map { Int32(String(cString: $0)) == getpid() } ?? true
        if pidMatches, let raw = getenv("WATCHDOG_USEC"), let micros = UInt64(String(cString: raw)), micros > 0 {
            watchdogInterval = Double(micros) / 2_000_000
        } else {
            watchdogInterval = nil
        }
    }

    // MARK: Internal

    /// Whether systemd is listening for notifications.
    var isEnabled: Bool { address != nil }

    /// Seconds between `WATCHDOG=1` pings (half of `WATCHDOG_USEC`), when systemd asked for them.
    let watchdogInterval: Double?

    /// Sends one datagram; returns the errno on failure so the caller can log it (systemd may be gone).
    @discardableResult
    func notify(_ state: String) -> Int32? {
        guard let address else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { Glibc.close(fd) }
        let bytes = Array(state.utf8)
        let sent = address.withSockaddr { pointer, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), pointer, length) }
        }
        return sent == bytes.count ? nil : errno
    }

    // MARK: Private

    private let address: UnixSocketAddress?
}
