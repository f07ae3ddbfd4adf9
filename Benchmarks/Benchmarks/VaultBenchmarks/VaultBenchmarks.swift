import Benchmark
import BenchmarkData
import Foundation
import TandemVault
import TandemPlatform

/// The vault against a plain GRDB table configured like the vault's database, on the same rows
/// (``BenchmarkDataSet/standard``, all stored before measuring): overwrites and reads in a
/// shuffled order, one call per item, and overwrites batched ten to a transaction
/// (`Vault.write`). The SQLCipher
/// side of the comparison is the `SQLCipherBenchmarks` target; `BenchmarkRatios` prints the three
/// side by side.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(4),
        maxIterations: 1_000
    )
    let data = BenchmarkDataSet.standard
    let vault = VaultSide(data: data)
    let plain = PlainSide(data: data)
    let batchSize = BenchmarkDataSet.batchSize

    Benchmark("Vault set", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let next = vault.writes.next()
            try vault.store.set(data.values[next.value], forKey: data.keys[next.item])
        }
    }, setup: vault.setUp, teardown: vault.tearDown)

    Benchmark("GRDB set", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            let next = plain.writes.next()
            try plain.store.set(data.values[next.value], id: data.ids[next.item])
        }
    }, setup: plain.setUp, teardown: plain.tearDown)

    Benchmark("Vault set ×10", closure: { benchmark in
        for _ in 0..<(benchmark.scaledIterations.count / batchSize) {
            try vault.store.write { transaction in
                for _ in 0..<batchSize {
                    let next = vault.writes.next()
                    try transaction.set(data.values[next.value], forKey: data.keys[next.item])
                }
            }
        }
    }, setup: vault.setUp, teardown: vault.tearDown)

    Benchmark("GRDB set ×10", closure: { benchmark in
        for _ in 0..<(benchmark.scaledIterations.count / batchSize) {
            try plain.store.set((0..<batchSize).map { _ in
                let next = plain.writes.next()
                return (id: data.ids[next.item], value: data.values[next.value])
            })
        }
    }, setup: plain.setUp, teardown: plain.tearDown)

    Benchmark("Vault get", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try vault.store.data(forKey: data.keys[vault.reads.next().item]))
        }
    }, setup: vault.setUp, teardown: vault.tearDown)

    Benchmark("GRDB get", closure: { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try plain.store.value(id: data.ids[plain.reads.next().item]))
        }
    }, setup: plain.setUp, teardown: plain.tearDown)

    // Unlocking: the extension-request path (no key derivation) and the passcode (scrypt at the
    // calibrated cost, deliberately about 100 ms or more).
    let unlocking = UnlockSide()
    Benchmark("Vault unlock (paired key)", configuration: .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 5, maxDuration: .seconds(3), maxIterations: 500
    ), closure: { _ in
        unlocking.vault.lock()
        try unlocking.vault.unlock(pairedKey: unlocking.share)
    }, setup: unlocking.setUp, teardown: unlocking.tearDown)

    Benchmark("Vault unlock (passcode)", configuration: .init(
        metrics: [.wallClock, .throughput], warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 10
    ), closure: { _ in
        unlocking.vault.lock()
        try unlocking.vault.unlock(passcode: UnlockSide.passcode)
    }, setup: unlocking.setUp, teardown: unlocking.tearDown)
}

/// The vault under test: created without a passcode (no key derivation in the setup) and
/// holding every item of the data set before the first measurement.
final class VaultSide: @unchecked Sendable {
    private let data: BenchmarkDataSet
    /// Where the overwrites and the reads are in the data set: kept from one sample to the next,
    /// so that no overwrite stores the bytes already there (SQLite would then write no page).
    var writes: BenchmarkCursor
    var reads: BenchmarkCursor
    private var directory: BenchmarkDirectory?
    private(set) var store: Vault!

    init(data: BenchmarkDataSet) {
        self.data = data
        writes = BenchmarkCursor(order: data.writeOrder)
        reads = BenchmarkCursor(order: data.readOrder)
    }

    func setUp() throws {
        writes = BenchmarkCursor(order: data.writeOrder)
        reads = BenchmarkCursor(order: data.readOrder)
        let directory = try BenchmarkDirectory(label: "vault")
        let secrets = try FileSecretStorage(directory: directory.url.appendingPathComponent("secrets", isDirectory: true))
        let vault = Vault(directory: directory.url, secrets: secrets)
        try vault.createWithoutPasscode()
        for index in data.writeOrder { try vault.set(data.values[index], forKey: data.keys[index]) }
        for index in data.readOrder where try vault.data(forKey: data.keys[index]) != data.values[index] {
            throw BenchmarkSetupFailure("the vault read back other bytes for \(data.keys[index])")
        }
        self.directory = directory
        store = vault
    }

    func tearDown() throws {
        try store?.destroy()
        directory?.remove()
        store = nil
    }
}

/// The plain table under test, holding every item of the data set before the first measurement.
final class PlainSide: @unchecked Sendable {
    private let data: BenchmarkDataSet
    /// Where the overwrites and the reads are in the data set: kept from one sample to the next,
    /// so that no overwrite stores the bytes already there (SQLite would then write no page).
    var writes: BenchmarkCursor
    var reads: BenchmarkCursor
    private var directory: BenchmarkDirectory?
    private(set) var store: PlainItemStore!

    init(data: BenchmarkDataSet) {
        self.data = data
        writes = BenchmarkCursor(order: data.writeOrder)
        reads = BenchmarkCursor(order: data.readOrder)
    }

    func setUp() throws {
        writes = BenchmarkCursor(order: data.writeOrder)
        reads = BenchmarkCursor(order: data.readOrder)
        let directory = try BenchmarkDirectory(label: "plain")
        let store = try PlainItemStore(url: directory.file("plain.sqlite"))
        for index in data.writeOrder { try store.set(data.values[index], id: data.ids[index]) }
        for index in data.readOrder where try store.value(id: data.ids[index]) != data.values[index] {
            throw BenchmarkSetupFailure("the plain table read back other bytes for \(data.keys[index])")
        }
        self.directory = directory
        self.store = store
    }

    func tearDown() throws {
        try store?.close()
        directory?.remove()
        store = nil
    }
}

/// A vault with a passcode at the calibrated cost and extension access enabled, holding one
/// item, and the extensions' share.
final class UnlockSide: @unchecked Sendable {
    static let passcode = "benchmark-passcode-7"
    private var directory: BenchmarkDirectory?
    private(set) var vault: Vault!
    private(set) var share: AuxiliaryShare!

    func setUp() throws {
        let directory = try BenchmarkDirectory(label: "unlock")
        let vault = Vault(directory: directory.file("host"), secrets: try FileSecretStorage(directory: directory.file("host-secrets")))
        try vault.create(passcode: Self.passcode, policy: .default, cost: .calibrated())
        try vault.set(Data("refresh-token".utf8), forKey: "refresh-token")
        let shared = try FileSecretStorage(directory: directory.file("shared-secrets"))
        try vault.enableExtensionAccess(shared: shared)
        guard let share = try AuxiliaryShare.load(from: shared) else { throw BenchmarkSetupFailure("no auxiliary share") }
        self.share = share
        self.vault = vault
        self.directory = directory
    }

    func tearDown() throws {
        try vault?.destroy()
        directory?.remove()
        vault = nil
    }
}
