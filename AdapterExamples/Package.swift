// swift-tools-version: 6.1
import PackageDescription

// Every Swift example of the Apple adapters' documentation (the `/// ```swift` blocks in the SDK's
// `Apple/` folders) and of the SDK's DocC articles (ArticleExamples), verbatim, inside what an app around it would have, so that they compile as an
// adopter would write them: in Swift 6 language mode, against a real iOS SDK. Not part of the SDK:
// nothing ships from here. `make test` checks that each example is here word for word
// (LayeringTests' AdoptionSnippetsTests) and that every file parses; the iOS type-check compiles
// the package (`IOS_TC_SDK=26 ../shared/tools/ios-typecheck/package.sh AdapterExamples`). Each example
// with `@main` has a target of its own, as a module has one entry point.
let sdk: [Target.Dependency] = [
    .product(name: "TandemPlatform", package: "Tandem"),
    .product(name: "TandemProtocol", package: "Tandem"),
    .product(name: "TandemSharedContainer", package: "Tandem"),
    .product(name: "TandemVault", package: "Tandem"),
    .product(name: "TandemAuth", package: "Tandem"),
    .product(name: "TandemWidgetModel", package: "Tandem"),
    .product(name: "TandemWidgets", package: "Tandem"),
    .product(name: "TandemHost", package: "Tandem"),
    .product(name: "TandemURLSession", package: "Tandem"),
    .product(name: "TandemWidgetRendering", package: "Tandem"),
    .product(name: "TandemWidgetSimulator", package: "Tandem"),
]

let package = Package(
    name: "TandemAdapterExamples",
    platforms: [.iOS(.v17), .macOS(.v15)],
    dependencies: [.package(name: "Tandem", path: "..")],
    targets: [
        .target(name: "AdoptionSnippets", dependencies: sdk),
        .target(name: "CatalogBundleSnippet", dependencies: ["AdoptionSnippets"] + sdk),
        .target(name: "ActionBundleSnippet", dependencies: ["AdoptionSnippets"] + sdk),
        .target(name: "ControlBundleSnippet", dependencies: ["AdoptionSnippets"] + sdk),
        .target(name: "ArticleExamples", dependencies: sdk),
    ],
    swiftLanguageModes: [.v6]
)
