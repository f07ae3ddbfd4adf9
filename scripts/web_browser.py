"""What the browser checks share: headless Chromium through the installed chromedriver, a
sign-in at /signin, console errors, and a page's width."""
import shutil

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

PHONE_AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"


def browser(width, height, agent=None):
    """A headless Chromium of `width` × `height`; with `agent`, a phone's (mobile emulation)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if agent:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2}, "userAgent": agent})
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))


def sign_in(driver, server, path, username, password, problems):
    """Opens `path`, which must send the browser to /signin, and signs in there."""
    driver.get(server + path)
    try:
        WebDriverWait(driver, 10).until(lambda d: "/signin" in d.current_url and d.find_elements(By.NAME, "username"))
    except Exception:
        problems.append(f"without a session {path} did not send the browser to sign in: {driver.current_url}")
        return
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Signed in once the browser has left the sign-in page.
    WebDriverWait(driver, 10).until(lambda d: "/signin" not in d.current_url)


def click_and_wait_for_page(driver, element, timeout=10):
    """Clicks `element` and waits until a new document has loaded (a marker left on the old
    window is gone): sturdier than waiting for the element to go stale."""
    driver.execute_script("window.__tandemPreviousPage = true")
    element.click()
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return window.__tandemPreviousPage === undefined && document.readyState === 'complete'"))


def console_errors(driver, page, problems):
    for entry in driver.get_log("browser"):
        if entry.get("level") in ("SEVERE", "ERROR"):
            problems.append(f"{page}: console {entry.get('level')}: {entry.get('message')}")


def check_width(driver, page, width, problems):
    scroll = driver.execute_script("return document.documentElement.scrollWidth")
    if scroll > width:
        problems.append(f"{page}: {scroll} px wide at a {width} px viewport (scrolls sideways)")
