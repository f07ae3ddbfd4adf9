/// Order statistics of a set of timings: the median and percentiles, which a few slow
/// outliers on a shared machine do not drag the way they drag a mean.
struct SampleStatistics {
    /// The samples, fastest first.
    let sorted: [Duration]

    /// Summarises `samples`; statistics of no samples are zero.
    init(_ samples: [Duration]) {
        sorted = samples.sorted()
    }

    /// The middle sample (the mean of the two middle ones for an even count).
    var median: Duration {
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The nearest-rank percentile: the smallest sample at or above `fraction` of all samples.
    ///
    /// - Parameter fraction: Between 0 and 1, e.g. `0.99` for p99.
    func percentile(_ fraction: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
