/// Comparison of secrets (tokens, `state`, anti-forgery tokens, password hashes) in time that
/// does not depend on where they first differ.
///
/// ```swift
/// guard ConstantTime.equals(returnedState, pending.state) else { throw .stateMismatch }
/// ```
public enum ConstantTime {
    /// Whether `lhs` and `rhs` hold the same bytes; only their lengths can leak through timing.
    public static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    /// Whether `lhs` and `rhs` hold the same UTF-8 bytes; only their lengths can leak through timing.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in equals(left, right) } }
    }

    /// The loop over contiguous bytes: what both overloads above come to for strings, without
    /// a generic iterator per byte.
    private static func equals(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
