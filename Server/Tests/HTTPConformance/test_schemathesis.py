"""schemathesis against its own seeded server (its traffic would change what the other tests of
this suite count): every documented operation, positive and negative inputs, in the examples,
coverage, fuzzing and stateful phases, and for every response the checks not_a_server_error,
status_code_conformance, content_type_conformance, response_schema_conformance and
response_headers_conformance. A response the document does not describe is a failure.

Environment:
  TANDEM_OPENAPI_MAX_EXAMPLES   test cases per operation and phase (default 25)
  TANDEM_OPENAPI_SEED           schemathesis seed, to replay a run
  TANDEM_OPENAPI_WORKERS        worker threads (default 1: on CPython 3.11, concurrent ast.parse
                                calls inside hypothesis fail now and then with "SystemError: AST
                                constructor recursion depth mismatch", CPython gh-106905)
  TANDEM_OPENAPI_OPTIONS        more options for `schemathesis run`, e.g. --include-path-regex '^/oauth'
The JUnit report and the server's log are kept in the artifacts folder (openapi-schemathesis/).
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from documented_api import DocumentedAPI
from seeded_server import KIOSK_CLIENT_ID, SPEC, access_token, start_seeded_server

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance"


@pytest.fixture(scope="module")
def fuzzed(tandem, tmp_path_factory, artifacts, spec):
    seeded = start_seeded_server(tandem, tmp_path_factory.mktemp("schemathesis-server"))
    report = artifacts("openapi-schemathesis")
    yield seeded, report
    seeded.server.stop()
    shutil.copy(seeded.server.log, report / "server.log")


def test_every_documented_operation_conforms_under_generated_requests(fuzzed, spec, tmp_path):
    seeded, report = fuzzed
    bearer = access_token(DocumentedAPI(spec, seeded.base), seeded.refresh_tokens["schemathesis"])
    # The kiosk's key: accepted at /v1 (an apiKey-mode app); refused (401) at /oauth/introspect,
    # which answers registered resource servers only.
    config = tmp_path / "schemathesis.toml"
    config.write_text(f"""
[auth.openapi.ApiKeyAuth]
api_key = "{seeded.kiosk_key}"

[auth.openapi.ClientBasicAuth]
username = "{KIOSK_CLIENT_ID}"
password = "{seeded.kiosk_key}"

[auth.openapi.BearerAuth]
bearer = "{bearer}"
""")
    command = [str(Path(sys.executable).parent / "schemathesis"), "--no-color", "--config-file", str(config), "run", str(SPEC),
               "--url", seeded.base, "--checks", CHECKS, "--phases", "examples,coverage,fuzzing,stateful",
               "--max-examples", os.environ.get("TANDEM_OPENAPI_MAX_EXAMPLES", "25"), "--request-timeout", "30",
               "--generation-database", "none", "--workers", os.environ.get("TANDEM_OPENAPI_WORKERS", "1"),
               "--report", "junit", "--report-dir", str(report)]
    if os.environ.get("TANDEM_OPENAPI_SEED"):
        command += ["--seed", os.environ["TANDEM_OPENAPI_SEED"]]
    command += shlex.split(os.environ.get("TANDEM_OPENAPI_OPTIONS", ""))
    # schemathesis writes its example database to the working directory.
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    print(run.stdout)
    assert seeded.server.is_running(), f"the server died during the run: {seeded.server.log_tail(40)}"
    errors = [line for line in seeded.server.log.read_text(errors="replace").splitlines() if " error" in line or " critical" in line]
    assert run.returncode == 0, (f"schemathesis found failures (exit {run.returncode}; its output above, "
                                 f"the JUnit report in {report}); {run.stderr[-2000:]}\nserver errors:\n" + "\n".join(errors[-20:]))
