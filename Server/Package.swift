// swift-tools-version: 6.1
import PackageDescription

// The mobile services server and the `tandem` command-line tool. Depends on the SDK by path;
// nothing in the SDK imports this package.
let package = Package(
    name: "TandemServer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TandemServer", targets: ["TandemServer"]),
        .executable(name: "tandem", targets: ["tandem"]),
    ],
    dependencies: [
        .package(name: "Tandem", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // The benchmark's plain-database baseline only; the vault reaches GRDB through the SDK.
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "TandemServer",
            dependencies: [
                .product(name: "TandemVault", package: "Tandem"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "tandem",
            dependencies: [
                "TandemServer",
                .product(name: "TandemVault", package: "Tandem"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Runs the built `tandem` binary as a subprocess, as a person or a script would.
        .testTarget(
            name: "TandemCLITests",
            dependencies: ["tandem"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
