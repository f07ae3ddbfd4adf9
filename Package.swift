// swift-tools-version: 6.1
import PackageDescription

// The Tandem SDK: what a host app and its extensions link.
// Dependencies flow one way: Vault ← Bridge ← Auth ← Widgets/Flows, and Protocol ← Auth.
// TandemProtocol holds what the client and the server must agree on; the server imports it too.
let package = Package(
    name: "Tandem",
    platforms: [.iOS(.v18), .macOS(.v15), .watchOS(.v11), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "TandemProtocol", targets: ["TandemProtocol"]),
        .library(name: "TandemVault", targets: ["TandemVault"]),
        .library(name: "TandemBridge", targets: ["TandemBridge"]),
        .library(name: "TandemAuth", targets: ["TandemAuth"]),
        // URLSessionTransport, on its own because on Linux it links FoundationNetworking (and so
        // libcurl); a brokered widget links TandemWidgets without it.
        .library(name: "TandemURLSession", targets: ["TandemURLSession"]),
        .library(name: "TandemWidgets", targets: ["TandemWidgets"]),
        .library(name: "TandemFlows", targets: ["TandemFlows"]),
        // Test helpers for this package's tests and the server's: temporary directories, the
        // built `tandem` executable, log capture. Linked by test targets only.
        .library(name: "TandemTestSupport", targets: ["TandemTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Test-only: TandemWidgetsTests pins rendered widgets and fuzzes deep links with these.
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "TandemProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "TandemVault",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TandemBridge",
            dependencies: [
                "TandemVault",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TandemAuth",
            dependencies: [
                "TandemProtocol",
                "TandemVault",
                "TandemBridge",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TandemURLSession", dependencies: ["TandemAuth"]),
        .target(
            name: "TandemWidgets",
            dependencies: [
                "TandemProtocol",
                "TandemVault",
                "TandemBridge",
                "TandemAuth",
                // SHA-256 of a placed widget's configuration, for its registry id (WidgetCenterRegistry).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TandemFlows",
            dependencies: [
                "TandemAuth",
                "TandemBridge",
                "TandemVault",
                "TandemWidgets",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TandemTestSupport",
            dependencies: [.product(name: "Logging", package: "swift-log")]
        ),
        // A separate process for the crash-safety test: it rewraps the vault in a loop
        // until the test kills it. Not a product; it exists only for the tests.
        .executableTarget(
            name: "VaultRewrapLoop",
            dependencies: ["TandemVault"],
            path: "Tests/VaultRewrapLoop"
        ),
        .testTarget(
            name: "TandemBridgeTests",
            dependencies: ["TandemVault", "TandemBridge", "TandemTestSupport", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "TandemAuthTests", dependencies: ["TandemVault", "TandemBridge", "TandemAuth", "TandemTestSupport"]),
        .testTarget(
            name: "TandemWidgetsTests",
            dependencies: [
                "TandemWidgets",
                "TandemVault",
                "TandemBridge",
                "TandemAuth",
                "TandemTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(name: "TandemProtocolTests", dependencies: ["TandemProtocol"]),
        .testTarget(
            name: "TandemFlowsTests",
            dependencies: ["TandemFlows", "TandemAuth", "TandemBridge", "TandemVault", "TandemWidgets", "TandemProtocol", "TandemTestSupport"]
        ),
        .testTarget(
            name: "TandemVaultTests",
            dependencies: [
                "TandemVault",
                "VaultRewrapLoop",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
