import CHugePages

extension ContiguousArray {
    /// Elements from which `reserveForAppend` grows by `largeGrowth`: arrays this large live in their own mmap (see
    /// `MemoryTuning` in the server), where capacity never written costs no resident memory, only address space.
    static var mapped: Int { 65_536 / Swift.max(1, MemoryLayout<Element>.stride) }

    /// How many times over a mapped array grows.
    static var largeGrowth: Int { 16 }

    /// The most elements one growth of a mapped array adds: 256 MiB of them, so that a 10-million-item section
    /// does not ask for gigabytes it will never touch (a request the kernel's overcommit check may refuse).
    static var largestStep: Int { (1 << 28) / Swift.max(1, MemoryLayout<Element>.stride) }

    /// Elements from which a growth asks for transparent huge pages: 4 MiB of them, which hold at least one whole
    /// 2 MiB page wherever the buffer starts, so that the unwritten part of the last huge page (what the advice may
    /// add to the resident memory) stays a small share of the array.
    static var hugePaged: Int { (4 << 20) / Swift.max(1, MemoryLayout<Element>.stride) }

    /// Makes room for `extra` more elements: by doubling while the array is small, by `largeGrowth` once mapped.
    ///
    /// A bulk load appends to the same arrays a hundred times over; each growth faults in fresh pages for the old
    /// elements it copies, and unmaps the old ones. Growing 16× at a time once mapped keeps those copies few; the
    /// unwritten capacity is never resident, so the daemon's memory per item does not change.
    @inline(__always)
    mutating func reserveForAppend(_ extra: Int) {
        let needed = count + extra
        guard capacity < needed else { return }
        let grown =
            capacity >= Self.mapped
            ? capacity + Swift.min(capacity * (Self.largeGrowth - 1), Self.largestStep) : 2 * capacity
        let target = Swift.max(needed, grown)
        guard target >= Self.hugePaged else { return reserveCapacity(target) }
        moveToHugePages(capacity: target)
    }

    // MARK: Private

    /// Moves the elements into a new buffer of `capacity` whose huge pages were asked for before anything is
    /// written to it, so that the copy and the appends after it fault once per 2 MiB rather than once per 4 KiB.
    ///
    /// Filling fresh memory page by page can be most of the cost of a bulk load's growth (a fault per 4 KiB), and
    /// advice given after the copy would leave the copied part in small pages. A freed buffer is
    /// unmapped whole (`MemoryTuning`), huge pages with it, so the resident memory still follows the arrays.
    @inline(never)
    private mutating func moveToHugePages(capacity: Int) {
        let stride = MemoryLayout<Element>.stride
        let moved = ContiguousArray(unsafeUninitializedCapacity: capacity) { buffer, initialized in
            if let base = buffer.baseAddress { chugepages_advise(base, buffer.count * stride) }
            initialized = withUnsafeBufferPointer { buffer.initialize(fromContentsOf: $0) }
        }
        self = moved
    }
}
