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
        .executable(name: "tandem-widget", targets: ["tandem-widget"]),
    ],
    dependencies: [
        .package(name: "Tandem", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // SQLite storage (cached statements, shared commits).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Named because the server imports their modules directly (Hummingbird and the
        // database drivers bring them in too).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The server's HTML pages are Mustache templates, compiled into the binary.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // Test-only: the generator's tests read the project.yml it writes as XcodeGen would.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // Child processes (zbarimg for `tandem host onboard --qr-image`; the tests' `tandem` runs), not
        // Foundation's `Process`: on Linux its `run()` over-reads `/proc/self/fd` entries and now and then
        // crashes the caller (swiftlang/swift-corelibs-foundation#5472, not in Swift 6.3's Foundation).
        // swift-system names the files and descriptors swift-subprocess takes on Linux (on macOS: System).
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // APNs: the server's push provider speaks HTTP/2 over TLS with async-http-client; the local APNs stand-in
        // (Apple's service is out of reach on Linux) is an HTTP/2 server on swift-nio-http2 and swift-nio-ssl, with a
        // test certificate authority made by swift-certificates.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    ],
    targets: [
        // libqrencode from the system (Debian: libqrencode-dev, which scripts/ensure-deps.sh
        // installs): the SSO page's QR codes.
        .systemLibrary(
            name: "CQRencode", path: "Sources/CQRencode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        .target(
            name: "TandemServer",
            dependencies: [
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
                // The cockpit previews the app's widgets with the SDK's renderer (and nothing else of the SDK).
                .product(name: "TandemWidgetModel", package: "Tandem"),
                .product(name: "TandemWidgetRendering", package: "Tandem"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                "CQRencode",
                "TandemBackends",
            ],
            // Compiled into the binary, so `tandem` stays one file to copy.
            resources: [.embedInCode("Web/Templates"), .embedInCode("Web/Assets")]
        ),
        // What the server needs of a customer's backend: the one outbound HTTP client every call
        // goes through (HTTPS, vetted and pinned addresses, same-origin redirects only, size and
        // time limits, a circuit breaker per destination), a destination's configuration, and one
        // response page (REST, OData V4, OData V2) mapped to a widget's rows, exactly.
        .target(
            name: "TandemBackends",
            dependencies: [
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A local stand-in for Apple's push service (APNs), which Linux cannot reach: an HTTP/2 server over TLS
        // with its own test certificate authority that checks each request as APNs does (provider token,
        // topic, push type, priority, payload size, device token) and answers with APNs' statuses and reasons,
        // then delivers what it accepts to the demo's devices (a folder per device token). Not shipped in the server.
        .target(
            name: "TandemAPNsStandIn",
            dependencies: [
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // `tandem generate`: the host app, widget extension and AppCore package of a new app (or a
        // widget for an app already in the store), from Mustache templates compiled into the binary.
        .target(
            name: "TandemGenerator",
            dependencies: [
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.embedInCode("Templates")]
        ),
        // What `tandem` and `tandem-widget` share: the app home layout, the common options, the
        // output and logging, and the widget's timeline command. SDK modules only: no server, no
        // network stack.
        .target(
            name: "TandemTool",
            dependencies: [
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "TandemSharedContainer", package: "Tandem"),
                .product(name: "TandemWidgetModel", package: "Tandem"),
                .product(name: "TandemWidgetRendering", package: "Tandem"),
                .product(name: "TandemWidgets", package: "Tandem"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The business widget as a binary of its own, linked as a widget extension is (see
        // TandemTool): make bench measures its memory against iOS's limit for widget extensions.
        .executableTarget(
            name: "tandem-widget",
            dependencies: ["TandemTool", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "tandem",
            dependencies: [
                "TandemServer",
                "TandemBackends",
                "TandemTool",
                "TandemGenerator",
                "TandemAPNsStandIn",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "TandemURLSession", package: "Tandem"),
                .product(name: "TandemHost", package: "Tandem"),
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "TandemVault", package: "Tandem"),
                .product(name: "TandemSharedContainer", package: "Tandem"),
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "TandemWidgetModel", package: "Tandem"),
                .product(name: "TandemWidgetRendering", package: "Tandem"),
                .product(name: "TandemWidgetSimulator", package: "Tandem"),
                .product(name: "TandemWidgets", package: "Tandem"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ]
        ),
        // What the server's and the CLI's tests share: the two test databases (SQLite and
        // PostgreSQL), `tandem serve` processes and an HTTP client for them. Tests only.
        .target(
            name: "TandemServerTestSupport",
            dependencies: [
                "TandemServer",
                .product(name: "TandemTestSupport", package: "Tandem"),
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
            ],
            path: "Tests/TandemServerTestSupport"
        ),
        // The outbound client against real sockets on the loopback (never off it), and the mapping
        // against recorded responses of real services (Fixtures/SOURCES.md says whose).
        .testTarget(
            name: "TandemBackendsTests",
            dependencies: [
                "TandemBackends",
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemTestSupport", package: "Tandem"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        // The generator in process: every value checked, every template rendered, project.yml read
        // as YAML with the keys XcodeGen needs, and nothing left behind when a write is refused.
        .testTarget(
            name: "TandemGeneratorTests",
            dependencies: [
                "TandemGenerator",
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "TandemTestSupport", package: "Tandem"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Runs the built `tandem` binary as a subprocess, as a person or a script would: the
        // vault and admin commands, `tandem serve`, and hosts and widgets as separate processes.
        .testTarget(
            name: "TandemCLITests",
            dependencies: [
                "tandem",
                "tandem-widget",
                "TandemServer",
                "TandemServerTestSupport",
                "TandemTool",
                .product(name: "TandemTestSupport", package: "Tandem"),
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "TandemSharedContainer", package: "Tandem"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The server's storage, token rotation and HTTP surface against real SQLite files and a
        // real PostgreSQL server (scripts/with-postgres.sh): endpoints in process through
        // HummingbirdTesting, races between two real `tandem serve` processes.
        .testTarget(
            name: "TandemServerTests",
            dependencies: [
                "TandemServer",
                "tandem",
                "TandemServerTestSupport",
                "TandemAPNsStandIn",
                "TandemBackends",
                .product(name: "TandemTestSupport", package: "Tandem"),
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                // The APNs stand-in's tests reach it as a provider does: HTTP/2 over TLS, trusting its test CA.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
