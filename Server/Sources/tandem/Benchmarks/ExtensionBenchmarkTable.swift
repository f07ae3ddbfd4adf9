import Foundation

/// The table `tandem bench extension` prints, with the goals checked against figures measured
/// in the same run: the brokered round trip's median under 15 ms and under 3× the plain GET's,
/// and the time for 8 processes to refresh under 1.5× one process's.
struct ExtensionBenchmarkTable {
    let brokered: BrokeredRoundTripBenchmark.Result
    let refresh: RefreshRaceBenchmark.Result
    let processes: Int

    var text: String {
        func ms(_ duration: Duration) -> String { String(format: "%8.2f ms", duration.milliseconds) }
        let tripRatio = brokered.roundTrip.median.milliseconds / max(brokered.plainGet.median.milliseconds, 0.001)
        let refreshRatio = refresh.together.median.milliseconds / max(refresh.alone.median.milliseconds, 0.001)
        let tripGoal = brokered.roundTrip.median.milliseconds < 15 && tripRatio < 3
        let refreshGoal = refreshRatio < 1.5
        return """
            Extension paths (\(brokered.roundTrip.sorted.count) brokered rounds, \(refresh.alone.sorted.count) refresh rounds)
                                                      median          p99
            brokered round trip (request→fulfil→read) \(ms(brokered.roundTrip.median))  \(ms(brokered.roundTrip.percentile(0.99)))
            plain loopback GET, same resource (floor) \(ms(brokered.plainGet.median))  \(ms(brokered.plainGet.percentile(0.99)))
            refresh, 1 process alone                  \(ms(refresh.alone.median))  \(ms(refresh.alone.percentile(0.99)))
            refresh, \(processes) processes at once (last done) \(ms(refresh.together.median))  \(ms(refresh.together.percentile(0.99)))

            round trip / floor: \(String(format: "%.2f", tripRatio))x   goal: median < 15 ms and < 3x the floor   \(tripGoal ? "PASS" : "FAIL")
            \(processes) processes / 1 process: \(String(format: "%.2f", refreshRatio))x   goal: < 1.5x   \(refreshGoal ? "PASS" : "FAIL")
            """
    }
}
