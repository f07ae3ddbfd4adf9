#if canImport(os)
import os
#else
import Synchronization
#endif

/// A value that one thread at a time reads or changes, under a lock held only for the closure
/// given to ``withLock(_:)``.
///
/// It is the SDK's one lock, and it exists wherever the SDK runs: `OSAllocatedUnfairLock` on
/// Apple platforms (iOS 16, macOS 13), the standard library's `Mutex` elsewhere. `Mutex` itself
/// needs iOS 18. A `Locked` is copied by reference: every copy guards the same value, so a
/// closure or a task that captures it shares the value with its creator.
///
/// ```swift
/// let count = Locked(0)
/// await withTaskGroup(of: Void.self) { group in
///     for _ in 0..<10 { group.addTask { count.withLock { $0 += 1 } } }
/// }
/// let total = count.withLock { $0 }    // 10
/// ```
///
/// The lock is not reentrant, and it must not be held across a suspension: `body` is
/// synchronous, so keep it short and call nothing in it that takes the same lock.
///
/// Like `Mutex`, it may guard a value that is not `Sendable` (a cache of class instances): the
/// value is `sending` in and out of `body`, so nothing of it escapes the lock but a copy the
/// compiler can prove is no longer shared.
package struct Locked<Value>: Sendable {
    #if canImport(os)
    /// The value and its lock. `nonisolated(unsafe)`: the lock, not the compiler, keeps the
    /// value to one thread at a time.
    private final class Box: @unchecked Sendable {
        let lock = OSAllocatedUnfairLock()
        nonisolated(unsafe) var value: Value
        init(_ value: sending Value) { self.value = value }
    }
    #else
    /// A `Mutex` cannot be copied; its one instance lives in this box.
    private final class Box: Sendable {
        let mutex: Mutex<Value>
        init(_ value: sending Value) { mutex = Mutex(value) }
    }
    #endif

    private let box: Box

    /// A lock guarding `value`.
    ///
    /// - Parameter value: The value's first state.
    package init(_ value: sending Value) {
        box = Box(value)
    }

    /// Runs `body` with the value, holding the lock, and returns what `body` returns.
    ///
    /// - Parameter body: Reads or changes the value; other threads wait until it returns.
    /// - Throws: What `body` throws, with its type; the value keeps the changes `body` made
    ///   before it threw.
    package func withLock<Output, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Output
    ) throws(Failure) -> sending Output {
        #if canImport(os)
        box.lock.lock()
        defer { box.lock.unlock() }
        return try body(&box.value)
        #else
        return try box.mutex.withLock(body)
        #endif
    }
}
