"""What the repository's rules share: where the two packages are, and how a Swift import reads. (A
module of its own, not conftest.py: every suite's conftest is imported as `conftest`, so a rule
importing from it could get another suite's.)"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = [ROOT, ROOT / "Server", ROOT / "Fuzz"]
SOURCE_ROOTS = [ROOT / "Sources", ROOT / "Server" / "Sources"]

# `import X`, `@testable import X`, `import struct X.Y`: the module X.
IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)", re.M)


def swift_files(root: Path):
    """The Swift files under `root`, outside build folders, in a stable order."""
    return sorted(path for path in root.rglob("*.swift") if not any(part.startswith(".build") for part in path.parts))
