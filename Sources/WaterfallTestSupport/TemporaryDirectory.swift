import Glibc

/// A test precondition that did not hold, with what happened.
package struct TestFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A fresh private directory under /tmp.
package func makeTemporaryDirectory() throws -> String {
    var template = Array("/tmp/waterfall-test-XXXXXX".utf8CString)
    guard mkdtemp(&template) != nil else { throw TestFailure("mkdtemp: \(String(cString: strerror(errno)))") }
    return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// Removes `path` and everything in it.
package func removeDirectory(_ path: String) {
    guard let directory = opendir(path) else { return }
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        // A subdirectory (a daemon's state directory) is emptied first.
        if name != "." && name != "..", unlink(path + "/" + name) != 0 { removeDirectory(path + "/" + name) }
    }
    closedir(directory)
    rmdir(path)
}
