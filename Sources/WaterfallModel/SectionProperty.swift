/// One section property, typed: where it lives in `SectionProperties` and `SectionPatch`, and its built-in default.
package struct SectionProperty<Value: PropertyValueConvertible>: Sendable {
    /// The contract's name, also the field name in every error.
    package let key: StaticString
    package let kind: PropertyKind
    /// What applies when neither the section nor the defaults set it; nil for the column rule's properties, which
    /// `SectionGeometry` resolves together.
    package let builtIn: Value?
    let own: any WritableKeyPath<SectionProperties, Value?> & Sendable
    let change: any WritableKeyPath<SectionPatch, PropertyChange<Value>?> & Sendable

    init(
        _ key: StaticString, _ kind: PropertyKind, _ own: any WritableKeyPath<SectionProperties, Value?> & Sendable,
        _ change: any WritableKeyPath<SectionPatch, PropertyChange<Value>?> & Sendable, builtIn: Value? = nil
    ) {
        self.key = key
        self.kind = kind
        self.own = own
        self.change = change
        self.builtIn = builtIn
    }

    /// The section's own value, else the defaults', else the built-in default (the Geometry article, "The properties of a section").
    @inline(__always)
    package func resolve(_ section: SectionProperties, _ defaults: SectionProperties) -> Value {
        guard let value = section[keyPath: own] ?? defaults[keyPath: own] ?? builtIn else {
            assertionFailure("\(key) has no built-in default")
            return .fallback
        }
        return value
    }

    /// The same property with its type erased, for code that treats every property alike.
    var erased: AnySectionProperty {
        let own = self.own
        let change = self.change
        return AnySectionProperty(
            key: key, kind: kind, read: { $0[keyPath: own]?.propertyValue },
            write: { p, value in
                guard let value else { return p[keyPath: own] = nil }
                guard let typed = Self.unwrap(value) else { return }
                p[keyPath: own] = typed
            },
            readChange: { patch in
                switch patch[keyPath: change] {
                case nil: return nil
                case .reset?: return .reset
                case .set(let value)?: return .set(value.propertyValue)
                }
            },
            writeChange: { patch, value in
                switch value {
                case nil: patch[keyPath: change] = nil
                case .reset?: patch[keyPath: change] = .reset
                case .set(let value)?:
                    guard let typed = Self.unwrap(value) else { return }
                    patch[keyPath: change] = .set(typed)
                }
            })
    }

    /// The codecs make each kind's case; another case here is a bug in one of them, not bad input: asserted, and
    /// in a release build the write is skipped rather than the daemon stopped.
    private static func unwrap(_ value: PropertyValue) -> Value? {
        guard let typed = Value(propertyValue: value) else {
            assertionFailure("\(value) is not a \(Value.self)")
            return nil
        }
        return typed
    }
}

/// One section property with its type erased: what decoding, encoding, merging, validation and the storage format
/// iterate over.
package struct AnySectionProperty: Sendable {
    /// The contract's name, also the field name in every error.
    package let key: StaticString
    package let kind: PropertyKind
    let read: @Sendable (SectionProperties) -> PropertyValue?
    let write: @Sendable (inout SectionProperties, PropertyValue?) -> Void
    let readChange: @Sendable (SectionPatch) -> PropertyChange<PropertyValue>?
    let writeChange: @Sendable (inout SectionPatch, PropertyChange<PropertyValue>?) -> Void

    /// `key` as a string.
    package var name: String { key.description }

    /// The value `p` sets, or nil.
    package func value(in p: SectionProperties) -> PropertyValue? { read(p) }

    /// Sets (or with nil unsets) the property in `p`; `value` must be of the property's kind.
    package func set(_ value: PropertyValue?, in p: inout SectionProperties) { write(&p, value) }

    /// What `patch` does to the property: nil keeps it.
    package func change(in patch: SectionPatch) -> PropertyChange<PropertyValue>? { readChange(patch) }

    /// Makes `patch` set, reset or (nil) keep the property; a set value must be of the property's kind.
    package func set(_ change: PropertyChange<PropertyValue>?, in patch: inout SectionPatch) {
        writeChange(&patch, change)
    }
}

/// Two properties a section may not set together (`columns` and `minColumnWidth`): setting one clears the other.
package struct PropertyExclusion: Sendable {
    /// The property the error's reason names.
    package let kept: AnySectionProperty
    /// The property the error names as its field.
    package let refused: AnySectionProperty

    /// The reason of the error for both set, e.g. "cannot be set together with columns".
    package var reason: String { "cannot be set together with \(kept.key)" }

    /// The refused property's value when `p` sets both, else nil.
    package func conflict(in p: SectionProperties) -> PropertyValue? {
        guard kept.value(in: p) != nil else { return nil }
        return refused.value(in: p)
    }

    /// The refused property's value when `patch` sets both, else nil.
    package func conflict(in patch: SectionPatch) -> PropertyValue? {
        guard case .set? = kept.change(in: patch), case .set(let value)? = refused.change(in: patch) else {
            return nil
        }
        return value
    }
}
