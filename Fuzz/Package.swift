// swift-tools-version: 6.1
import PackageDescription

// Tandem's fuzz targets: one executable, `tandem-fuzz <target> [libFuzzer flags…]`, each target
// feeding bytes an attacker controls to the SDK's own parsing entry point (`make fuzz` at the
// top). Built with `-DFUZZ_ENGINE` and the sanitizers it hands the target to libFuzzer's driver;
// a plain build replays each target's committed corpus (`make test`). Not part of the SDK:
// nothing ships from here, and it links SDK modules only, never the server package.
let package = Package(
    name: "TandemFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Tandem", path: ".."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "tandem-fuzz",
            dependencies: [
                .product(name: "TandemProtocol", package: "Tandem"),
                .product(name: "TandemPlatform", package: "Tandem"),
                .product(name: "TandemSharedContainer", package: "Tandem"),
                .product(name: "TandemAuth", package: "Tandem"),
                .product(name: "TandemWidgetModel", package: "Tandem"),
                .product(name: "TandemHost", package: "Tandem"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/TandemFuzz"
        ),
    ],
    swiftLanguageModes: [.v6]
)
