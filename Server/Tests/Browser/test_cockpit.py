"""The administrators' cockpit in headless Chromium: apps, SSO, API keys, the widget-tap chart and
the audit log, refused to a user who is no administrator and to a form without its token; legible
on a desktop and a phone."""
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from chromium import PATIENCE, PHONE_AGENT, click_and_wait_for_page, console_errors, heading, sideways, sign_in


def status_with_key(server: str, key: str) -> int:
    request = urllib.request.Request(server + "/v1/destinations", headers={"X-API-Key": key})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def submit(driver, form_selector: str):
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, form_selector + " button[type=submit]"))


@pytest.fixture
def administrator(browser, web_server):
    """A desktop Chromium signed in as the seeded administrator, on the cockpit's list of apps."""
    driver = browser(1280, 900)
    sign_in(driver, web_server.base, "/admin", "admin", "admin-password")
    return driver


def test_an_administrator_lands_on_the_apps(administrator, screenshots):
    assert heading(administrator) == "Apps"
    assert sideways(administrator, "cockpit apps", 1280) == []
    administrator.save_screenshot(str(screenshots / "cockpit-apps-1280.png"))
    assert console_errors(administrator, "cockpit apps") == []


def test_a_form_posted_without_its_token_is_forbidden(administrator):
    forged = administrator.execute_script(
        "return fetch('/admin/apps', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
        " body: 'client_id=forged&name=Forged&security_mode=oauth', credentials: 'same-origin'}).then(r => r.status)")
    assert forged == 403


def test_an_administrator_creates_an_app_with_sso_and_its_onboarding_page_is_served(administrator, screenshots):
    administrator.find_element(By.NAME, "client_id").send_keys("field-sales")
    administrator.find_element(By.NAME, "name").send_keys("Field Sales")
    administrator.find_element(By.NAME, "redirect_uri").send_keys("fieldsales://oauth/callback")
    administrator.find_element(By.NAME, "url_scheme").send_keys("fieldsales")
    administrator.find_element(By.NAME, "sso").click()
    submit(administrator, "form[action='/admin/apps']")
    assert heading(administrator) == "Field Sales field-sales"
    url = administrator.find_elements(By.ID, "sso-url")
    assert url and url[0].text.endswith("/sso/field-sales"), "the new app's SSO onboarding URL is not shown"
    administrator.save_screenshot(str(screenshots / "cockpit-new-app-1280.png"))
    assert administrator.execute_script("return fetch('/sso/field-sales', {credentials: 'same-origin'}).then(r => r.status)") == 200
    assert console_errors(administrator, "cockpit new app") == []


def test_an_api_key_is_shown_once_reads_data_and_once_revoked_is_refused(administrator, web_server, screenshots):
    administrator.get(web_server.base + "/admin/apps/tandem-demo-kiosk")
    submit(administrator, "form[action='/admin/apps/tandem-demo-kiosk/keys']")
    key = administrator.find_element(By.ID, "new-key").text
    administrator.save_screenshot(str(screenshots / "cockpit-new-key-1280.png"))
    assert status_with_key(web_server.base, key) == 200, "the new API key does not read data"
    revoke = administrator.find_elements(By.CSS_SELECTOR, "form[action$='/revoke'] button")
    assert revoke, "no Revoke button for the new key"
    click_and_wait_for_page(administrator, revoke[0])  # the newest key first
    assert "The key is revoked." in administrator.page_source
    assert status_with_key(web_server.base, key) == 401
    assert console_errors(administrator, "cockpit keys") == []


def test_the_chart_shows_the_onboarded_hosts_widget_tap_and_the_audit_log_its_sso(administrator, web_server, screenshots,
                                                                                    desktop_onboarding):
    administrator.get(web_server.base + "/admin/apps/tandem-demo")
    total = administrator.find_element(By.ID, "tap-total").text
    bars = administrator.find_elements(By.CSS_SELECTOR, "#taps rect")
    assert total != "0 taps" and bars, f"the chart shows no widget tap ({total!r}, {len(bars)} bars)"
    assert "sso.redeemed" in administrator.page_source, "the audit log does not show the SSO redemption"
    administrator.save_screenshot(str(screenshots / "cockpit-app-1280.png"))
    assert console_errors(administrator, "cockpit app") == []


def test_an_apps_page_fits_a_phone(browser, web_server, screenshots):
    driver = browser(390, 844, PHONE_AGENT)
    sign_in(driver, web_server.base, "/admin", "admin", "admin-password")
    driver.get(web_server.base + "/admin/apps/tandem-demo")
    assert sideways(driver, "cockpit app page", 390) == []
    driver.save_screenshot(str(screenshots / "cockpit-app-390.png"))
    assert console_errors(driver, "cockpit on a phone") == []


def test_a_user_who_is_no_administrator_is_refused(browser, web_server, screenshots):
    driver = browser(1280, 900)
    sign_in(driver, web_server.base, "/admin", "demo", "demo-password")
    assert heading(driver) == "Administrators only"
    driver.save_screenshot(str(screenshots / "cockpit-refused-1280.png"))


@pytest.mark.parametrize("width, height, agent", [(1280, 900, None), (390, 844, PHONE_AGENT)], ids=["desktop", "phone"])
def test_the_sign_in_message_and_apps_pages_are_legible(browser, web_server, screenshots, width, height, agent):
    driver = browser(width, height, agent)
    problems = []
    driver.get(web_server.base + "/signin?next=/admin")
    problems += sideways(driver, f"sign-in at {width}", width)
    driver.save_screenshot(str(screenshots / f"signin-{width}.png"))
    problems += console_errors(driver, f"sign-in at {width}")
    driver.get(web_server.base + "/sso/no-such-app")
    if heading(driver) != "Not available":
        problems.append(f"the message page at {width} says {heading(driver)!r}")
    problems += sideways(driver, f"message page at {width}", width)
    driver.save_screenshot(str(screenshots / f"message-{width}.png"))
    driver.get_log("browser")  # the 404 of that page is its own console line: drop it
    sign_in(driver, web_server.base, "/admin", "admin", "admin-password")
    problems += sideways(driver, f"cockpit apps at {width}", width)
    driver.save_screenshot(str(screenshots / f"cockpit-apps-{width}.png"))
    problems += console_errors(driver, f"cockpit apps at {width}")
    assert problems == []


@pytest.fixture
def public_backend():
    """A customer's backend on the loopback serving public data (no token): a REST list of two
    items. Yields its base URL."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Items(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"results": [{"id": "P-1", "title": "Price list 2027"}, {"id": "P-2", "title": "Holiday calendar"}]}).encode()
            self.send_response(200 if self.path.startswith("/rest/items") else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *arguments):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Items)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/rest/"
    finally:
        server.shutdown()
        server.server_close()


def test_an_administrator_adds_a_backend_destination_and_fetches_its_first_page_as_a_user(administrator, web_server, public_backend,
                                                                                          screenshots):
    import json
    click_and_wait_for_page(administrator, administrator.find_element(By.ID, "destinations-link"))
    assert heading(administrator) == "Backend destinations"
    document = {
        "name": "notices", "title": "Notices", "protocolKind": "rest", "baseURL": public_backend, "authentication": {"mode": "none"},
        "entitySets": [{"name": "Items", "path": "items", "mapping": {
            "protocolKind": "rest", "items": "/results", "id": {"pointer": "/id"}, "title": {"pointer": "/title"}}}],
    }
    # A document the server refuses comes back with the reason, and nothing is saved.
    area = administrator.find_element(By.NAME, "document")
    area.send_keys(json.dumps({**document, "protocolKind": "soap"}))
    submit(administrator, "form[action='/admin/destinations']")
    assert "Not saved:" in administrator.find_element(By.CSS_SELECTOR, "p.error").text
    assert "notices" not in administrator.find_element(By.ID, "destinations").text
    # The refusal's status is the console's only complaint.
    assert all("status of 400" in line for line in console_errors(administrator, "refused destination"))

    area = administrator.find_element(By.NAME, "document")
    area.clear()
    area.send_keys(json.dumps(document))
    submit(administrator, "form[action='/admin/destinations']")
    errors = administrator.find_elements(By.CSS_SELECTOR, "p.error")
    assert heading(administrator) == "Notices (notices)", errors[0].text if errors else administrator.page_source[:2000]
    assert administrator.find_element(By.ID, "circuit").text == "not called yet"

    administrator.find_element(By.NAME, "username").send_keys("demo")
    administrator.find_element(By.NAME, "client_id").send_keys("tandem-demo")
    submit(administrator, "form[action='/admin/destinations/notices/fetch']")
    assert administrator.find_element(By.ID, "trial-status").text == "200"
    assert "Price list 2027" in administrator.find_element(By.ID, "trial-body").text
    assert administrator.find_element(By.ID, "circuit").text == "closed"
    assert administrator.find_element(By.ID, "calls").text.startswith("1 ok")
    assert sideways(administrator, "cockpit destination", 1280) == []
    administrator.save_screenshot(str(screenshots / "cockpit-destination-1280.png"))
    assert console_errors(administrator, "cockpit destination") == []

    administrator.get(web_server.base + "/admin/destinations")
    row = administrator.find_element(By.ID, "destinations").text
    assert "notices" in row and "closed" in row and "1 ok" in row
    administrator.save_screenshot(str(screenshots / "cockpit-destinations-1280.png"))
