"""The cockpit in headless Chromium (through chromedriver), against a running seeded server that
check_sso.py has used (so the demo app has a widget tap).

Usage: check_cockpit.py TANDEM SERVER WORKDIR SCREENSHOTS

An administrator (the seeded `admin`) creates an app and switches SSO on, creates an API key for
the kiosk app, uses it against a resource endpoint, revokes it and sees it refused, and sees the
demo's widget tap in the chart; the demo user (no administrator) is refused; a form posted
without its token is refused. The sign-in page, a message page and the cockpit's list are
checked at both widths too. No console error, no sideways scrolling at 1280 and 390 px.
Exit 1 with the reasons otherwise.
"""
import os
import sys
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

from web_browser import PHONE_AGENT, browser, check_width, click_and_wait_for_page, console_errors, sign_in

problems = []


def status_with_key(server, key):
    request = urllib.request.Request(server + "/v1/destinations", headers={"X-API-Key": key})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def heading(driver):
    return driver.find_element(By.TAG_NAME, "h1").text


def submit(driver, form_selector):
    click_and_wait_for_page(driver, driver.find_element(By.CSS_SELECTOR, form_selector + " button[type=submit]"))


def administrator(server, screenshots):
    driver = browser(1280, 900)
    try:
        sign_in(driver, server, "/admin", "admin", "admin-password", problems)
        if heading(driver) != "Apps":
            problems.append(f"cockpit: the administrator lands on {heading(driver)!r}")
        check_width(driver, "cockpit apps", 1280, problems)
        driver.save_screenshot(os.path.join(screenshots, "cockpit-apps-1280.png"))

        # A form without its token changes nothing.
        forged = driver.execute_script(
            "return fetch('/admin/apps', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
            " body: 'client_id=forged&name=Forged&security_mode=oauth', credentials: 'same-origin'}).then(r => r.status)")
        if forged != 403:
            problems.append(f"cockpit: a form without its token got {forged}, expected 403")
        driver.get_log("browser")  # the refused request's own console line is expected: drop it

        # Create an app with SSO on.
        driver.find_element(By.NAME, "client_id").send_keys("field-sales")
        driver.find_element(By.NAME, "name").send_keys("Field Sales")
        driver.find_element(By.NAME, "redirect_uri").send_keys("fieldsales://oauth/callback")
        driver.find_element(By.NAME, "url_scheme").send_keys("fieldsales")
        driver.find_element(By.NAME, "sso").click()
        submit(driver, "form[action='/admin/apps']")
        if heading(driver) != "Field Sales field-sales":
            problems.append(f"cockpit: after creating the app the page is {heading(driver)!r}")
        url = driver.find_elements(By.ID, "sso-url")
        if not url or not url[0].text.endswith("/sso/field-sales"):
            problems.append("cockpit: the new app's SSO onboarding URL is not shown")
        driver.save_screenshot(os.path.join(screenshots, "cockpit-new-app-1280.png"))
        sso = driver.execute_script("return fetch('/sso/field-sales', {credentials: 'same-origin'}).then(r => r.status)")
        if sso != 200:
            problems.append(f"cockpit: the new app's SSO page answered {sso}")

        # An API key for the kiosk app: shown once, works, revoked, refused.
        driver.get(server + "/admin/apps/tandem-demo-kiosk")
        submit(driver, "form[action='/admin/apps/tandem-demo-kiosk/keys']")
        key = driver.find_element(By.ID, "new-key").text
        driver.save_screenshot(os.path.join(screenshots, "cockpit-new-key-1280.png"))
        if status_with_key(server, key) != 200:
            problems.append("cockpit: the new API key does not read data")
        revoke = driver.find_elements(By.CSS_SELECTOR, "form[action$='/revoke'] button")
        if not revoke:
            problems.append("cockpit: no Revoke button for the new key")
        else:
            click_and_wait_for_page(driver, revoke[0])  # the newest key first
            if "The key is revoked." not in driver.page_source:
                problems.append("cockpit: revoking did not say so")
            status = status_with_key(server, key)
            if status != 401:
                problems.append(f"cockpit: the revoked key still got {status}")

        # The demo host's widget tap (check_sso.py) in the chart.
        driver.get(server + "/admin/apps/tandem-demo")
        total = driver.find_element(By.ID, "tap-total").text
        bars = driver.find_elements(By.CSS_SELECTOR, "#taps rect")
        if total == "0 taps" or not bars:
            problems.append(f"cockpit: the chart shows no widget tap ({total!r}, {len(bars)} bars)")
        if "sso.redeemed" not in driver.page_source:
            problems.append("cockpit: the audit log does not show the SSO redemptions")
        driver.save_screenshot(os.path.join(screenshots, "cockpit-app-1280.png"))
        console_errors(driver, "cockpit", problems)
    finally:
        driver.quit()


def on_a_phone(server, screenshots):
    driver = browser(390, 844, PHONE_AGENT)
    try:
        sign_in(driver, server, "/admin", "admin", "admin-password", problems)
        driver.get(server + "/admin/apps/tandem-demo")
        check_width(driver, "cockpit app page", 390, problems)
        driver.save_screenshot(os.path.join(screenshots, "cockpit-app-390.png"))
        console_errors(driver, "cockpit on a phone", problems)
    finally:
        driver.quit()


def not_an_administrator(server, screenshots):
    driver = browser(1280, 900)
    try:
        sign_in(driver, server, "/admin", "demo", "demo-password", problems)
        if heading(driver) != "Administrators only":
            problems.append(f"cockpit: the demo user (no administrator) sees {heading(driver)!r}")
        driver.save_screenshot(os.path.join(screenshots, "cockpit-refused-1280.png"))
    finally:
        driver.quit()


def every_page_at(width, agent, screenshots, server):
    """The sign-in page, a message page and the cockpit's list at `width`: legible (no sideways
    scrolling), no console error; a screenshot of each."""
    driver = browser(width, 900 if width > 500 else 844, agent)
    try:
        driver.get(server + "/signin?next=/admin")
        check_width(driver, f"sign-in at {width}", width, problems)
        driver.save_screenshot(os.path.join(screenshots, f"signin-{width}.png"))
        console_errors(driver, f"sign-in at {width}", problems)
        driver.get(server + "/sso/no-such-app")
        if heading(driver) != "Not available":
            problems.append(f"the message page at {width} says {heading(driver)!r}")
        check_width(driver, f"message page at {width}", width, problems)
        driver.save_screenshot(os.path.join(screenshots, f"message-{width}.png"))
        driver.get_log("browser")  # the 404 of that page is its own console line: drop it
        sign_in(driver, server, "/admin", "admin", "admin-password", problems)
        check_width(driver, f"cockpit apps at {width}", width, problems)
        driver.save_screenshot(os.path.join(screenshots, f"cockpit-apps-{width}.png"))
        console_errors(driver, f"cockpit apps at {width}", problems)
    finally:
        driver.quit()


def main() -> int:
    _, server, _, screenshots = sys.argv[1:5]
    started = time.monotonic()
    administrator(server, screenshots)
    on_a_phone(server, screenshots)
    not_an_administrator(server, screenshots)
    every_page_at(1280, None, screenshots, server)
    every_page_at(390, PHONE_AGENT, screenshots, server)
    for problem in problems:
        print(f"check-cockpit: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-cockpit: app created with SSO, API key used, revoked and refused, the demo's tap in the chart, "
          f"a user who is no administrator refused, a form without its token refused; sign-in, message and cockpit pages "
          f"legible at 1280 and 390 px; no console error; "
          f"{time.monotonic() - started:.1f} s; screenshots in {screenshots}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
