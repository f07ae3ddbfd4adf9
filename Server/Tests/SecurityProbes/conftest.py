"""The security probes of round four (issue 37, findings S4-01 … S4-10): each module starts its own
`tandem serve` on a throwaway database and attacks it over HTTP as the finding describes. Run
against a server from before the fixes (`--tandem OLD`), the probes of each finding fail."""
import shutil

import pytest

from security_probe import ProbedServer


@pytest.fixture(scope="session")
def probed_server(tandem, tmp_path_factory, artifacts):
    """`probed_server(NAME)`: a new, not yet started ProbedServer in a fresh directory. Every
    one made is stopped at the end of the session, its log kept in the artifacts folder
    (security-probes/NAME.log)."""
    made = []

    def make(name: str) -> ProbedServer:
        probed = ProbedServer(tandem, tmp_path_factory.mktemp(name))
        made.append((name, probed))
        return probed
    yield make
    logs = artifacts("security-probes")
    for name, probed in made:
        probed.stop()
        if probed.server.log.exists():
            shutil.copy(probed.server.log, logs / f"{name}.log")
