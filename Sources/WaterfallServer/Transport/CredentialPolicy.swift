import Glibc

/// Decides from SO_PEERCRED whether a peer may connect: root, the daemon's own user, and the configured ones.
struct CredentialPolicy: Sendable {
    // MARK: Lifecycle

    /// Resolves the config's user and group names; fails naming the first that does not exist.
    init(config: Config, ownUID: UInt32 = getuid()) throws(ConfigError) {
        trustedUIDs = [0, ownUID]
        for user in config.allowedUsers {
            allowedUIDs.insert(try SystemAccounts.userID(named: user, key: "allowedUsers"))
        }
        for group in config.allowedGroups {
            allowedGIDs.insert(try SystemAccounts.groupID(named: group, key: "allowedGroups"))
        }
    }

    // MARK: Internal

    /// Always allowed whatever the config says; tests empty it to exercise refusals while running as root.
    var trustedUIDs: Set<UInt32>
    private(set) var allowedUIDs: Set<UInt32> = []
    private(set) var allowedGIDs: Set<UInt32> = []

    /// Whether the peer may connect; `groups` gives its supplementary groups, asked only when they matter.
    func allows(_ peer: PeerCredentials, groups: () -> [UInt32] = { [] }) -> Bool {
        if trustedUIDs.contains(peer.uid) || allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid) {
            return true
        }
        return !allowedGIDs.isEmpty && groups().contains { allowedGIDs.contains($0) }
    }
}

extension PeerCredentials {
    /// Glibc's module lacks `struct ucred`; this has its layout (pid, uid, gid: 12 bytes).
    private struct UCred {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The credentials the kernel recorded for the peer of a connected Unix socket, or nil if it cannot tell.
    init?(socket fd: Int32) {
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            length == MemoryLayout<UCred>.size
        else { return nil }
        self.init(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }
}

extension PeerCredentials {
    /// SO_PEERGROUPS (Linux 4.13), which Glibc's module does not export.
    private static let peerGroupsOption: Int32 = 59

    /// The peer's supplementary groups as recorded at `connect()`; empty if the kernel cannot tell.
    static func supplementaryGroups(socket fd: Int32) -> [UInt32] {
        var groups = [UInt32](repeating: 0, count: 64)
        for _ in 0..<2 {
            var length = socklen_t(groups.count * MemoryLayout<UInt32>.size)
            if getsockopt(fd, SOL_SOCKET, peerGroupsOption, &groups, &length) == 0 {
                return Array(groups.prefix(Int(length) / MemoryLayout<UInt32>.size))
            }
            // ERANGE reports the size needed in `length`.
            guard errno == ERANGE else { return [] }
            groups = [UInt32](repeating: 0, count: Int(length) / MemoryLayout<UInt32>.size)
        }
        return []
    }
}
