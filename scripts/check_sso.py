"""Cross-context SSO in headless Chromium (through chromedriver), against a running server.

Usage: check_sso.py TANDEM SERVER DATABASE WORKDIR SCREENSHOTS

1. Desktop (1280 px): sign in as demo at /signin, open /sso/tandem-demo, save a screenshot,
   decode the QR code from the screenshot with zbarimg, start `tandem host onboard --qr-image`
   with that screenshot, wait for the page to show the device, click Approve; the host must be
   onboarded and read data (a widget request fulfilled).
2. Phone (390 px, an iPhone's user agent): the page shows "Next" instead of a QR code; its link
   goes to `tandem host open-url`; Approve on the page; the host is onboarded.
3. The desktop page renews its code by itself when the countdown runs out.
4. No console error on any page, no horizontal scrolling at either width, and the audit log has
   every step. Exit 1 with the reasons otherwise.
"""
import json
import os
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

import web_browser
from web_browser import PHONE_AGENT, browser

PASSCODE = "check-sso-Passcode-7"
problems = []


def sign_in(driver, server):
    web_browser.sign_in(driver, server, "/sso/tandem-demo", "demo", "demo-password", problems)
    WebDriverWait(driver, 10).until(expected_conditions.presence_of_element_located((By.ID, "sso")))


def check_width(driver, page, width):
    web_browser.check_width(driver, page, width, problems)


def console_errors(driver, page):
    web_browser.console_errors(driver, page, problems)



def start_host(tandem, arguments, work, name):
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TANDEM_")}
    environment["TANDEM_PASSCODE"] = PASSCODE
    log = open(os.path.join(work, name + ".log"), "w")
    return subprocess.Popen([tandem, "host"] + arguments, stdout=subprocess.PIPE, stderr=log, text=True, env=environment), log


def approve_and_finish(driver, host, page, screenshots, width):
    """Waits for the page to show the device, saves a screenshot, clicks Approve, waits for the host."""
    try:
        WebDriverWait(driver, 30).until(expected_conditions.visibility_of_element_located((By.ID, "decision")))
    except Exception:
        problems.append(f"{page}: the page never showed the device waiting for approval")
        host.kill()
        return None
    device = driver.find_element(By.ID, "device").text
    if not device.startswith("tandem host on "):
        problems.append(f"{page}: the waiting device is shown as {device!r}")
    check_width(driver, page + " (decision)", width)
    driver.save_screenshot(os.path.join(screenshots, f"{page}-decision-{width}.png"))
    web_browser.click_and_wait_for_page(driver, driver.find_element(By.ID, "approve"))
    try:
        WebDriverWait(driver, 10).until(expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Approved"))
    except Exception:
        problems.append(f"{page}: after Approve the page says {driver.find_element(By.TAG_NAME, 'h1').text!r}")
    driver.save_screenshot(os.path.join(screenshots, f"{page}-approved-{width}.png"))
    try:
        output, _ = host.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        host.kill()
        problems.append(f"{page}: the host did not finish onboarding within 60 s of the approval")
        return None
    if host.returncode != 0:
        problems.append(f"{page}: the host exited {host.returncode}")
        return None
    lines = [line for line in output.splitlines() if line.startswith("{")]
    result = json.loads(lines[-1]) if lines else {}
    if result.get("state") != "ready" or result.get("signed_in_with") != "sso":
        problems.append(f"{page}: the host printed {result}")
    return result


def run(tandem, arguments):
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TANDEM_")}
    return subprocess.run([tandem] + arguments, capture_output=True, text=True, env=environment, timeout=60)


def desktop(tandem, server, work, screenshots):
    driver = browser(1280, 900)
    try:
        sign_in(driver, server)
        heading = driver.find_element(By.TAG_NAME, "h1").text
        if heading != "Sign in to Tandem Demo on your phone":
            problems.append(f"desktop: the page's heading is {heading!r}")
        check_width(driver, "desktop", 1280)
        # check-web.sh starts the server with --sso-passcode-lifetime 90 (the default is 60).
        left = int(driver.find_element(By.ID, "seconds").text or "0")
        if not 80 <= left <= 90:
            problems.append(f"desktop: the code's countdown starts at {left} s, expected about 90 (--sso-passcode-lifetime)")
        picture = os.path.join(screenshots, "sso-desktop-1280.png")
        driver.save_screenshot(picture)
        decoded = subprocess.run(["zbarimg", "--quiet", "--raw", picture], capture_output=True, text=True)
        link = decoded.stdout.strip().splitlines()[0] if decoded.returncode == 0 and decoded.stdout.strip() else ""
        if not link.startswith("tandem-demo://sso?config="):
            problems.append(f"desktop: zbarimg read {link!r} from the screenshot")
            return
        home = os.path.join(work, "desktop-host")
        host, log = start_host(tandem, ["onboard", "--dir", home, "--server", server, "--qr-image", picture, "--fast-kdf"], work, "desktop-host")
        with log:
            if approve_and_finish(driver, host, "desktop", screenshots, 1280) is None:
                return
        console_errors(driver, "desktop")
        # The onboarded host serves its widget: a request fulfilled through the paired key.
        page = ["--destination", "sales", "--entity-set", "Customers", "--limit", "3"]
        request = run(tandem, ["widget", "request", "--dir", home] + page)
        fulfil = run(tandem, ["host", "fulfil", "--dir", home])
        outcomes = json.loads(fulfil.stdout.strip().splitlines()[-1]).get("outcomes", []) if fulfil.returncode == 0 else []
        if request.returncode != 0 or [outcome.get("result") for outcome in outcomes] != ["fulfilled"]:
            problems.append(f"desktop: the onboarded host could not read data: {request.stderr} {fulfil.stdout} {fulfil.stderr}")
        # A tap on its widget, routed by the host and sent to the server (the cockpit shows it).
        tap = run(tandem, ["widget", "tap", "--dir", home] + page)
        routed = run(tandem, ["host", "open-url", "--dir", home, tap.stdout.strip()])
        if tap.returncode != 0 or routed.returncode != 0 or json.loads(routed.stdout.strip().splitlines()[-1]).get("sent") != 1:
            problems.append(f"desktop: the widget tap was not sent: {tap.stderr} {routed.stdout} {routed.stderr}")
    finally:
        driver.quit()


def phone(tandem, server, work, screenshots):
    driver = browser(390, 844, PHONE_AGENT)
    try:
        sign_in(driver, server)
        check_width(driver, "phone", 390)
        driver.save_screenshot(os.path.join(screenshots, "sso-phone-390.png"))
        if driver.find_elements(By.CSS_SELECTOR, "#qr svg"):
            problems.append("phone: the page shows a QR code instead of Next")
        link = driver.find_element(By.ID, "next").get_attribute("href") or ""
        if not link.startswith("tandem-demo://sso?config="):
            problems.append(f"phone: Next links to {link!r}")
            return
        host, log = start_host(tandem, ["open-url", "--dir", os.path.join(work, "phone-host"), "--server", server, "--fast-kdf", link], work, "phone-host")
        with log:
            approve_and_finish(driver, host, "phone", screenshots, 390)
        console_errors(driver, "phone")
    finally:
        driver.quit()


def renewal(server):
    """The desktop page's countdown: when it runs out the page fetches a new code by itself."""
    driver = browser(1280, 900)
    try:
        sign_in(driver, server)
        old_id = driver.execute_script("return document.getElementById('sso').dataset.id")
        old_link = driver.find_element(By.ID, "qr").get_attribute("data-link")
        # Time runs out now, as it would after 60 s.
        driver.execute_script("document.getElementById('sso').dataset.expires = String(Date.now() - 1000)")
        try:
            WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.getElementById('sso').dataset.id") != old_id)
        except Exception:
            problems.append("renewal: the page did not fetch a new code when its countdown ran out")
            return
        new_link = driver.find_element(By.ID, "qr").get_attribute("data-link")
        if new_link == old_link or not new_link.startswith("tandem-demo://sso?config="):
            problems.append("renewal: the QR code's link did not change")
        if not driver.find_elements(By.CSS_SELECTOR, "#qr svg"):
            problems.append("renewal: the new QR code is not drawn")
        try:
            WebDriverWait(driver, 5).until(lambda d: int(d.find_element(By.ID, "seconds").text or "0") >= 50)
        except Exception:
            problems.append(f"renewal: the new code shows {driver.find_element(By.ID, 'seconds').text} s left")
        console_errors(driver, "renewal")
    finally:
        driver.quit()


def main() -> int:
    tandem, server, database, work, screenshots = sys.argv[1:6]
    started = time.monotonic()
    desktop(tandem, server, work, screenshots)
    phone(tandem, server, work, screenshots)
    renewal(server)
    audit = run(tandem, ["admin", "audit", "--database", database, "--client-id", "tandem-demo", "--limit", "100"])
    kinds = [json.loads(line)["kind"] for line in audit.stdout.splitlines() if line.startswith("{")]
    for kind in ("sso.claimed", "sso.approved", "sso.redeemed"):
        if kinds.count(kind) != 2:
            problems.append(f"the audit log has {kinds.count(kind)} {kind} lines, expected one per onboarded host: {kinds}")
    for problem in problems:
        print(f"check-sso: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-sso: desktop QR (decoded from the screenshot) and phone Next both onboarded a host after Approve, "
          f"the desktop page renewed its code, no console error, no sideways scrolling at 1280 and 390 px; {len(kinds)} audit lines; "
          f"{time.monotonic() - started:.1f} s; screenshots in {screenshots}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
