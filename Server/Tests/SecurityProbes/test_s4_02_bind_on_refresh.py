"""S4-02: bind-on-refresh handed a bearer grant to whoever refreshed first and switched reuse
detection off. A thief who redeems a stolen bearer refresh token with their own DPoP proof must
not own the grant: where the app does not require DPoP the grant stays bearer (and the owner's
next refresh is a reuse that revokes it); where it does, the owner presenting the token from
before the binding is a reuse that revokes the grant, whatever key comes with it, and the audit
log says so (`token.reuse`). The server runs without a grace window, so a second use of a token
is a reuse at once."""
import pytest

from security_probe import describe, error_of
from tandem_proofs import ProofKey

OWNER = "bob"
OPTIONAL, REQUIRED = "bearer-app", "bind-on-refresh-app"  # DPoP optional / required


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-02-bind-on-refresh")
    probe.create_user(OWNER)
    probe.create_app(OPTIONAL)
    probe.create_app(REQUIRED)
    probe.admin("set-dpop", "--client-id", REQUIRED)
    probe.start("--grace-seconds", "0")
    yield probe
    probe.stop()


def test_a_thiefs_proof_does_not_bind_a_bearer_grant_of_an_app_that_does_not_require_dpop(probe):
    stolen = probe.issue_refresh_token(OWNER, OPTIONAL)
    thief = ProofKey()
    taken = probe.refresh(OPTIONAL, stolen, key=thief)
    assert taken.status_code == 200, describe(taken)
    assert taken.json()["token_type"] == "Bearer", f"the thief's key bound the owner's grant: {taken.json()['token_type']}"
    # The owner's next refresh (with the token the thief spent) is a reuse: the grant ends.
    owner = probe.refresh(OPTIONAL, stolen)
    assert owner.status_code == 400 and error_of(owner) == "invalid_grant", describe(owner)
    thiefs_next = probe.refresh(OPTIONAL, taken.json()["refresh_token"], key=thief)
    assert thiefs_next.status_code == 400 and error_of(thiefs_next) == "invalid_grant", \
        f"the thief still refreshes after the reuse: {describe(thiefs_next)}"


def test_where_dpop_is_required_a_token_from_before_the_binding_presented_again_revokes_the_grant(probe):
    stolen = probe.issue_refresh_token(OWNER, REQUIRED)
    thief, owner_key = ProofKey(), ProofKey()
    taken = probe.refresh(REQUIRED, stolen, key=thief)
    assert taken.status_code == 200 and taken.json()["token_type"] == "DPoP", describe(taken)
    owner = probe.refresh(REQUIRED, stolen, key=owner_key)
    assert owner.status_code == 400 and error_of(owner) == "invalid_grant", \
        f"the owner's token from before the binding was not taken as a reuse: {describe(owner)}"
    thiefs_next = probe.refresh(REQUIRED, taken.json()["refresh_token"], key=thief)
    assert thiefs_next.status_code == 400 and error_of(thiefs_next) == "invalid_grant", \
        f"the thief keeps the grant it bound to its key: {describe(thiefs_next)}"
    reuses = [line for line in probe.audit("token.reuse") if line.get("client_id") == REQUIRED]
    assert reuses, "no token.reuse audit line for the revoked grant"


def test_a_bound_grant_refreshes_only_with_its_key_and_another_key_ends_nothing(probe):
    """Control: after the owner's own binding, a copy of the current token with another key is
    refused without revoking anything, and the owner goes on."""
    owner_key = ProofKey()
    bound = probe.tokens(REQUIRED, probe.issue_refresh_token(OWNER, REQUIRED), owner_key)
    assert bound["token_type"] == "DPoP"
    copy = probe.refresh(REQUIRED, bound["refresh_token"], key=ProofKey())
    assert copy.status_code == 400 and error_of(copy) == "invalid_dpop_proof", describe(copy)
    again = probe.refresh(REQUIRED, bound["refresh_token"], key=owner_key)
    assert again.status_code == 200, describe(again)
