"""S4-07: an old, spent refresh token of a DPoP-bound grant, without the key, ended the owner's
session at /oauth/revoke (SECURITY.md promises that a token taken from a backup cannot). A bound
grant is ended only with its current refresh token or with a DPoP proof by its key; anything else
is answered 200 (RFC 7009: nothing revealed) and ends nothing."""
import pytest

from security_probe import describe
from tandem_proofs import ProofKey

OWNER, APP = "carol", "revocation-app"


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-07-revocation")
    probe.create_user(OWNER)
    probe.create_app(APP)
    probe.start()
    yield probe
    probe.stop()


class BoundGrant:
    """A grant bound to `key`, refreshed once: `spent` is its first refresh token, `tokens` the
    answer of that refresh (the current refresh token and an access token)."""

    def __init__(self, probe):
        self.probe, self.key = probe, ProofKey()
        self.spent = probe.issue_refresh_token(OWNER, APP, bound_to=self.key)
        self.tokens = probe.tokens(APP, self.spent, self.key)

    def revoke(self, token: str, key: ProofKey | None = None):
        headers = {"DPoP": key.dpop("POST", self.probe.issuer + "/oauth/revoke")} if key else {}
        answer = self.probe.http.post(f"{self.probe.base}/oauth/revoke", data={"token": token, "client_id": APP}, headers=headers, timeout=60)
        assert answer.status_code == 200, describe(answer)

    def alive(self) -> bool:
        answer = self.probe.refresh(APP, self.tokens["refresh_token"], key=self.key)
        if answer.status_code == 200:
            self.tokens = answer.json()
        return answer.status_code == 200


def test_a_spent_refresh_token_without_the_key_ends_nothing(probe):
    grant = BoundGrant(probe)
    grant.revoke(grant.spent)
    assert grant.alive(), "a spent refresh token from a backup ended the owner's session"


def test_a_bound_access_token_without_the_key_ends_nothing(probe):
    grant = BoundGrant(probe)
    grant.revoke(grant.tokens["access_token"])
    assert grant.alive(), "a bound access token without its key ended the owner's session"


def test_a_proof_by_another_key_ends_nothing(probe):
    grant = BoundGrant(probe)
    grant.revoke(grant.spent, key=ProofKey())
    assert grant.alive(), "a proof by another key ended the owner's session"


def test_the_current_refresh_token_ends_the_grant(probe):
    """Control: the owner signs out with the token it holds."""
    grant = BoundGrant(probe)
    grant.revoke(grant.tokens["refresh_token"])
    assert not grant.alive()


def test_a_proof_by_the_grants_key_ends_the_grant(probe):
    """Control: the owner signs out with a proof by its key, whichever token it sends."""
    grant = BoundGrant(probe)
    grant.revoke(grant.tokens["access_token"], key=grant.key)
    assert not grant.alive()
