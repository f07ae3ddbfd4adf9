"""S4-04: step-up keys were self-asserted and enrolled first-come. `PUT /v1/step-up-key` stored any
P-256 key for the token's sign-in, with no signature by it and no fresh authentication, and the
grant's own DPoP key was accepted. Now a key comes with the sign-in (`step_up_key` at the token
endpoint, an enrolment signed by the key) or, within 300 s of it, as such an enrolment; a sign-in
keeps its first key; the grant's DPoP key and its widgets' key are refused.

The attacker speaks both the old body (`{"jwk": …}`) and the new one (`{"enrolment": …}`) in
one request, so the same request attacks a server from before the fix and after it."""
import time

import pytest

from security_probe import ACTIONS_SCOPE, DEMO_CLIENT_ID, DEMO_PASSWORD, DEMO_USERNAME, describe, error_of
from tandem_proofs import ProofKey

STEP_UP_KEY = "/v1/step-up-key"
DEMO_REDIRECT = "tandem-demo://oauth/callback"
LATE = "late-user"


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-04-step-up-keys")
    probe.seed_demo()
    probe.create_user(LATE)
    late = probe.issue_refresh_token(LATE, DEMO_CLIENT_ID, scope=ACTIONS_SCOPE)
    # The late user signed in ten minutes ago (what the server's clock would say by now).
    probe.execute("UPDATE token_families SET created_at = created_at - 600000 "
                  "WHERE user_id = (SELECT id FROM users WHERE username = ?)", LATE)
    probe.start()
    probe.late_token = probe.tokens(DEMO_CLIENT_ID, late)["access_token"]
    yield probe
    probe.stop()


def fresh_sign_in(probe, key: ProofKey | None = None) -> str:
    """An access token of a new grant of the demo user with `actions` (bound to `key`)."""
    return probe.tokens(DEMO_CLIENT_ID, probe.issue_refresh_token(DEMO_USERNAME, DEMO_CLIENT_ID, scope=ACTIONS_SCOPE, bound_to=key), key)["access_token"]


def enrol(probe, token: str, key: ProofKey, enrolment: str | None = None, dpop: ProofKey | None = None):
    """PUT /v1/step-up-key: `key` as a JWK and as an enrolment (by default one it signed for this URL)."""
    body = {"enrolment": enrolment or key.enrolment(probe.issuer + STEP_UP_KEY), "jwk": key.public}
    return probe.call("PUT", STEP_UP_KEY, token, dpop, json=body)


def steps_up(probe, token: str, item: str, key: ProofKey, dpop: ProofKey | None = None):
    return probe.decide(token, item, key=dpop, step_up_key=key)


def test_a_bare_public_key_is_not_an_enrolment(probe):
    token, attacker = fresh_sign_in(probe), ProofKey()
    answer = probe.call("PUT", STEP_UP_KEY, token, json={"jwk": attacker.public})
    assert answer.status_code == 400, f"a key nobody proved holding was enrolled: {describe(answer)}"
    decided = steps_up(probe, token, "PR-1002", attacker)
    assert decided.status_code == 401, f"a self-asserted key stepped up: {describe(decided)}"


def test_an_enrolment_not_signed_by_the_key_it_names_is_refused(probe):
    token, named, signer = fresh_sign_in(probe), ProofKey(), ProofKey()
    forged = signer.sign("tandem-step-up-key+jwt", {"jti": "forged", "iat": int(time.time()), "htu": probe.issuer + STEP_UP_KEY},
                         header_key=named.public)
    answer = enrol(probe, token, named, enrolment=forged)
    assert answer.status_code == 400, describe(answer)


def test_an_enrolment_made_for_another_endpoint_is_refused(probe):
    token, key = fresh_sign_in(probe), ProofKey()
    answer = enrol(probe, token, key, enrolment=key.enrolment(probe.token_url))
    assert answer.status_code == 400, describe(answer)


def test_the_grants_dpop_key_and_its_widgets_key_are_not_step_up_keys(probe):
    dpop, widgets = ProofKey(), ProofKey()
    token = fresh_sign_in(probe, key=dpop)
    same = enrol(probe, token, dpop, dpop=dpop)
    assert same.status_code == 400, f"the grant's DPoP key became its step-up key: {describe(same)}"
    exchanged = probe.exchange(DEMO_CLIENT_ID, token, key=dpop, bind_key=widgets)
    assert exchanged.status_code == 200, describe(exchanged)
    answer = enrol(probe, token, widgets, dpop=dpop)
    assert answer.status_code == 400, f"the widgets' key became the sign-in's step-up key: {describe(answer)}"


def test_an_enrolment_long_after_the_sign_in_needs_a_fresh_sign_in(probe):
    answer = enrol(probe, probe.late_token, ProofKey())
    assert answer.status_code == 401 and error_of(answer) == "insufficient_user_authentication", describe(answer)


def test_a_key_enrolled_with_the_sign_in_is_not_replaced_first_come(probe):
    owners = ProofKey()
    signed_in = probe.sign_in(DEMO_CLIENT_ID, DEMO_REDIRECT, DEMO_USERNAME, DEMO_PASSWORD, scope=ACTIONS_SCOPE, step_up_key=owners)
    assert signed_in.status_code == 200, describe(signed_in)
    stolen = signed_in.json()["access_token"]
    thiefs = enrol(probe, stolen, ProofKey())
    assert thiefs.status_code == 409 and error_of(thiefs) == "step_up_key_conflict", \
        f"a stolen token swapped in its own step-up key: {describe(thiefs)}"
    decided = steps_up(probe, stolen, "PR-1004", owners)
    assert decided.status_code == 200, f"the key enrolled with the sign-in does not step up: {describe(decided)}"
    assert any(line.get("user_id") and "enrolled" in line.get("detail", "") for line in probe.audit("stepup.enrolled")), \
        "no stepup.enrolled audit line"


def test_a_sign_in_whose_step_up_key_is_its_dpop_key_is_refused(probe):
    key = ProofKey()
    answer = probe.sign_in(DEMO_CLIENT_ID, DEMO_REDIRECT, DEMO_USERNAME, DEMO_PASSWORD, scope=ACTIONS_SCOPE, key=key, step_up_key=key)
    assert answer.status_code == 400 and error_of(answer) == "invalid_request", describe(answer)


def test_a_fresh_sign_in_enrols_its_key_once_and_steps_up_with_it(probe):
    """Control: an enrolment right after the sign-in, the same key again, a decision with it."""
    token, key = fresh_sign_in(probe), ProofKey()
    for _ in range(2):
        answer = enrol(probe, token, key)
        assert answer.status_code == 200, describe(answer)
    decided = steps_up(probe, token, "PR-1006", key)
    assert decided.status_code == 200, describe(decided)
