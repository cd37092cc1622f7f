import Glibc

/// Looks up users and groups in the system's account databases (NSS), as `id` and `ls -l` do.
enum SystemAccounts {
    // MARK: Internal

    /// The uid of a user name, or of a decimal uid as written in the config.
    static func userID(named name: String, key: String) throws(ConfigError) -> UInt32 {
        if let id = UInt32(name) { return id }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        let found = withScratch { buffer, size in getpwnam_r(name, &entry, buffer, size, &result) }
        guard found == 0, result != nil else { throw ConfigError("\(key): there is no user named '\(name)'") }
        return entry.pw_uid
    }

    /// The gid of a group name, or of a decimal gid as written in the config.
    static func groupID(named name: String, key: String) throws(ConfigError) -> UInt32 {
        if let id = UInt32(name) { return id }
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        let found = withScratch { buffer, size in getgrnam_r(name, &entry, buffer, size, &result) }
        guard found == 0, result != nil else { throw ConfigError("\(key): there is no group named '\(name)'") }
        return entry.gr_gid
    }

    // MARK: Private

    /// Runs a `get*_r` call with a buffer that grows while the call answers ERANGE (large groups need it).
    private static func withScratch(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> Int32 {
        var size = 16_384
        while true {
            let status = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer in
                body(buffer.baseAddress!, size)
            }
            if status != ERANGE || size >= 1 << 22 { return status }
            size *= 4
        }
    }
}
