import Synchronization

/// Hands a value (a section, a width's layout) to a child task so that, once taken, the child's copy is the only
/// one: a value still referenced from the parent would be copied whole on the child's first write. The daemon's
/// connections hand their first work to their task the same way, so that the task's closure does not hold it.
package final class HandOff<Value: Sendable>: Sendable {
    @usableFromInline let value: Mutex<Value>
    @usableFromInline let placeholder: Value

    /// Holds `value`; `take` leaves `placeholder` in its place.
    @inlinable
    package init(_ value: Value, leaving placeholder: Value) {
        self.value = Mutex(value)
        self.placeholder = placeholder
    }

    /// The value, leaving the placeholder behind.
    @inlinable
    package func take() -> Value {
        value.withLock { value in
            let taken = value
            value = placeholder
            return taken
        }
    }
}
