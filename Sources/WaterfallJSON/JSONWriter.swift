/// Writes compact JSON (no whitespace) into a reusable byte buffer, placing commas itself.
///
/// Calls mirror the text: `beginObject()`, `key("id")`, `value(7)`, ..., `endObject()`. Commas come from a bit
/// per open container (one machine word for the first 64 levels), so there is no per-container allocation.
/// Top-level values get no comma, so several replies can share one buffer, each ended by `newline()`.
///
/// Each call reserves its worst-case length once and writes through a pointer: appending byte by byte to an
/// array costs a uniqueness check per byte. Keep the writer in a local variable while writing a reply: as a class property
/// every call would also pay a dynamic exclusivity check.
///
/// The package's modules share it; it is not the products' API. It is `public` under `@_spi(Package)` rather than
/// `package` because the optimizer inlines and specialises across modules only what is public, and every reply is
/// written through it (so are `JSONFragment` and the number-text caches).
@_spi(Package) public struct JSONWriter: Sendable {
    // MARK: Lifecycle

    /// A writer whose buffer starts with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        // Not zeroed: every byte below `count` is written before it is read, and a reply batch's buffer is large.
        buffer = [UInt8](unsafeUninitializedCapacity: max(capacity, 16)) { _, initialized in
            initialized = max(capacity, 16)
        }
    }

    // MARK: Public

    /// Everything written since the last `reset()`, sharing the writer's storage (no copy).
    @inlinable
    public var bytes: ArraySlice<UInt8> { buffer[..<count] }

    /// Everything written, as an array that takes over the writer's storage (no copy); the writer is left empty.
    public mutating func takeBytes() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &buffer)
        taken.removeSubrange(count...)
        reset()
        return taken
    }

    /// How many bytes have been written since the last `reset()`.
    @inlinable
    public var byteCount: Int { count }

    /// Number texts kept across this writer's replies, for frames' repeated x and width; nil keeps none.
    public var numberTexts: LastingNumberTextCache?

    /// Calls `body` with the bytes written so far, for handing to `write(2)` without a copy.
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = buffer.withUnsafeBytes { raw in
            do throws(E) {
                return .success(try body(UnsafeRawBufferPointer(rebasing: raw[..<count])))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Empties the buffer, keeping its capacity, and forgets any open containers.
    @inlinable
    public mutating func reset() {
        count = 0
        depth = 0
        hasElements = 0
        isAfterKey = false
        if !spilledBits.isEmpty { spilledBits.removeAll(keepingCapacity: true) }
    }

    /// Opens an object.
    @inlinable
    public mutating func beginObject() {
        punctuate(UInt8(ascii: "{"))
        push()
    }

    /// Closes the innermost object.
    @inlinable
    public mutating func endObject() {
        pop()
        write(maximumLength: 1) { p in
            p[0] = UInt8(ascii: "}")
            return 1
        }
    }

    /// Opens an array.
    @inlinable
    public mutating func beginArray() {
        punctuate(UInt8(ascii: "["))
        push()
    }

    /// Closes the innermost array.
    @inlinable
    public mutating func endArray() {
        pop()
        write(maximumLength: 1) { p in
            p[0] = UInt8(ascii: "]")
            return 1
        }
    }

    /// Writes an object key whose text needs no escaping (checked in debug builds), copying its bytes.
    @inlinable
    public mutating func key(_ key: StaticString) {
        if key.hasPointerRepresentation {
            appendKey(key.utf8Start, count: key.utf8CodeUnitCount)
        } else {
            key.withUTF8Buffer { appendKey($0.baseAddress!, count: $0.count) }
        }
    }

    /// Writes an object key computed at run time, escaped as needed.
    public mutating func key(string key: String) {
        appendQuoted(key, comma: separate())
        write(maximumLength: 1) { p in
            p[0] = UInt8(ascii: ":")
            return 1
        }
        isAfterKey = true
    }

    /// Writes `null`.
    @inlinable
    public mutating func null() {
        appendLiteral(0x6C6C_756E, length: 4, comma: separate())
    }

    /// Writes `true` or `false`.
    @inlinable
    public mutating func value(_ value: Bool) {
        let comma = separate()
        if value {
            appendLiteral(0x6575_7274, length: 4, comma: comma)
        } else {
            appendLiteral(0x65_736C_6166, length: 5, comma: comma)
        }
    }

    /// Writes a string with RFC 8259 escapes: `"`, `\` and controls below 0x20; `/` and non-ASCII pass through.
    public mutating func value(_ value: String) {
        appendQuoted(value, comma: separate())
    }

    /// Writes an integer in decimal, without allocating.
    @inlinable
    public mutating func value(_ value: Int) {
        appendInteger(Int64(value), comma: separate())
    }

    /// Writes an integer in decimal, without allocating.
    @inlinable
    public mutating func value(_ value: Int64) {
        appendInteger(value, comma: separate())
    }

    /// Writes a number: integral values below 2^53 as integers (`120`), others in the shortest form that reads
    /// back to the same `Double` (`172.5`, `1e-05`). NaN and infinity have no JSON form: they assert in debug
    /// builds and write `null`.
    @inlinable
    public mutating func value(_ value: Double) {
        write(afterComma: separate(), maximumLength: Self.maximumNumberLength) { Self.writeNumber(value, to: $0) }
    }

    /// Copies `bytes` after a comma if `comma`: the tail of `raw` and of doubles' text.
    @usableFromInline
    internal mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>, comma: Bool) {
        write(afterComma: comma, maximumLength: bytes.count) { p in
            if let base = bytes.baseAddress { p.update(from: base, count: bytes.count) }
            return bytes.count
        }
    }

    /// Splices bytes that already are one valid JSON value (such as a node's `rawBytes`), unchecked.
    public mutating func raw(_ json: ArraySlice<UInt8>) {
        let comma = separate()
        json.withUnsafeBufferPointer { appendBytes($0, comma: comma) }
    }

    /// Splices bytes that already are one valid JSON value, unchecked, from memory the caller owns (no array).
    public mutating func raw(_ json: UnsafeRawBufferPointer) {
        appendBytes(json.assumingMemoryBound(to: UInt8.self), comma: separate())
    }

    /// Splices a parsed value verbatim.
    public mutating func raw(_ node: JSONNode) {
        raw(node.rawBytes)
    }

    /// Whether `newline()` writes the newline: false while the replies of a JSON-RPC batch array share one line,
    /// their brackets and commas written by the caller.
    public var endsLines = true

    /// Ends a top-level value with a newline, the wire protocol's frame separator (nothing unless `endsLines`).
    @inlinable
    public mutating func newline() {
        assert(depth == 0, "newline inside a container")
        guard endsLines else { return }
        write(maximumLength: 1) { p in
            p[0] = UInt8(ascii: "\n")
            return 1
        }
    }

    // MARK: Internal

    /// The output; `count` bytes are written, the rest is zeroed room to write into.
    @usableFromInline internal var buffer: [UInt8]
    /// Bytes written.
    @usableFromInline internal var count = 0
    /// Open containers.
    @usableFromInline internal var depth = 0
    /// Bit k: the container k levels out from the innermost (within the current word) has an element.
    @usableFromInline internal var hasElements: UInt64 = 0
    /// Words of `hasElements` for levels beyond each multiple of 64.
    @usableFromInline internal var spilledBits: [UInt64] = []
    /// A key was just written, so the next value needs no comma.
    @usableFromInline internal var isAfterKey = false

    /// Makes room for `maximumLength` bytes, lets `body` write them at the end and return how many it wrote.
    @inlinable
    internal mutating func write(maximumLength: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + maximumLength > buffer.count { grow(to: count + maximumLength) }
        let start = count
        let written = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
        assert(written <= maximumLength)
        count = start + written
    }

    /// `write` after a comma if `comma`: `body` writes at most `maximumLength` bytes after it.
    @inlinable
    internal mutating func write(
        afterComma comma: Bool, maximumLength: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int
    ) {
        write(maximumLength: maximumLength + 1) { p in
            guard comma else { return body(p) }
            p[0] = UInt8(ascii: ",")
            return 1 + body(p + 1)
        }
    }

    /// Whether the next value or key needs a comma before it; records that its container holds an element.
    @inlinable
    internal mutating func separate() -> Bool {
        if isAfterKey {
            isAfterKey = false
            return false
        }
        guard depth > 0 else { return false }
        if hasElements & 1 != 0 { return true }
        hasElements |= 1
        return false
    }

    /// Writes an opening bracket with the comma it may need.
    @inlinable
    internal mutating func punctuate(_ bracket: UInt8) {
        write(afterComma: separate(), maximumLength: 1) { p in
            p[0] = bracket
            return 1
        }
    }

    /// Writes the low `length` bytes of `word`, little-endian first (the literals true, false, null).
    @inlinable
    internal mutating func appendLiteral(_ word: UInt64, length: Int, comma: Bool) {
        write(afterComma: comma, maximumLength: length) { p in
            for shift in 0..<length { p[shift] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(shift))) }
            return length
        }
    }

    /// Enters a container.
    @inlinable
    internal mutating func push() {
        if depth & 63 == 63 {
            spilledBits.append(hasElements)
            hasElements = 0
        } else {
            hasElements <<= 1
        }
        depth += 1
    }

    /// Leaves a container.
    @inlinable
    internal mutating func pop() {
        guard depth > 0 else {
            assertionFailure("end without begin")
            return
        }
        depth -= 1
        if depth & 63 == 63 {
            hasElements = spilledBits.popLast() ?? 0
        } else {
            hasElements >>= 1
        }
        isAfterKey = false
    }

    /// Writes a key of `count` plain bytes at `text` with its quotes, colon and any comma before it.
    @usableFromInline
    internal mutating func appendKey(_ text: UnsafePointer<UInt8>, count: Int) {
        assert(
            UnsafeBufferPointer(start: text, count: count).allSatisfy {
                $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
            }
        )
        write(afterComma: separate(), maximumLength: count + 3) { p in
            p[0] = UInt8(ascii: "\"")
            // Keys are a few bytes: a loop beats a call to memmove.
            for offset in 0..<count { p[1 + offset] = text[offset] }
            p[count + 1] = UInt8(ascii: "\"")
            p[count + 2] = UInt8(ascii: ":")
            return count + 3
        }
        isAfterKey = true
    }

    /// Grows the buffer to at least `needed` bytes, doubling.
    ///
    /// The room past `count` is left unwritten, as `init(capacity:)` leaves it: zeroing it would make a large reply touch
    /// every page twice (once zeroed, once written). Only the `count` bytes written are copied, not the old room.
    @usableFromInline
    internal mutating func grow(to needed: Int) {
        let target = max(needed, buffer.count * 2)
        let written = count
        buffer = buffer.withUnsafeBufferPointer { old in
            [UInt8](unsafeUninitializedCapacity: target) { new, initialized in
                if let from = old.baseAddress, let to = new.baseAddress { to.initialize(from: from, count: written) }
                initialized = target
            }
        }
    }
}
