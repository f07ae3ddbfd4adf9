/// Comparison of secrets in time that does not depend on where they first differ.
enum ConstantTime {
    /// Whether `a` and `b` hold the same UTF-8 bytes; only their lengths can leak through timing.
    static func equals(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
