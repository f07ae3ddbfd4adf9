#!/usr/bin/env python3
"""Platform truth: Apple-only code stays in Apple folders, behind #if canImport, and parses.

1. No Swift file outside a folder named `Apple/` imports an Apple UI or system framework
   (UIKit, SwiftUI, WidgetKit, BackgroundTasks, AuthenticationServices, AppIntents, VisionKit,
   AVFoundation, Security); inside one, each such import is behind an `#if canImport(...)`.
2. Every Swift file in an `Apple/` folder parses (`swiftc -parse`): CI has no iOS SDK, so this
   is what it can prove; the type-check against a real SDK is ../shared/tools/ios-typecheck.

    scripts/check-platform.py              checks the SDK and Server/
    scripts/check-platform.py --self-test  proves the rule catches a violation first
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FRAMEWORKS = {"UIKit", "SwiftUI", "WidgetKit", "BackgroundTasks", "AuthenticationServices", "AppIntents", "VisionKit", "AVFoundation", "Security"}
IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)", re.M)


def violations(roots):
    """The files that break rule 1, with the reason."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.swift")):
            if ".build" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            for match in IMPORT.finditer(text):
                module = match.group(1)
                if module not in FRAMEWORKS:
                    continue
                if "Apple" not in path.parts:
                    found.append(f"{path}: imports {module} outside an Apple/ folder")
                elif "#if canImport(" not in text[:match.start()]:
                    found.append(f"{path}: imports {module} without #if canImport(...) before it")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as scratch:
        sources = pathlib.Path(scratch) / "Sources"
        (sources / "Core").mkdir(parents=True)
        (sources / "Core" / "Apple").mkdir()
        (sources / "Core" / "Bad.swift").write_text("import WidgetKit\n")
        (sources / "Core" / "Apple" / "Unguarded.swift").write_text("import UIKit\n")
        (sources / "Core" / "Apple" / "Good.swift").write_text("#if canImport(SwiftUI)\nimport SwiftUI\n#endif\n")
        (sources / "Core" / "Portable.swift").write_text("import Foundation\n")
        found = violations([sources])
        expected = {"Bad.swift", "Unguarded.swift"}
        if {pathlib.Path(line.split(":")[0]).name for line in found} != expected:
            print(f"check-platform: the self-test expected violations in {sorted(expected)}, got {found}", file=sys.stderr)
            return 1
    print("check-platform: self-test: the rule catches an import outside Apple/ and one without #if canImport")
    return 0


def main() -> int:
    if "--self-test" in sys.argv:
        return self_test()
    roots = [ROOT / "Sources", ROOT / "Server" / "Sources"]
    problems = violations(roots)
    apple = sorted(path for root in roots for path in root.rglob("*.swift") if "Apple" in path.parts and ".build" not in path.parts)
    for path in apple:
        parsed = subprocess.run(["swiftc", "-parse", str(path)], capture_output=True, text=True)
        if parsed.returncode != 0:
            problems.append(f"{path}: does not parse:\n{parsed.stderr.strip()}")
    for problem in problems:
        print(f"check-platform: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-platform: no Apple framework imported outside Apple/ folders; {len(apple)} Apple-only files parse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
