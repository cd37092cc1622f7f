import Glibc

/// Keeps glibc's allocator from holding freed layout buffers.
///
/// A layout's arrays grow by doubling; glibc serves big blocks with mmap and unmaps them when freed, but after the
/// first such free it raises its mmap threshold (up to 32 MiB) and serves later blocks from the heap, where freed
/// ones stay resident, so a layout built by appending in batches holds much more memory than the engine stores.
/// Fixing the threshold at 64 KiB keeps every block above it returnable; a mmap per such block is cheap next to the
/// work that allocates it.
package enum MemoryTuning {
    package static func apply() {
        // `mallopt` is not in Swift's Glibc module (malloc.h is not part of it), so it is looked up at run time.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in malloc.h
        _ = mallopt(mmapThreshold, 64 * 1024)
    }
}
