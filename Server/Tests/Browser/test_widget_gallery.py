"""The widget gallery (`tandem widget gallery`: every state × family as SVG on one HTML page) in
headless Chromium: every card on the page and drawn, no console error. The screenshot of the whole
page is kept as widget-gallery/gallery.png in the artifacts folder."""
import json
import subprocess
from dataclasses import dataclass

import pytest

from chromium import chromium, console_errors


@dataclass
class Gallery:
    expected_cards: int   # what `tandem widget gallery` says it wrote
    cards: list           # [state, width, height, number of <text>] of each <svg> on the page
    problems: list        # console errors


@pytest.fixture(scope="module")
def gallery(tandem, artifacts) -> Gallery:
    out = artifacts("widget-gallery")
    written = subprocess.run([str(tandem), "widget", "gallery", "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert written.returncode == 0, f"tandem widget gallery failed: {written.stderr}"
    driver = chromium(1600, 1200)
    try:
        driver.get((out / "index.html").as_uri())
        cards = driver.execute_script(
            "return Array.from(document.querySelectorAll('svg')).map(s => {"
            " const box = s.getBoundingClientRect();"
            " return [s.dataset.state || '', box.width, box.height, s.querySelectorAll('text').length]; })")
        width, height = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        driver.set_window_size(max(width, 800) + 40, height + 120)
        driver.save_screenshot(str(out / "gallery.png"))
        return Gallery(json.loads(written.stdout)["svgFiles"], cards, console_errors(driver, "gallery"))
    finally:
        driver.quit()


def test_the_page_holds_a_card_for_every_svg_written(gallery):
    assert len(gallery.cards) == gallery.expected_cards


def test_every_card_is_drawn_with_its_state_a_size_and_text(gallery):
    undrawn = [card for card in gallery.cards if not card[0] or card[1] <= 0 or card[2] <= 0 or card[3] == 0]
    assert undrawn == [], "cards not drawn, as [state, width, height, texts]"


def test_the_gallery_logs_no_console_error(gallery):
    assert gallery.problems == []
