// swift-tools-version: 6.1
import PackageDescription

// A module that calls one of Apple's required-reason APIs (file timestamps, ...) keeps the
// privacy manifest that declares it, PrivacyInfo.xcprivacy, beside its sources, and the App Store
// reads it from the app (Server/Tests/RepositoryRules/test_privacy_manifests.py checks both). Built
// on a Mac it is a resource; elsewhere it is left out, since a resource would give the module an
// accessor importing all of Foundation, which the widget's modules do without on Linux.
#if canImport(Darwin)
let privacyManifest: (exclude: [String], resources: [Resource]) = ([], [.copy("PrivacyInfo.xcprivacy")])
#else
let privacyManifest: (exclude: [String], resources: [Resource]) = (["PrivacyInfo.xcprivacy"], [])
#endif

// The Tandem SDK, cut by the process that links each module (docs/ARCHITECTURE.md draws it):
// the widget extension links TandemWidgets and what is below it, never the vault or the host's
// flows; the host app links TandemHost; the server links TandemProtocol and TandemWidgetRendering.
let package = Package(
    name: "Tandem",
    // iOS 16: OSAllocatedUnfairLock (Locked); the App Intents configuration is iOS 17's.
    platforms: [.iOS(.v16), .macOS(.v13), .watchOS(.v9), .tvOS(.v16), .visionOS(.v1)],
    products: [
        // What the client and the server must agree on; the server imports it too.
        .library(name: "TandemProtocol", targets: ["TandemProtocol"]),
        // Host and widget: atomic files, untrusted-file reads, directory watches, secret storage.
        .library(name: "TandemPlatform", targets: ["TandemPlatform"]),
        // Host only: the encrypted store (GRDB).
        .library(name: "TandemVault", targets: ["TandemVault"]),
        // Host and widget: the App Group container's records, leases, requests and snapshots.
        .library(name: "TandemSharedContainer", targets: ["TandemSharedContainer"]),
        // Host and widget: the HTTP client, OAuth, tokens and single-flight refresh.
        .library(name: "TandemAuth", targets: ["TandemAuth"]),
        // URLSessionTransport, on its own because on Linux it links FoundationNetworking (and so
        // libcurl); a brokered widget links TandemWidgets without it.
        .library(name: "TandemURLSession", targets: ["TandemURLSession"]),
        // Everyone who draws a widget: WidgetKit's model mirrored, the content and its links.
        .library(name: "TandemWidgetModel", targets: ["TandemWidgetModel"]),
        // The server's cockpit and the CLI: widget content drawn as SVG and in the terminal.
        .library(name: "TandemWidgetRendering", targets: ["TandemWidgetRendering"]),
        // The CLI and tests: WidgetKit's reload rules played on a virtual clock.
        .library(name: "TandemWidgetSimulator", targets: ["TandemWidgetSimulator"]),
        // The widget extension: the business widget's provider, its data and the WidgetKit adapter.
        .library(name: "TandemWidgets", targets: ["TandemWidgets"]),
        // The host app: flows, presenters, background runs, brokered fulfilment, analytics upload,
        // the URL router, the catalog writer and the vault-backed credential stores.
        .library(name: "TandemHost", targets: ["TandemHost"]),
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
        // Test-only: the crash-safety test starts and kills real processes with swift-subprocess, not
        // Foundation's `Process`, whose `run()` on Linux over-reads `/proc/self/fd` entries and now and
        // then crashes the caller (swiftlang/swift-corelibs-foundation#5472).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    // The arrows between these targets are the list in docs/ARCHITECTURE.md; LayeringTests checks them.
    targets: [
        .target(
            name: "TandemProtocol",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "TandemPlatform",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: privacyManifest.exclude,
            resources: privacyManifest.resources
        ),
        .target(
            name: "TandemVault",
            dependencies: [
                "TandemPlatform",
                "TandemProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the one call GRDB does not wrap (`sqlite3_file_control`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TandemSharedContainer",
            dependencies: [
                "TandemPlatform",
                "TandemProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: privacyManifest.exclude,
            resources: privacyManifest.resources
        ),
        .target(
            name: "TandemAuth",
            dependencies: [
                "TandemProtocol",
                "TandemPlatform",
                "TandemSharedContainer",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "TandemURLSession", dependencies: ["TandemAuth"]),
        .target(name: "TandemWidgetModel", dependencies: ["TandemProtocol"]),
        .target(name: "TandemWidgetRendering", dependencies: ["TandemWidgetModel", "TandemProtocol"]),
        .target(name: "TandemWidgetSimulator", dependencies: ["TandemWidgetModel", "TandemPlatform"]),
        .target(
            name: "TandemWidgets",
            dependencies: [
                "TandemProtocol",
                "TandemPlatform",
                "TandemSharedContainer",
                "TandemAuth",
                "TandemWidgetModel",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TandemHost",
            dependencies: [
                "TandemProtocol",
                "TandemPlatform",
                "TandemVault",
                "TandemSharedContainer",
                "TandemAuth",
                "TandemWidgetModel",
                "TandemWidgets",
                // SHA-256 of a placed widget's configuration, for its registry id (WidgetCenterRegistry).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: privacyManifest.exclude,
            resources: privacyManifest.resources
        ),
        .target(
            name: "TandemTestSupport",
            dependencies: ["TandemPlatform", "TandemVault", .product(name: "Logging", package: "swift-log")]
        ),
        // A separate process for the crash-safety test: it rewraps the vault in a loop
        // until the test kills it. Not a product; it exists only for the tests.
        .executableTarget(
            name: "VaultRewrapLoop",
            dependencies: ["TandemVault", "TandemPlatform"],
            path: "Tests/VaultRewrapLoop"
        ),
        .testTarget(
            name: "TandemPlatformTests",
            dependencies: ["TandemPlatform", "TandemTestSupport"]
        ),
        .testTarget(
            name: "TandemSharedContainerTests",
            dependencies: [
                "TandemPlatform", "TandemSharedContainer", "TandemProtocol", "TandemTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "TandemAuthTests",
            dependencies: ["TandemPlatform", "TandemSharedContainer", "TandemAuth", "TandemProtocol", "TandemTestSupport"]
        ),
        .testTarget(
            name: "TandemWidgetsTests",
            dependencies: [
                "TandemWidgets",
                "TandemWidgetModel",
                "TandemWidgetRendering",
                "TandemProtocol",
                "TandemWidgetSimulator",
                "TandemPlatform",
                "TandemSharedContainer",
                "TandemAuth",
                // The host's side of the widget (its vault, router and analytics), tested with it.
                "TandemVault",
                "TandemHost",
                "TandemTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "TandemProtocolTests",
            dependencies: ["TandemProtocol", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // Reads the allowed arrows from docs/ARCHITECTURE.md and every import of both packages.
        .testTarget(name: "LayeringTests"),
        .testTarget(
            name: "TandemHostTests",
            dependencies: [
                "TandemHost", "TandemAuth", "TandemPlatform", "TandemSharedContainer", "TandemVault", "TandemWidgets",
                "TandemWidgetModel", "TandemProtocol", "TandemTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "TandemVaultTests",
            dependencies: [
                "TandemVault",
                "TandemPlatform",
                "TandemProtocol",
                "VaultRewrapLoop",
                "TandemTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // Only where the test runs processes (swift-subprocess has no iOS).
                .product(name: "Subprocess", package: "swift-subprocess", condition: .when(platforms: [.linux, .macOS])),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
