"""/v1/apps/{clientId}/configuration: an app's public configuration, which needs no credential."""
from seeded_server import KIOSK_CLIENT_ID

CONFIG = "/v1/apps/{clientId}/configuration"


def test_the_demo_apps_configuration(api):
    document = api.expect(200, "GET", "/v1/apps/tandem-demo/configuration", CONFIG).json()
    assert (document["client_id"], document["security_mode"], document["sso_enabled"], document["url_scheme"]) \
        == ("tandem-demo", "oauth", True, "tandem-demo")
    assert document["passcode_policy"]["required_character_classes"] == ["digit"]
    assert document["passcode_policy"]["biometrics_allowed"] is True
    assert document["lock_screen_redaction"] is True
    assert all(url.startswith(document["issuer"]) for url in document["endpoints"].values()), "an endpoint is not under the issuer"


def test_the_configuration_is_not_modified_for_its_etag(api):
    etag = api.expect(200, "GET", "/v1/apps/tandem-demo/configuration", CONFIG).headers.get("ETag", "")
    api.expect(304, "GET", "/v1/apps/tandem-demo/configuration", CONFIG, headers={"If-None-Match": etag})


def test_the_kiosks_configuration_is_an_api_key_apps_without_redirects(api):
    document = api.expect(200, "GET", f"/v1/apps/{KIOSK_CLIENT_ID}/configuration", CONFIG).json()
    assert (document["security_mode"], document["url_scheme"], document["redirect_uris"]) == ("apiKey", None, [])


def test_an_unknown_apps_configuration_is_not_found(api):
    api.expect(404, "GET", "/v1/apps/no-such-app/configuration", CONFIG)
