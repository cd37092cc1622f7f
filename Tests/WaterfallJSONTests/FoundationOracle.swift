import Foundation
@_spi(Package) import WaterfallJSON

/// Foundation's `JSONSerialization` as a reference reader, and value comparison against its results.
///
/// Known differences of Foundation on Linux (swift-corelibs-foundation), which the tests exclude by name:
/// - it accepts a trailing comma before `]` or `}`; RFC 8259 (and this reader) does not;
/// - it skips a leading UTF-8 byte order mark; this reader rejects it;
/// - it accepts duplicate keys (the last wins); this reader rejects them;
/// - it nests up to 512 levels; the differential tests give this reader the same limit;
/// - it stops at a NUL byte outside a string, as if the input ended there ("3\0:" is accepted as 3);
/// - inside a string it drops U+FEFF at the start of a run of raw text after an escape ("\t\u{FEFF}x"
///   decodes as "\tx"), so strings are compared with U+FEFF removed;
/// - it returns some numbers (19-digit negative integers, long mantissas) as `NSDecimalNumber`, whose
///   `doubleValue` is not correctly rounded, so those are compared through their exact decimal text.
enum FoundationOracle {
    // MARK: Internal

    /// Foundation's parse of `bytes`, or nil if it rejects them.
    static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
    }

    /// Whether `error` is one of the documented places where this reader is stricter than Foundation.
    static func isKnownStricter(_ error: JSONError, in bytes: [UInt8]) -> Bool {
        switch error.reason {
        case .duplicateKey, .unexpectedByte(0x00):
            return true
        case .unexpectedByte(0xEF):
            // A BOM, possibly after whitespace that Foundation also skips.
            return bytes[..<error.offset].allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
                && bytes[error.offset...].starts(with: [0xEF, 0xBB, 0xBF])
        case .unexpectedByte(let byte) where byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}"):
            let before = bytes[..<error.offset].last { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            return before == UInt8(ascii: ",")
        default:
            return false
        }
    }

    /// Nil when `value` equals Foundation's `object`, else a description of the first difference.
    static func difference(_ value: JSONValue, _ object: Any, path: String = "$") -> String? {
        switch value {
        case .null:
            return object is NSNull ? nil : "\(path): null vs \(object)"
        case .bool(let flag):
            guard let number = object as? NSNumber, isBool(number), number.boolValue == flag else {
                return "\(path): \(flag) vs \(object)"
            }
            return nil
        case .int(let integer):
            guard let number = object as? NSNumber, !isBool(number) else { return "\(path): \(integer) vs \(object)" }
            if number is NSDecimalNumber {
                return Int64(number.stringValue) == integer ? nil : "\(path): \(integer) vs decimal \(number)"
            }
            if "dfQ".contains(objCType(number)) {
                return number.doubleValue == Double(integer) ? nil : "\(path): \(integer) vs \(number)"
            }
            return number.int64Value == integer ? nil : "\(path): \(integer) vs \(number)"
        case .double(let double):
            guard let number = object as? NSNumber, !isBool(number) else { return "\(path): \(double) vs \(object)" }
            let theirs =
                number is NSDecimalNumber
                ? Double(number.stringValue) : objCType(number) == "Q" ? Double(number.uint64Value) : number.doubleValue
            return theirs == double ? nil : "\(path): \(double) vs \(number)"
        case .string(let text):
            guard let theirs = object as? String, withoutBOM(theirs) == withoutBOM(text) else {
                return "\(path): \(text.debugDescription) vs \(object)"
            }
            return nil
        case .array(let elements):
            guard let theirs = object as? [Any], theirs.count == elements.count else {
                return "\(path): array of \(elements.count) vs \(object)"
            }
            for (k, element) in elements.enumerated() {
                if let difference = difference(element, theirs[k], path: "\(path)[\(k)]") { return difference }
            }
            return nil
        case .object(let members):
            guard let theirs = object as? [String: Any], theirs.count == members.count else {
                return "\(path): object of \(members.count) vs \(object)"
            }
            for (key, member) in members {
                guard let other = theirs[key] else { return "\(path): key \(key.debugDescription) missing" }
                if let difference = difference(member, other, path: "\(path).\(key)") { return difference }
            }
            return nil
        }
    }

    // MARK: Private

    /// The UTF-8 of `text` without any U+FEFF (see the type's notes).
    private static func withoutBOM(_ text: String) -> [UInt8] {
        Array(String(text.unicodeScalars.filter { $0 != "\u{FEFF}" }).utf8)
    }

    /// The NSNumber's Objective-C type code ("c" for a boolean, "q" for Int64, "d" for Double, ...).
    private static func objCType(_ number: NSNumber) -> String {
        String(cString: number.objCType)
    }

    /// Whether Foundation made this number from `true` or `false`.
    private static func isBool(_ number: NSNumber) -> Bool {
        objCType(number) == "c"
    }
}
