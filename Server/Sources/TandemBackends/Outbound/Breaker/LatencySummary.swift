/// The median and 95th percentile of a destination's recent call latencies (nearest rank).
public struct LatencySummary: Sendable, Hashable {
    /// How many latencies the summary is over.
    public let sampleCount: Int
    /// The median; `nil` without samples.
    public let p50: Duration?
    /// The 95th percentile; `nil` without samples.
    public let p95: Duration?

    /// Summarizes `samples`, in any order.
    public init(samples: [Duration]) {
        let sorted = samples.sorted()
        sampleCount = sorted.count
        p50 = Self.percentile(50, of: sorted)
        p95 = Self.percentile(95, of: sorted)
    }

    private static func percentile(_ percent: Int, of sorted: [Duration]) -> Duration? {
        guard !sorted.isEmpty else { return nil }
        let rank = (percent * sorted.count + 99) / 100
        return sorted[max(rank, 1) - 1]
    }
}
