// swift-tools-version: 6.1
import PackageDescription

// Tandem's benchmarks, on ordo-one/benchmark: `swift package benchmark` in this folder (or
// `make bench` at the top). Not part of the SDK: nothing ships from here.
//
// SQLCipher and GRDB's SQLite both export `sqlite3_*`, so the SQLCipher benchmark is its own
// executable that links SQLCipher and not GRDB; the data set they share links neither.
let package = Package(
    name: "TandemBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tandem", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // SQLCipher from the system (Debian: libsqlcipher-dev, installed by scripts/ensure-deps.sh).
        .systemLibrary(
            name: "CSQLCipher", path: "Sources/CSQLCipher", pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]
        ),
        // The rows every store under comparison writes and reads, and the durability they share.
        .target(name: "BenchmarkData", path: "Sources/BenchmarkData"),
        // The DPoP proofs of scripts/bench-server.sh's bound refreshes, made by the SDK's own code.
        .executableTarget(
            name: "DPoPProofs", dependencies: [.product(name: "TandemProtocol", package: "Tandem")], path: "Sources/DPoPProofs"),
        // The refresh grant's write limit on SQLite for scripts/bench-server.sh: the server's rotation
        // statement alone, in a loop, on a copy of a database the server seeded.
        .executableTarget(
            name: "RefreshWriteLimit", dependencies: [.product(name: "GRDB", package: "GRDB.swift")], path: "Sources/RefreshWriteLimit"),
        // Reads the run's exported results and prints the vault against its baselines, as ratios.
        .executableTarget(name: "BenchmarkRatios", dependencies: ["BenchmarkData"], path: "Sources/BenchmarkRatios"),
        .executableTarget(
            name: "VaultBenchmarks",
            dependencies: [
                "BenchmarkData",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "TandemVault", package: "Tandem"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/VaultBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ExtensionBenchmarks",
            dependencies: [
                "BenchmarkData",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "TandemVault", package: "Tandem"),
                .product(name: "TandemSharedContainer", package: "Tandem"),
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "TandemWidgetModel", package: "Tandem"),
                .product(name: "TandemWidgets", package: "Tandem"),
                .product(name: "TandemHost", package: "Tandem"),
            ],
            path: "Benchmarks/ExtensionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SQLCipherBenchmarks",
            dependencies: ["BenchmarkData", "CSQLCipher", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/SQLCipherBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
