"""Platform truth: Apple-only code stays in Apple/ folders, behind #if canImport, and parses.

1. No Swift file outside a folder named `Apple/` imports an Apple UI or system framework;
   inside one, each such import comes after an `#if canImport(...)`.
2. Every Swift file in an `Apple/` folder parses (`swiftc -parse`): CI has no iOS SDK, so this
   is what it can prove; the type-check against a real SDK is ../shared/tools/ios-typecheck.
"""
import subprocess

from repository_layout import IMPORT, SOURCE_ROOTS, swift_files

FRAMEWORKS = {"UIKit", "SwiftUI", "WidgetKit", "BackgroundTasks", "AuthenticationServices", "AppIntents", "VisionKit", "AVFoundation", "Security"}


def violations(roots) -> list:
    """`(file, reason)` for each file under `roots` that breaks rule 1."""
    found = []
    for root in roots:
        for path in swift_files(root):
            text = path.read_text(encoding="utf-8")
            for match in IMPORT.finditer(text):
                module = match.group(1)
                if module not in FRAMEWORKS:
                    continue
                if "Apple" not in path.parts:
                    found.append((path, f"imports {module} outside an Apple/ folder"))
                elif "#if canImport(" not in text[:match.start()]:
                    found.append((path, f"imports {module} without #if canImport(...) before it"))
    return found


def apple_files():
    return [path for root in SOURCE_ROOTS for path in swift_files(root) if "Apple" in path.parts]


def test_apple_frameworks_are_imported_only_in_apple_folders_behind_can_import():
    problems = [f"{path}: {reason}" for path, reason in violations(SOURCE_ROOTS)]
    assert not problems, "\n".join(problems)


def test_every_apple_only_file_parses():
    files = apple_files()
    assert len(files) >= 20, f"only {len(files)} Apple-only files found: is the tree where this test looks?"
    problems = []
    for path in files:
        parsed = subprocess.run(["swiftc", "-parse", str(path)], capture_output=True, text=True)
        if parsed.returncode != 0:
            problems.append(f"{path}: does not parse:\n{parsed.stderr.strip()}")
    assert not problems, "\n".join(problems)


def test_an_import_outside_apple_and_an_unguarded_one_are_reported(tmp_path):
    core = tmp_path / "Sources/Core"
    (core / "Apple").mkdir(parents=True)
    (core / "Bad.swift").write_text("import WidgetKit\n")
    (core / "Apple/Unguarded.swift").write_text("import UIKit\n")
    (core / "Apple/Good.swift").write_text("#if canImport(SwiftUI)\nimport SwiftUI\n#endif\n")
    (core / "Portable.swift").write_text("import Foundation\n")
    assert sorted(path.name for path, _ in violations([tmp_path / "Sources"])) == ["Bad.swift", "Unguarded.swift"]
