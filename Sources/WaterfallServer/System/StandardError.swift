import Glibc

/// Process-level output and exit for the `@main` file, which imports nothing but this module.
package enum StandardError {
    /// Writes text to stderr as is (used before a logger exists, and for usage errors).
    package static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

extension CommandLineOptions.ExitStatus {
    /// Ends the process with this status, flushing stdout first (`print` buffers it).
    package func exit() -> Never {
        fflush(nil)
        Glibc.exit(rawValue)
    }
}

/// The daemon's name and version, for `--version` and the `version` method.
package enum BuildInfo {
    package static let name = "waterfalld"
    package static let version = "0.1.0"
}
