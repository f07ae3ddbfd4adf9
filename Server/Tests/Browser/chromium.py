"""Headless Chromium through the installed chromedriver (Selenium never downloads one: the suite
runs with SE_OFFLINE=true), and what the browser tests ask of a page."""
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Seconds to wait for what includes the server's work (a sign-in hashes a password, which in a
# debug build on a busy machine takes seconds); how fast is not what these tests judge.
PATIENCE = 60

PHONE_AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"


def chromium(width: int, height: int, agent: str | None = None) -> webdriver.Chrome:
    """A headless Chromium of `width` × `height`; with `agent`, a phone's (mobile emulation)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if agent:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}, "userAgent": agent})
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))


def sign_in(driver, server: str, path: str, username: str, password: str):
    """Opens `path`, which must send the browser to /signin, and signs in there."""
    driver.get(server + path)
    WebDriverWait(driver, PATIENCE).until(lambda d: "/signin" in d.current_url and d.find_elements(By.NAME, "username"),
                                    f"without a session {path} did not send the browser to sign in")
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Signed in once the browser has left the sign-in page.
    WebDriverWait(driver, PATIENCE).until(lambda d: "/signin" not in d.current_url, f"signing in as {username} stayed on /signin")


def click_and_wait_for_page(driver, element, timeout=PATIENCE):
    """Clicks `element` and waits until a new document has loaded (a marker left on the old
    window is gone): sturdier than waiting for the element to go stale."""
    driver.execute_script("window.__tandemPreviousPage = true")
    element.click()
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return window.__tandemPreviousPage === undefined && document.readyState === 'complete'"))


def heading(driver) -> str:
    return driver.find_element(By.TAG_NAME, "h1").text


def console_errors(driver, page: str) -> list:
    """The console's errors since the last look, as "PAGE: console LEVEL: MESSAGE"."""
    return [f"{page}: console {entry.get('level')}: {entry.get('message')}"
            for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "ERROR")]


def sideways(driver, page: str, width: int) -> list:
    """["PAGE: N px wide at a WIDTH px viewport"] when the page scrolls sideways, else []."""
    scroll = driver.execute_script("return document.documentElement.scrollWidth")
    return [f"{page}: {scroll} px wide at a {width} px viewport (scrolls sideways)"] if scroll > width else []
