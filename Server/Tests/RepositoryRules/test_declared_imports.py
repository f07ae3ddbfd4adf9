"""Every import a Swift file makes is declared by its target.

SwiftPM lets a target import any module that happens to be built before it (a dependency's
dependency), so an undeclared import compiles today and breaks when someone else's graph
changes. Each package's targets come from `swift package describe --type json`; every `import`
in a target's files must be the target itself, a declared target or product dependency, or a
module of the toolchain and the operating system.
"""
import json
import subprocess

import pytest

from repository_layout import IMPORT, PACKAGES, ROOT

# Modules of the toolchain and the operating system: never declared in a manifest.
SYSTEM = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch",
    "Synchronization", "Testing", "XCTest", "Glibc", "Musl", "Darwin", "WinSDK", "os", "Security",
    "Observation", "_Concurrency", "Swift",
    # Apple's System framework: swift-system's SystemPackage elsewhere, behind #if canImport(System).
    "System",
    # Apple frameworks, imported only behind #if canImport(...) in Apple/ folders.
    "UIKit", "SwiftUI", "WidgetKit", "AppIntents", "BackgroundTasks", "AuthenticationServices",
    "VisionKit", "AVFoundation", "CoreGraphics", "Combine", "CryptoKit", "LocalAuthentication",
}
# A product whose modules are named differently from the product.
PRODUCT_MODULES = {"ArgumentParser": {"ArgumentParser"}}


def undeclared(targets: list, package_root) -> list:
    """`(file, module, target)` for each import `targets` (as `swift package describe` lists
    them, paths relative to `package_root`) do not declare."""
    found = []
    for target in targets:
        declared = {target["name"]} | set(target.get("target_dependencies") or [])
        for product in target.get("product_dependencies") or []:
            declared |= PRODUCT_MODULES.get(product, {product})
        for source in sorted((package_root / target["path"]).rglob("*.swift")):
            for module in IMPORT.findall(source.read_text(encoding="utf-8")):
                if module not in declared and module not in SYSTEM:
                    found.append((source, module, target["name"]))
    return found


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.relative_to(ROOT).as_posix() or "SDK")
def test_every_import_is_declared_by_its_target(package):
    described = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=package, capture_output=True, text=True)
    assert described.returncode == 0, f"swift package describe failed in {package}:\n{described.stderr}"
    targets = json.loads(described.stdout)["targets"]
    assert targets, "the package lists no targets"
    problems = [f"{source.relative_to(ROOT)}: imports {module}, which target {target} does not declare"
                for source, module, target in undeclared(targets, package)]
    assert not problems, "\n".join(problems)


def test_an_undeclared_import_is_reported(tmp_path):
    (tmp_path / "Sources/Widget").mkdir(parents=True)
    (tmp_path / "Sources/Widget/Reads.swift").write_text("import Foundation\nimport Protocol\n@testable import Vault\nimport struct Crypto.SHA256\n")
    targets = [{"name": "Widget", "path": "Sources/Widget", "target_dependencies": ["Protocol"], "product_dependencies": ["Crypto"]}]
    assert [(module, target) for _, module, target in undeclared(targets, tmp_path)] == [("Vault", "Widget")]
