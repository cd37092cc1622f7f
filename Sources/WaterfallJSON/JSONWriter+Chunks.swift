extension JSONWriter {
    /// The bytes written so far, as an array that takes over the writer's storage (no copy), leaving the writer
    /// empty but inside the same containers: the next value written gets the comma it needs.
    ///
    /// What a reply too large to hold whole is written with: each chunk goes to the socket as it is, and the writer
    /// goes on with a fresh buffer of `capacity` bytes.
    public mutating func takeChunk(capacity: Int) -> [UInt8] {
        // Not zeroed, as in `init(capacity:)`: every byte below `count` is written before it is read.
        var taken = [UInt8](unsafeUninitializedCapacity: max(capacity, 16)) { _, initialized in
            initialized = max(capacity, 16)
        }
        swap(&taken, &buffer)
        taken.removeSubrange(count...)
        count = 0
        return taken
    }
}
