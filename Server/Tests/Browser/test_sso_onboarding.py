"""Cross-context SSO in headless Chromium: a host onboards from the desktop page's QR code (read
from a screenshot) or from the phone page's Next link, with no password typed on the "phone"."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chromium import PATIENCE, console_errors
from sso_onboarding import LINK_PREFIX, open_signed_in, run


def test_the_desktop_page_asks_to_sign_in_on_the_phone(desktop_onboarding):
    assert desktop_onboarding.heading == "Sign in to Tandem Demo on your phone"


def test_the_desktop_code_counts_down_from_the_configured_lifetime(desktop_onboarding):
    # The suite's server runs with --sso-passcode-lifetime 90 (the default is 60).
    assert 80 <= desktop_onboarding.countdown <= 90


def test_the_qr_code_read_from_the_desktop_screenshot_is_the_apps_sso_link(desktop_onboarding):
    assert desktop_onboarding.link.startswith(LINK_PREFIX)


def test_the_page_shows_the_waiting_host_and_then_that_it_is_approved(desktop_onboarding, phone_onboarding):
    for onboarding in (desktop_onboarding, phone_onboarding):
        assert onboarding.device.startswith("tandem host on "), f"the waiting device is shown as {onboarding.device!r}"
        assert "the same network as this browser" in onboarding.network, f"the device's address is shown as {onboarding.network!r}"
        assert "Approved" in onboarding.after_approve, f"after Approve the page says {onboarding.after_approve!r}"


def test_a_host_onboarded_from_the_desktop_qr_code_is_ready_and_signed_in_with_sso(desktop_onboarding):
    assert (desktop_onboarding.host.get("state"), desktop_onboarding.host.get("signed_in_with")) == ("ready", "sso"), desktop_onboarding.host


def test_the_onboarded_host_fulfils_its_widgets_request(desktop_onboarding):
    assert desktop_onboarding.fulfilled == ["fulfilled"]


def test_the_onboarded_hosts_widget_tap_is_sent_to_the_server(desktop_onboarding):
    assert desktop_onboarding.taps_sent == 1


def test_the_phone_page_shows_next_instead_of_a_qr_code(phone_onboarding):
    assert not phone_onboarding.qr_code_shown
    assert phone_onboarding.link.startswith(LINK_PREFIX)


def test_a_host_onboarded_from_the_phones_next_link_is_ready_and_signed_in_with_sso(phone_onboarding):
    assert (phone_onboarding.host.get("state"), phone_onboarding.host.get("signed_in_with")) == ("ready", "sso"), phone_onboarding.host


def test_the_sso_pages_log_no_console_error_and_never_scroll_sideways(desktop_onboarding, phone_onboarding):
    assert desktop_onboarding.problems + phone_onboarding.problems == []


def test_the_audit_log_has_each_sso_step_once_per_onboarded_host(tandem, web_server, desktop_onboarding, phone_onboarding):
    audit = run(tandem, "admin", "audit", "--database", web_server.database, "--client-id", "tandem-demo", "--limit", "100")
    kinds = [json.loads(line)["kind"] for line in audit.stdout.splitlines() if line.startswith("{")]
    for kind in ("sso.claimed", "sso.approved", "sso.redeemed"):
        assert kinds.count(kind) == 2, f"the audit log has {kinds.count(kind)} {kind} lines, expected 2: {kinds}"


def test_the_desktop_page_renews_its_code_when_the_countdown_runs_out(browser, web_server):
    driver = browser(1280, 900)
    open_signed_in(driver, web_server.base)
    old_id = driver.execute_script("return document.getElementById('sso').dataset.id")
    old_link = driver.find_element(By.ID, "qr").get_attribute("data-link")
    # Time runs out now, as it would after the code's lifetime.
    driver.execute_script("document.getElementById('sso').dataset.expires = String(Date.now() - 1000)")
    WebDriverWait(driver, PATIENCE).until(lambda d: d.execute_script("return document.getElementById('sso').dataset.id") != old_id,
                                    "the page did not fetch a new code when its countdown ran out")
    new_link = driver.find_element(By.ID, "qr").get_attribute("data-link")
    assert new_link != old_link and new_link.startswith(LINK_PREFIX), "the QR code's link did not change"
    assert driver.find_elements(By.CSS_SELECTOR, "#qr svg"), "the new QR code is not drawn"
    WebDriverWait(driver, 5).until(lambda d: int(d.find_element(By.ID, "seconds").text or "0") >= 50,
                                   "the new code does not show a fresh countdown")
    assert console_errors(driver, "renewal") == []
