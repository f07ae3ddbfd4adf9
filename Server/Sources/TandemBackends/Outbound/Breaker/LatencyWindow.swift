/// The last N latencies of a destination, oldest overwritten first.
struct LatencyWindow: Sendable {
    private var samples: [Duration] = []
    private var next = 0
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    mutating func add(_ latency: Duration) {
        if samples.count < capacity {
            samples.append(latency)
        } else {
            samples[next] = latency
        }
        next = (next + 1) % capacity
    }

    var summary: LatencySummary { LatencySummary(samples: samples) }
}
