"""What both pytest suites of the server share: the `tandem` binary under test and the folder
that keeps what a person looks at after a run (screenshots, server logs, reports)."""
import os
import shutil
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption("--tandem", default=os.environ.get("TANDEM_BIN", str(SERVER / ".build/debug/tandem")),
                     help="the tandem binary under test (default: $TANDEM_BIN, else Server/.build/debug/tandem)")
    parser.addoption("--artifacts", default=os.environ.get("TANDEM_TEST_ARTIFACTS", str(SERVER / ".build/test-artifacts")),
                     help="where screenshots, server logs and reports are kept (default: Server/.build/test-artifacts)")


@pytest.fixture(scope="session")
def tandem(pytestconfig) -> Path:
    binary = Path(pytestconfig.getoption("--tandem")).resolve()
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        pytest.fail(f"{binary} is not an executable tandem binary (build it, or pass --tandem PATH)", pytrace=False)
    return binary


@pytest.fixture(scope="session")
def artifacts(pytestconfig):
    """`artifacts(NAME)`: the folder NAME under --artifacts, emptied (a previous run's files would
    mislead a reader)."""
    root = Path(pytestconfig.getoption("--artifacts")).resolve()

    def fresh(name: str) -> Path:
        folder = root / name
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder
    return fresh
