"""S4-10: anonymous DPoP proofs each added a database row before the grant was checked (200 rows in
1.5 s). A proof's `jti` is now recorded only once its request is granted: valid proofs sent with
refused token requests write nothing to `dpop_proofs`, and such a proof is still good for a
request that is granted. A granted proof is recorded, and replaying it is refused (control)."""
import secrets

import pytest

from security_probe import ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE, describe, error_of
from tandem_proofs import ProofKey

OWNER, APP = "dave", "proof-rows-app"
REQUESTS = 200


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-10-dpop-proof-rows")
    probe.create_user(OWNER)
    probe.create_app(APP)
    probe.start()
    yield probe
    probe.stop()


def proof_rows(probe) -> int:
    return probe.query("SELECT COUNT(*) FROM dpop_proofs")[0][0]


def test_valid_proofs_with_unknown_refresh_tokens_write_no_rows(probe):
    before, key = proof_rows(probe), ProofKey()
    for _ in range(REQUESTS):
        answer = probe.refresh(APP, "tdr_" + secrets.token_urlsafe(32), key=key)
        assert answer.status_code == 400 and error_of(answer) == "invalid_grant", describe(answer)
    assert proof_rows(probe) == before, f"{REQUESTS} refused token requests wrote {proof_rows(probe) - before} dpop_proofs rows"


def test_valid_proofs_with_other_refused_grants_write_no_rows(probe):
    before, key = proof_rows(probe), ProofKey()
    refused = [
        probe.token({"grant_type": "authorization_code", "client_id": APP, "code": "tdc_" + secrets.token_urlsafe(16),
                     "redirect_uri": f"probe.{APP}:/callback", "code_verifier": secrets.token_urlsafe(32)}, key=key),
        probe.token({"grant_type": TOKEN_EXCHANGE, "client_id": APP, "subject_token": "a.b.c",
                     "subject_token_type": ACCESS_TOKEN_TYPE}, key=key, bind_key=ProofKey()),
    ]
    assert all(answer.status_code == 400 for answer in refused), [describe(answer) for answer in refused]
    assert proof_rows(probe) == before, f"refused token requests wrote {proof_rows(probe) - before} dpop_proofs rows"


def test_a_proof_sent_with_a_refused_request_is_still_good_for_a_granted_one(probe):
    key = ProofKey()
    refresh_token = probe.issue_refresh_token(OWNER, APP, bound_to=key)
    probe.refresh(APP, "tdr_unknown", key=key)  # learns the current nonce
    proof = key.dpop("POST", probe.token_url, nonce=probe.nonce)
    refused = probe.token({"grant_type": "refresh_token", "client_id": APP, "refresh_token": "tdr_" + secrets.token_urlsafe(32)}, proof=proof)
    assert refused.status_code == 400 and error_of(refused) == "invalid_grant", describe(refused)
    granted = probe.token({"grant_type": "refresh_token", "client_id": APP, "refresh_token": refresh_token}, proof=proof)
    assert granted.status_code == 200, f"a refused request spent its proof: {describe(granted)}"


def test_a_granted_proof_is_recorded_and_not_accepted_again(probe):
    """Control: replay protection still holds for the proofs that count."""
    key = ProofKey()
    refresh_token = probe.issue_refresh_token(OWNER, APP, bound_to=key)
    probe.refresh(APP, "tdr_unknown", key=key)
    proof, before = key.dpop("POST", probe.token_url, nonce=probe.nonce), proof_rows(probe)
    granted = probe.token({"grant_type": "refresh_token", "client_id": APP, "refresh_token": refresh_token}, proof=proof)
    assert granted.status_code == 200, describe(granted)
    assert proof_rows(probe) == before + 1
    replayed = probe.token({"grant_type": "refresh_token", "client_id": APP, "refresh_token": granted.json()["refresh_token"]}, proof=proof)
    assert replayed.status_code == 400 and error_of(replayed) == "invalid_dpop_proof", describe(replayed)
