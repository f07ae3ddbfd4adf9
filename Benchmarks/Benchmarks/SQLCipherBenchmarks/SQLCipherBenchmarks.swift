import Benchmark
import BenchmarkData

/// SQLCipher on the same rows as the vault benchmark (``BenchmarkDataSet/standard``), with the
/// vault database's durability (WAL, `synchronous = NORMAL`), one prepared upsert per write and
/// one prepared select per read, keyed with a raw 256-bit key so that no key derivation is
/// measured per operation. Its own executable: SQLCipher's `sqlite3_*` would clash with the
/// SQLite that GRDB links.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(4),
        maxIterations: 1_000
    )
    let data = BenchmarkDataSet.standard
    let side = SQLCipherSide(data: data)

    Benchmark("SQLCipher set", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let next = side.writes.next()
            try side.store.set(data.values[next.value], id: data.ids[next.item])
        }
    }, setup: side.setUp, teardown: side.tearDown)

    Benchmark("SQLCipher set ×10", closure: { benchmark in
        for _ in 0..<(benchmark.scaledIterations.count / BenchmarkDataSet.batchSize) {
            try side.store.set((0..<BenchmarkDataSet.batchSize).map { _ in
                let next = side.writes.next()
                return (id: data.ids[next.item], value: data.values[next.value])
            })
        }
    }, setup: side.setUp, teardown: side.tearDown)

    Benchmark("SQLCipher get", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try side.store.value(id: data.ids[side.reads.next().item]))
        }
    }, setup: side.setUp, teardown: side.tearDown)
}

/// The SQLCipher database under test, holding every item of the data set before the first measurement.
final class SQLCipherSide: @unchecked Sendable {
    private let data: BenchmarkDataSet
    /// Where the overwrites and the reads are in the data set: kept from one sample to the next,
    /// so that no overwrite stores the bytes already there (SQLite would then write no page).
    var writes: BenchmarkCursor
    var reads: BenchmarkCursor
    private var directory: BenchmarkDirectory?
    private(set) var store: SQLCipherItemStore!

    init(data: BenchmarkDataSet) {
        self.data = data
        writes = BenchmarkCursor(order: data.writeOrder)
        reads = BenchmarkCursor(order: data.readOrder)
    }

    func setUp() throws {
        writes = BenchmarkCursor(order: data.writeOrder)
        reads = BenchmarkCursor(order: data.readOrder)
        let directory = try BenchmarkDirectory(label: "sqlcipher")
        let store = try SQLCipherItemStore(path: directory.file("cipher.sqlite").path)
        for index in data.writeOrder { try store.set(data.values[index], id: data.ids[index]) }
        for index in data.readOrder where try store.value(id: data.ids[index]) != data.values[index] {
            throw BenchmarkSetupFailure("SQLCipher read back other bytes for \(data.keys[index])")
        }
        self.directory = directory
        self.store = store
    }

    func tearDown() throws {
        store?.close()
        directory?.remove()
        store = nil
    }
}
