import Benchmark
import BenchmarkData
import Foundation
import TandemAuth
import TandemSharedContainer
import TandemVault
import TandemWidgets
import TandemWidgetModel
import TandemPlatform

/// The extensions' hot paths, in process: a sealed record written to and read from the shared
/// container, the business widget's timeline from a warm snapshot, the brokered round trip
/// without the network, and the refresh single flight (eight coordinators asking at once
/// against one refreshing alone).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 5,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )
    let records = SealedRecordSide()
    let widget = WidgetSide()
    let refresh = RefreshSide()
    let brokered = BrokeredSide()

    Benchmark("Sealed record write", closure: { _ in
        try records.container.sealed.write(records.payload, kind: "bench", to: "snapshots/bench", key: records.key)
    }, setup: records.setUp, teardown: records.tearDown)

    Benchmark("Sealed record read", closure: { _ in
        blackHole(try records.container.sealed.read(kind: "bench", from: "snapshots/bench", key: records.key))
    }, setup: {
        try records.setUp()
        try records.container.sealed.write(records.payload, kind: "bench", to: "snapshots/bench", key: records.key)
    }, teardown: records.tearDown)

    Benchmark("Widget timeline (warm snapshot)", closure: { _ in
        let timeline = await widget.provider.timeline(for: WidgetSide.configuration, in: WidgetContext(family: .systemLarge))
        blackHole(timeline)
    }, setup: widget.setUp, teardown: widget.tearDown)

    Benchmark("Brokered round trip (no network)", closure: { _ in
        try await brokered.round()
    }, setup: brokered.setUp, teardown: brokered.tearDown)

    Benchmark("Refresh alone", closure: { _ in
        try await refresh.round(coordinators: 1)
    }, setup: refresh.setUp, teardown: refresh.tearDown)

    Benchmark("Refresh single flight ×8", closure: { _ in
        try await refresh.round(coordinators: 8)
    }, setup: refresh.setUp, teardown: refresh.tearDown)
}

/// A shared container and a snapshot key, as the host and a widget hold them.
final class SealedRecordSide: @unchecked Sendable {
    private var directory: BenchmarkDirectory?
    private(set) var container: SharedContainer!
    let key: ContainerKey
    /// About a page of entity-set rows.
    let payload = BenchmarkDataSet.standard.values[0]

    init() {
        // Fixed bytes: the share is not what is measured.
        let share = try? AuxiliaryShare(keyID: Data(repeating: 1, count: 16), bytes: Data(repeating: 2, count: 32))
        key = ContainerKey(share: share!, purpose: .snapshots)
    }

    func setUp() throws {
        let directory = try BenchmarkDirectory(label: "sealed")
        container = try SharedContainer(directory: directory.file("container"))
        self.directory = directory
    }

    func tearDown() throws {
        directory?.remove()
        container = nil
    }
}
