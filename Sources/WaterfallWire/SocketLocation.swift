/// Where the daemon listens when nobody names a socket, and so where its clients look: one rule that `waterfalld`
/// and `WaterfallClient` share, so that a client started like the daemon finds it.
///
/// The rule is pure (the caller says which paths are directories); the daemon then creates and checks the private
/// directory, while a client only connects.
package enum SocketLocation {
    /// The file name used inside `$XDG_RUNTIME_DIR` and the private directory.
    package static let fileName = "waterfalld.sock"

    /// The environment variable that names the socket.
    package static let environmentKey = "WATERFALLD_SOCKET"

    /// What the rule chose: the path, and the private directory it lies in when it fell back to the temporary
    /// directory (nil otherwise).
    package struct Resolution: Sendable, Hashable {
        package var path: String
        package var privateDirectory: String?
    }

    /// `configured` if set, else `$WATERFALLD_SOCKET`, else `$XDG_RUNTIME_DIR/waterfalld.sock` (when it is a
    /// directory), else `<temporaryDirectory>/waterfalld-<uid>/waterfalld.sock`.
    package static func resolve(
        configured: String?, environment: [String: String], uid: UInt32, temporaryDirectory: String = "/tmp",
        isDirectory: (String) -> Bool
    ) -> Resolution {
        if let configured { return Resolution(path: configured) }
        if let explicit = environment[environmentKey], !explicit.isEmpty { return Resolution(path: explicit) }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, isDirectory(runtime) {
            return Resolution(path: join(runtime, fileName))
        }
        let directory = join(temporaryDirectory, "waterfalld-\(uid)")
        return Resolution(path: join(directory, fileName), privateDirectory: directory)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

extension SocketLocation.Resolution {
    init(path: String) { self.init(path: path, privateDirectory: nil) }
}
