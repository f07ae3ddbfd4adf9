#!/usr/bin/env bash
# Type-checks what `tandem generate app` writes against the real iOS SDK (the host app, the widget
# extension and AppCore), as ../shared/tools/ios-typecheck/package.sh does for the SDK. CI cannot
# run this (it has no iOS SDK); run it after changing Server/Sources/TandemGenerator/Templates/.
#
#   scripts/typecheck-generated-ios.sh PATH/TO/tandem [PATH/TO/ios-typecheck]
#
# The project is generated with --offline (no server needed). The SDK is ios-typecheck's
# IOS_TC_SDK (16.5 by default): with 16.5 the three widget files that use iOS 17 API (the widget's
# AppIntentConfiguration, the bundle that names it and the AppIntentsPackage) are left out and the
# rest is checked at iOS 16 (the host's App Intents package compiles out on that SDK); with 17, 18
# or 26 every generated Swift file is checked, at iOS 17. AppCore and AppCoreHost included, everything
# must type-check with no error.
set -euo pipefail

fail() { echo "typecheck-generated-ios: FAILED: $*" >&2; exit 1; }
[ $# -ge 1 ] || { echo "usage: scripts/typecheck-generated-ios.sh PATH/TO/tandem [PATH/TO/ios-typecheck]" >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
tandem="$1"
tools="${2:-$root/../shared/tools/ios-typecheck}"
[ -x "$tools/package.sh" ] || fail "no ios-typecheck tool at $tools (see its README)"

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
"$tandem" generate app --offline --server https://tandem.example.com --client-id sales --scheme sales --name Sales \
  --bundle-id com.example.sales --sdk-path "$root" --output "$dir/Sales" >/dev/null || fail "generate app"
mkdir -p "$dir/check/Sources"
ln -s "$dir/Sales/App" "$dir/check/Sources/App"
ln -s "$dir/Sales/Widget" "$dir/check/Sources/Widget"
ln -s "$dir/Sales/AppCore/Sources/AppCore" "$dir/check/Sources/AppCore"
ln -s "$dir/Sales/AppCore/Sources/AppCoreHost" "$dir/check/Sources/AppCoreHost"
# With 16.5 everything but the widget is checked at the app's floor, iOS 16. With a newer SDK the
# widget is in, at its own floor, iOS 17 (its files use App Intents configuration throughout), and
# the app's files at the same target: the 16.5 run is what catches API newer than the app's floor.
exclude='exclude: ["BusinessDataWidget.swift", "SalesWidgets.swift", "SalesWidgetIntents.swift"]'
platform='.iOS(.v16), .macOS(.v13)'
case "${IOS_TC_SDK:-16}" in 16*) ;; *) exclude='exclude: []'; platform='.iOS(.v17), .macOS(.v14)' ;; esac
cat >"$dir/check/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let tandem = ["TandemAuth", "TandemSharedContainer", "TandemHost", "TandemURLSession", "TandemVault", "TandemWidgets"]
let package = Package(
    name: "GeneratedTypeCheck",
    platforms: [$platform],
    dependencies: [.package(name: "Tandem", path: "$root")],
    targets: [
        .target(name: "AppCore", dependencies: tandem.map { .product(name: \$0, package: "Tandem") }),
        .target(name: "AppCoreHost", dependencies: ["AppCore"] + tandem.map { .product(name: \$0, package: "Tandem") }),
        .target(name: "App", dependencies: ["AppCore", "AppCoreHost"] + tandem.map { .product(name: \$0, package: "Tandem") }),
        .target(
            name: "Widget", dependencies: ["AppCore"] + tandem.map { .product(name: \$0, package: "Tandem") },
            $exclude),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
(cd "$dir/check" && swift package resolve >/dev/null) || fail "the check package does not resolve"
"$tools/package.sh" "$dir/check" --compat
