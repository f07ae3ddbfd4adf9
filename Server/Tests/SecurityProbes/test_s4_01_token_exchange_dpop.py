"""S4-01: DPoP laundering through the token exchange. A DPoP-bound access token, stolen without its
key, is refused at /v1; the exchange must refuse it too (RFC 9449 §7: the exchange is a use of
the token), with no proof and with the thief's own proof alike, and a refused exchange must not
end the widgets' real grant. The owner's exchange binds the widgets' grant to the key its
`Tandem-DPoP-Bind` proof proves, and every refusal is audited (`token.exchange-refused`)."""
import pytest

from security_probe import describe, error_of
from tandem_proofs import ProofKey

OWNER = "alice"
OPTIONAL, REQUIRED = "exchange-app", "exchange-dpop-app"  # DPoP optional / required


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-01-token-exchange")
    probe.create_user(OWNER)
    probe.create_app(OPTIONAL)
    probe.create_app(REQUIRED)
    probe.admin("set-dpop", "--client-id", REQUIRED)
    probe.start()
    yield probe
    probe.stop()


def bound_tokens(probe, client_id: str, key: ProofKey) -> dict:
    """The owner's tokens of a new grant bound to `key` (as after a sign-in with DPoP)."""
    tokens = probe.tokens(client_id, probe.issue_refresh_token(OWNER, client_id, bound_to=key), key)
    assert tokens["token_type"] == "DPoP", f"the grant is not DPoP-bound: {tokens}"
    return tokens


def test_the_stolen_token_is_refused_at_v1_as_bearer(probe):
    """Control: what the thief holds is worthless at /v1 without the key."""
    stolen = bound_tokens(probe, OPTIONAL, ProofKey())["access_token"]
    answer = probe.call("GET", "/v1/destinations", stolen)
    assert answer.status_code == 401, describe(answer)


def test_a_stolen_bound_token_without_a_proof_buys_no_widgets_grant(probe):
    """(An app that requires DPoP refuses any token request without a proof: there the thief
    sends one of its own, the next probe.)"""
    stolen = bound_tokens(probe, OPTIONAL, ProofKey())["access_token"]
    answer = probe.exchange(OPTIONAL, stolen)
    assert answer.status_code == 400 and error_of(answer) == "invalid_dpop_proof", describe(answer)


@pytest.mark.parametrize("client_id", [OPTIONAL, REQUIRED])
def test_a_stolen_bound_token_with_the_thiefs_own_proof_buys_no_widgets_grant(probe, client_id):
    stolen = bound_tokens(probe, client_id, ProofKey())["access_token"]
    thief = ProofKey()
    answer = probe.exchange(client_id, stolen, key=thief, bind_key=thief)
    assert answer.status_code == 400 and error_of(answer) == "invalid_dpop_proof", describe(answer)


def test_a_proof_by_the_owners_key_not_made_for_the_subject_token_is_refused(probe):
    owner = ProofKey()
    subject = bound_tokens(probe, OPTIONAL, owner)["access_token"]
    answer = probe.exchange(OPTIONAL, subject, key=owner, ath=False)
    assert answer.status_code == 400 and error_of(answer) == "invalid_dpop_proof", describe(answer)


def test_a_refused_laundering_leaves_the_widgets_real_grant_alive(probe):
    owner, widgets = ProofKey(), ProofKey()
    subject = bound_tokens(probe, OPTIONAL, owner)["access_token"]
    real = probe.exchange(OPTIONAL, subject, key=owner, bind_key=widgets)
    assert real.status_code == 200, describe(real)
    laundered = probe.exchange(OPTIONAL, subject)
    assert laundered.status_code == 400, f"the laundering was granted: {describe(laundered)}"
    # One live widgets' grant per user grant: a granted laundering would have revoked this one.
    kept = probe.refresh(OPTIONAL, real.json()["refresh_token"], key=widgets)
    assert kept.status_code == 200, f"the widgets' real grant was ended: {describe(kept)}"


def test_the_owners_exchange_binds_the_widgets_grant_to_the_key_its_bind_proof_proves(probe):
    owner, widgets = ProofKey(), ProofKey()
    subject = bound_tokens(probe, OPTIONAL, owner)["access_token"]
    answer = probe.exchange(OPTIONAL, subject, key=owner, bind_key=widgets)
    assert answer.status_code == 200 and answer.json()["token_type"] == "DPoP", describe(answer)
    child = answer.json()["refresh_token"]
    for key in (None, owner):
        refused = probe.refresh(OPTIONAL, child, key=key)
        assert refused.status_code == 400, f"the widgets' grant redeemed {'without a proof' if key is None else 'with the host key'}: {describe(refused)}"
    refreshed = probe.refresh(OPTIONAL, child, key=widgets)
    assert refreshed.status_code == 200 and refreshed.json()["token_type"] == "DPoP", describe(refreshed)


def test_without_a_bind_proof_a_bound_parent_gets_a_child_bound_to_the_dpop_proofs_key(probe):
    """Control: the owner's exchange without a widgets' key still gets a bound grant."""
    owner = ProofKey()
    subject = bound_tokens(probe, OPTIONAL, owner)["access_token"]
    answer = probe.exchange(OPTIONAL, subject, key=owner)
    assert answer.status_code == 200 and answer.json()["token_type"] == "DPoP", describe(answer)
    unbound = probe.refresh(OPTIONAL, answer.json()["refresh_token"])
    assert unbound.status_code == 400, f"the child of a bound grant redeems without a key: {describe(unbound)}"


def test_refused_exchanges_are_audited(probe):
    stolen = bound_tokens(probe, REQUIRED, ProofKey())["access_token"]
    assert probe.exchange(REQUIRED, stolen, key=ProofKey()).status_code == 400
    lines = [line for line in probe.audit("token.exchange-refused") if line.get("client_id") == REQUIRED]
    assert lines, "no token.exchange-refused audit line for a refused exchange"
