#if canImport(Glibc)
    import Glibc
#endif

/// Test knobs read from the environment.
package enum Environment {
    /// The integer value of `name`, or nil when unset or not a number.
    package static func integer(_ name: String) -> Int? {
        guard let raw = getenv(name) else { return nil }
        return Int(String(cString: raw))
    }
}
