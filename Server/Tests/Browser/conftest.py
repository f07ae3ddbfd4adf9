"""Fixtures of the browser suite: a seeded server (`tandem admin seed-demo`; SSO codes live 90 s,
not the default 60, so that a test can tell the option is honoured), headless Chromium windows
that close after their test, the folder of screenshots, and the two SSO onboardings."""
import shutil

import pytest

from chromium import PHONE_AGENT, chromium
from sso_onboarding import onboard_from_a_phone, onboard_from_the_desktop
from tandem_server import TandemServer, seed_demo


@pytest.fixture(scope="session")
def web_server(tandem, tmp_path_factory, artifacts) -> TandemServer:
    server = TandemServer(tandem, tmp_path_factory.mktemp("web-server"))
    seed_demo(server)
    server.start("--log-level", "warning", "--sso-passcode-lifetime", "90", "--backend-allow-loopback")
    yield server
    server.stop()
    shutil.copy(server.log, artifacts("web-server") / "server.log")


@pytest.fixture(scope="session")
def screenshots(artifacts):
    """Screenshots of every page the suite opens, for a person to look at."""
    return artifacts("web-pages")


@pytest.fixture
def browser():
    """`browser(width=1280, height=900, agent=None)`: a headless Chromium, quit after the test."""
    opened = []

    def open_window(width=1280, height=900, agent=None):
        opened.append(chromium(width, height, agent))
        return opened[-1]
    yield open_window
    for driver in opened:
        driver.quit()


@pytest.fixture(scope="session")
def desktop_onboarding(tandem, web_server, tmp_path_factory, screenshots):
    """A host onboarded from the desktop SSO page's QR code, which then read data and sent a tap."""
    driver = chromium(1280, 900)
    try:
        return onboard_from_the_desktop(driver, tandem, web_server.base, tmp_path_factory.mktemp("desktop"), screenshots)
    finally:
        driver.quit()


@pytest.fixture(scope="session")
def phone_onboarding(tandem, web_server, tmp_path_factory, screenshots):
    """A host onboarded from the phone SSO page's Next link."""
    driver = chromium(390, 844, PHONE_AGENT)
    try:
        return onboard_from_a_phone(driver, tandem, web_server.base, tmp_path_factory.mktemp("phone"), screenshots)
    finally:
        driver.quit()
