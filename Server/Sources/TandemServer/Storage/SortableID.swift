import Synchronization

/// Row ids that sort in the order this process made them: 16 hex digits of a per-process
/// sequence, then 16 random ones against other instances' ids. Rows stamped in the same
/// millisecond (audit events, changes) then list in the order they were written.
enum SortableID {
    /// Ids made by this process so far: the first half of each id.
    private static let made = Atomic<UInt64>(0)

    /// A fresh id that sorts after every id this process made before.
    static func next() -> String {
        let sequence = made.wrappingAdd(1, ordering: .relaxed).newValue
        return hex(sequence) + "-" + hex(UInt64.random(in: .min ... .max))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
