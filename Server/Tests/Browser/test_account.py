"""The user's own page, /account, in headless Chromium: a user who is no administrator sees where
they are signed in, ends one app's sign-in (whose refresh token then stops working), and the page
is legible on a desktop and a phone without script errors."""
import json
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from chromium import PATIENCE, PHONE_AGENT, click_and_wait_for_page, console_errors, heading, sideways, sign_in


def refresh(server: str, token: str) -> dict:
    body = urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": token, "client_id": "tandem-demo"}).encode()
    request = urllib.request.Request(server + "/oauth/token", data=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())


@pytest.fixture
def grant(web_server) -> str:
    """A live sign-in of the demo user in the demo app: its refresh token."""
    return web_server.admin("issue-refresh-token", "--username", "demo", "--client-id", "tandem-demo").splitlines()[0]


@pytest.mark.parametrize("width, agent", [(1280, None), (390, PHONE_AGENT)])
def test_a_user_sees_their_sign_ins_on_a_desktop_and_a_phone(browser, web_server, grant, screenshots, width, agent):
    driver = browser(width, 844, agent)
    sign_in(driver, web_server.base, "/account", "demo", "demo-password")
    assert heading(driver) == "Your account"
    rows = driver.find_elements(By.CSS_SELECTOR, "#sign-ins tbody tr")
    assert any("Tandem Demo" in row.text for row in rows), "the demo app's sign-in is not listed"
    assert driver.find_elements(By.ID, "sign-out") and driver.find_elements(By.ID, "sign-out-everywhere")
    assert sideways(driver, "account", width) == []
    driver.save_screenshot(str(screenshots / f"account-{width}.png"))
    assert console_errors(driver, "account") == []


def test_a_user_signs_out_of_one_app_and_its_token_stops_working(browser, web_server, grant, screenshots):
    driver = browser(1280, 900)
    sign_in(driver, web_server.base, "/account", "demo", "demo-password")
    successor = refresh(web_server.base, grant)["refresh_token"]
    before = len(driver.find_elements(By.CSS_SELECTOR, "#sign-ins tbody tr"))
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, "#sign-ins tbody tr form button"))
    assert "You are signed out of Tandem Demo" in driver.page_source
    after = len(driver.find_elements(By.CSS_SELECTOR, "#sign-ins tbody tr"))
    assert after == before - 1
    driver.save_screenshot(str(screenshots / "account-signed-out-of-one-app-1280.png"))
    # The newest sign-in, listed first, was this test's: its current refresh token no longer works.
    assert refresh(web_server.base, successor).get("error") == "invalid_grant"
    assert console_errors(driver, "account after sign-out") == []


def test_a_form_posted_without_its_token_changes_nothing(browser, web_server, grant):
    driver = browser(1280, 900)
    sign_in(driver, web_server.base, "/account", "demo", "demo-password")
    # Another site's form: the browser's session cookie, no page token.
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    request = urllib.request.Request(
        web_server.base + "/account/sign-out-everywhere", data=b"", method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=PATIENCE)
    assert refused.value.code == 403
    assert "access_token" in refresh(web_server.base, grant), "a forged form ended a sign-in"
