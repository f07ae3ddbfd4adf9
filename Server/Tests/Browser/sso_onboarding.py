"""Cross-context SSO as a person does it, recorded for the tests to judge: signed in on the SSO
page in one browser, a `tandem host` onboards with the page's QR code (decoded by zbarimg from a
screenshot) or its Next link, the person clicks Approve, the host finishes onboarding."""
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from chromium import PATIENCE, click_and_wait_for_page, console_errors, heading, sideways, sign_in

PASSCODE = "check-sso-Passcode-7"
LINK_PREFIX = "tandem-demo://sso?config="
USERNAME = "demo"  # the seeded account the hosts are signed in to


@dataclass
class Onboarding:
    """What one onboarding showed: the pages, the host, and what the onboarded host did."""
    home: Path
    heading: str = ""
    countdown: int = 0
    link: str = ""
    qr_code_shown: bool = False
    device: str = ""
    network: str = ""   # what the server observed of the device's address
    after_approve: str = ""
    host: dict = field(default_factory=dict)
    fulfilled: list = field(default_factory=list)
    taps_sent: int = 0
    problems: list = field(default_factory=list)   # sideways scrolling and console errors


def tandem_environment() -> dict:
    """The caller's environment without TANDEM_ variables: a host run is a fresh device."""
    return {key: value for key, value in os.environ.items() if not key.startswith("TANDEM_")}


def run(tandem: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(tandem), *arguments], capture_output=True, text=True, env=tandem_environment(), timeout=120)


def last_json_line(text: str) -> dict:
    lines = [line for line in text.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def open_signed_in(driver, server: str):
    sign_in(driver, server, "/sso/tandem-demo", USERNAME, "demo-password")
    WebDriverWait(driver, PATIENCE).until(expected_conditions.presence_of_element_located((By.ID, "sso")))


def start_host(tandem: Path, arguments: list, log: Path) -> subprocess.Popen:
    environment = {**tandem_environment(), "TANDEM_PASSCODE": PASSCODE}
    with open(log, "w") as stderr:
        return subprocess.Popen([str(tandem), "host", *arguments], stdout=subprocess.PIPE, stderr=stderr, text=True, env=environment)


def approve(driver, host: subprocess.Popen, record: Onboarding, page: str, width: int, screenshots: Path):
    """Waits for the page to show the device, clicks Approve, and waits for the host to finish."""
    try:
        WebDriverWait(driver, PATIENCE).until(expected_conditions.visibility_of_element_located((By.ID, "decision")))
    except Exception:
        host.kill()
        pytest.fail(f"{page}: the page never showed the device waiting for approval (within {PATIENCE} s)", pytrace=False)
    record.device = driver.find_element(By.ID, "device").text
    record.network = driver.find_element(By.ID, "device-network").text
    record.problems += sideways(driver, f"{page} (decision)", width)
    driver.save_screenshot(str(screenshots / f"{page}-decision-{width}.png"))
    click_and_wait_for_page(driver, driver.find_element(By.ID, "approve"))
    try:
        WebDriverWait(driver, PATIENCE).until(expected_conditions.text_to_be_present_in_element((By.TAG_NAME, "h1"), "Approved"))
    except Exception:
        pass
    record.after_approve = heading(driver)
    driver.save_screenshot(str(screenshots / f"{page}-approved-{width}.png"))
    try:
        output, _ = host.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        host.kill()
        pytest.fail(f"{page}: the host did not finish onboarding within 120 s of the approval", pytrace=False)
    if host.returncode != 0:
        pytest.fail(f"{page}: the host exited {host.returncode}", pytrace=False)
    record.host = last_json_line(output)
    record.problems += console_errors(driver, page)


def onboard_from_the_desktop(driver, tandem: Path, server: str, work: Path, screenshots: Path) -> Onboarding:
    """Desktop (1280 px): the QR code decoded from a screenshot starts `tandem host onboard
    --qr-image`; after Approve the host reads data through its widget and sends a widget tap."""
    record = Onboarding(home=work / "desktop-host")
    open_signed_in(driver, server)
    record.heading = heading(driver)
    record.problems += sideways(driver, "desktop", 1280)
    record.countdown = int(driver.find_element(By.ID, "seconds").text or "0")
    picture = screenshots / "sso-desktop-1280.png"
    driver.save_screenshot(str(picture))
    decoded = subprocess.run(["zbarimg", "--quiet", "--raw", str(picture)], capture_output=True, text=True)
    record.link = decoded.stdout.strip().splitlines()[0] if decoded.returncode == 0 and decoded.stdout.strip() else ""
    if not record.link.startswith(LINK_PREFIX):
        pytest.fail(f"desktop: zbarimg read {record.link!r} from the screenshot", pytrace=False)
    host = start_host(tandem, ["onboard", "--dir", str(record.home), "--server", server, "--qr-image", str(picture), "--fast-kdf",
                              "--account", USERNAME],
                      work / "desktop-host.log")
    approve(driver, host, record, "desktop", 1280, screenshots)

    # The onboarded host serves its widget: a request fulfilled through the paired key.
    page = ["--destination", "sales", "--entity-set", "Customers", "--limit", "3"]
    request = run(tandem, "widget", "request", "--dir", str(record.home), *page)
    fulfil = run(tandem, "host", "fulfil", "--dir", str(record.home))
    if request.returncode == 0 and fulfil.returncode == 0:
        record.fulfilled = [outcome.get("result") for outcome in last_json_line(fulfil.stdout).get("outcomes", [])]
    # A tap on its widget, routed by the host and sent to the server (the cockpit shows it).
    tap = run(tandem, "widget", "tap", "--dir", str(record.home), *page)
    routed = run(tandem, "host", "open-url", "--dir", str(record.home), tap.stdout.strip())
    if tap.returncode == 0 and routed.returncode == 0:
        record.taps_sent = last_json_line(routed.stdout).get("sent", 0)
    return record


def onboard_from_a_phone(driver, tandem: Path, server: str, work: Path, screenshots: Path) -> Onboarding:
    """Phone (390 px, an iPhone's user agent): the page's Next link goes to `tandem host open-url`."""
    record = Onboarding(home=work / "phone-host")
    open_signed_in(driver, server)
    record.problems += sideways(driver, "phone", 390)
    driver.save_screenshot(str(screenshots / "sso-phone-390.png"))
    record.qr_code_shown = bool(driver.find_elements(By.CSS_SELECTOR, "#qr svg"))
    record.link = driver.find_element(By.ID, "next").get_attribute("href") or ""
    if not record.link.startswith(LINK_PREFIX):
        pytest.fail(f"phone: Next links to {record.link!r}", pytrace=False)
    host = start_host(tandem, ["open-url", "--dir", str(record.home), "--server", server, "--fast-kdf", "--account", USERNAME,
                              record.link],
                      work / "phone-host.log")
    approve(driver, host, record, "phone", 390, screenshots)
    return record
