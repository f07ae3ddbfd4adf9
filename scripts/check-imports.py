#!/usr/bin/env python3
"""Fails when a Swift file imports a module its target does not declare.

SwiftPM lets a target import any module that happens to be built before it (a dependency's
dependency), so an undeclared import compiles today and breaks when someone else's graph
changes. This check reads each package's targets with `swift package describe --type json`
and compares every `import` in a target's files with the target's declared target and product
dependencies, plus the modules the toolchain itself provides.

    scripts/check-imports.py            checks the SDK package and Server/
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = [ROOT, ROOT / "Server"]

# Modules of the toolchain and the operating system: never declared in a manifest.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch",
    "Synchronization", "Testing", "XCTest", "Glibc", "Musl", "Darwin", "WinSDK", "os", "Security",
    "Observation", "_Concurrency", "Swift",
    # Apple frameworks, imported only behind #if canImport(...) in platform folders.
    "UIKit", "SwiftUI", "WidgetKit", "AppIntents", "BackgroundTasks", "AuthenticationServices",
    "VisionKit", "AVFoundation", "CoreGraphics", "Combine",
}
# A product whose modules are named differently from the product.
PRODUCT_MODULES = {"ArgumentParser": {"ArgumentParser"}}

IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def describe(package: pathlib.Path) -> dict:
    result = subprocess.run(
        ["swift", "package", "describe", "--type", "json"], cwd=package, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-imports: swift package describe failed in {package}:\n{result.stderr}")
    return json.loads(result.stdout)


def main() -> int:
    problems = []
    checked = 0
    for package in PACKAGES:
        for target in describe(package)["targets"]:
            declared = {target["name"]} | set(target.get("target_dependencies") or [])
            for product in target.get("product_dependencies") or []:
                declared |= PRODUCT_MODULES.get(product, {product})
            for source in sorted((package / target["path"]).rglob("*.swift")):
                checked += 1
                for module in IMPORT.findall(source.read_text(encoding="utf-8")):
                    if module not in declared and module not in SYSTEM:
                        problems.append(f"{source.relative_to(ROOT)}: imports {module}, which target {target['name']} does not declare")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-imports: {len(problems)} undeclared import(s) in {checked} files", file=sys.stderr)
        return 1
    print(f"check-imports: every import of {checked} files is declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
