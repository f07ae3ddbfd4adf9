"""Opens the widget gallery page in headless Chromium (through chromedriver) and checks it.

Usage: check_gallery.py PAGE SCREENSHOT EXPECTED_CARDS

Fails (exit 1) when the browser logs any error, when the page does not hold EXPECTED_CARDS
widget cards, or when a card is not drawn (an empty box). Saves a screenshot of the whole page.
"""
import shutil
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main() -> int:
    page, screenshot, expected = sys.argv[1], sys.argv[2], int(sys.argv[3])
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1600,1200"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    try:
        driver.get("file://" + page)
        cards = driver.execute_script(
            "return Array.from(document.querySelectorAll('svg')).map(s => {"
            " const box = s.getBoundingClientRect();"
            " return [s.dataset.state || '', box.width, box.height, s.querySelectorAll('text').length]; })"
        )
        width, height = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        driver.set_window_size(max(width, 800) + 40, height + 120)
        driver.save_screenshot(screenshot)
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "ERROR")]
    finally:
        driver.quit()

    problems = []
    if len(cards) != expected:
        problems.append(f"{len(cards)} widget cards on the page, expected {expected}")
    for state, card_width, card_height, texts in cards:
        if not state or card_width <= 0 or card_height <= 0 or texts == 0:
            problems.append(f"a card is not drawn: state={state!r} size={card_width}x{card_height} texts={texts}")
    for entry in errors:
        problems.append(f"console {entry.get('level')}: {entry.get('message')}")
    for problem in problems:
        print(f"check-gallery: {problem}", file=sys.stderr)
    if problems:
        return 1
    states = sorted({card[0] for card in cards})
    print(f"check-gallery: {len(cards)} cards ({', '.join(states)}), no console error; screenshot {screenshot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
