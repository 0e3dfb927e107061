"""The inspector in a real browser: Debian's Chromium, headless, driven by Selenium, against `memory_tasks serve`.

An operator logs in, finds a user, edits a memory (to hostile markup, which must show as
text and run nothing) and sees the new history row, tries a retrieval, switches the
language, and forgets a user, who is then gone. `MT_UPDATE_SCREENSHOT=1` also writes the
README's docs/inspector.png.

Skips, saying why, when chromium or chromedriver is missing (`make test` installs them
with apt when it can). For legible Chinese in the screenshot, install a CJK font first
(`apt-get install fonts-wqy-zenhei`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.conftest import PROJECT_ROOT
from tests.helpers import free_port

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
ADMIN_TOKEN = "browser-admin-token-0123456789abcdef"
CHAT_TOKEN = "browser-chat-token-0123456789abcdef"
USER, FORGOTTEN = 4801, 4802
HOSTILE = "<img src=x onerror=alert(1)>"
SCREENSHOT = PROJECT_ROOT / "docs" / "inspector.png"

pytestmark = pytest.mark.slow

if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
    pytest.skip(
        "browser tests need Debian's chromium and chromium-driver (apt-get install chromium chromium-driver; "
        "make test installs them when apt is available)",
        allow_module_level=True,
    )

from selenium import webdriver  # noqa: E402 - only once chromium is known to be there
from selenium.common.exceptions import NoAlertPresentException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


def _call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        base + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {CHAT_TOKEN}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def served(worker, tmp_path_factory) -> Iterator[str]:
    """`python -m memory_tasks serve` on a free port, with known tokens, against the test database
    (and a worker, so memories are indexed and dense retrieval sees them)."""
    port = free_port()
    log = tmp_path_factory.mktemp("api") / "api.log"
    env = {
        **os.environ,
        "MEMORY_API_TOKENS": CHAT_TOKEN,
        "MEMORY_API_ADMIN_TOKEN": ADMIN_TOKEN,
        "PYTHONPATH": str(PROJECT_ROOT),
    }
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "memory_tasks", "serve", "--port", str(port)],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/healthz", timeout=1)
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the service did not start: {log.read_text()[-3000:]}") from None
            time.sleep(0.3)
    yield base
    process.terminate()
    process.wait(timeout=20)
    # It should never print a token, not even at start-up or shutdown.
    assert ADMIN_TOKEN not in log.read_text() and CHAT_TOKEN not in log.read_text()


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # root in a container
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1400,1000",
        "--lang=en-US",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "en-US,en"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def seeded(served: str) -> dict[str, int]:
    """Two users' memories and turns, written through the API as a chat server would."""
    ids = {}
    for user_id, key, content, memory_type in (
        (USER, "drink-preference", "用户喜欢喝乌龙茶", "preference"),
        (USER, "home-city", "用户住在杭州", "fact"),
        (USER, "reply-style", "回答尽量简洁", "constraint"),
        (FORGOTTEN, "pet", "用户养了一只猫", "fact"),
    ):
        result = _call(
            served,
            "POST",
            "/v1/tools/memory_save",
            {"user_id": user_id, "arguments": {"key": key, "content": content, "memory_type": memory_type}},
        )
        ids[f"{user_id}:{key}"] = result["memory"]["id"]
    _call(served, "POST", "/v1/turns", {"user_id": USER, "role": "user", "content": "我周末想去爬山"})
    _call(served, "POST", "/v1/turns", {"user_id": FORGOTTEN, "role": "user", "content": "我的猫叫咪咪"})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        states = {m["vector_status"] for m in _call(served, "GET", f"/v1/users/{USER}/memories")["data"]}
        if states == {"SYNCED"}:
            break
        time.sleep(0.5)
    return ids


def _wait(driver: webdriver.Chrome, css: str):
    return WebDriverWait(driver, 30).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css)))


def _no_alert(driver: webdriver.Chrome) -> bool:
    try:
        driver.switch_to.alert  # noqa: B018 - the property raises when there is none
    except NoAlertPresentException:
        return True
    return False


def test_an_operator_inspects_edits_retrieves_and_forgets(browser, served: str, seeded: dict[str, int]) -> None:
    driver = browser

    # log in (the page asked for first is where the login leads)
    driver.get(f"{served}/inspector")
    _wait(driver, "#token").send_keys(ADMIN_TOKEN)
    driver.find_element(By.CSS_SELECTOR, "#login-form button[type=submit]").click()
    recent = _wait(driver, "#recent-users")
    assert str(USER) in recent.text

    # find a user
    driver.find_element(By.ID, "home-user").send_keys(str(USER))
    driver.find_element(By.CSS_SELECTOR, "form[action='/inspector/find'].row button").click()
    table = _wait(driver, "#memories")
    assert "用户喜欢喝乌龙茶" in table.text and "用户住在杭州" in table.text
    assert "我周末想去爬山" in driver.find_element(By.ID, "messages").text

    # edit a memory into hostile markup; the history shows the new row
    memory_id = seeded[f"{USER}:home-city"]
    driver.find_element(By.CSS_SELECTOR, f"#memories a[href$='/memories/{memory_id}']").click()
    content = _wait(driver, "#e-content")
    content.clear()
    content.send_keys(HOSTILE)
    Select(driver.find_element(By.ID, "e-importance")).select_by_value("5")
    driver.find_element(By.ID, "e-save").click()
    _wait(driver, "#done")
    rows = driver.find_elements(By.CSS_SELECTOR, "#history li")
    assert len(rows) == 2
    assert "edit" in rows[-1].text.lower() and "api" in rows[-1].text
    assert "importance 3 -> 5" in rows[-1].text
    # It should show the markup as text: no image element, no script run.
    assert driver.find_element(By.ID, "memory-content").text == HOSTILE
    assert HOSTILE in rows[-1].text
    assert driver.find_elements(By.CSS_SELECTOR, "main img") == []
    assert _no_alert(driver)

    # try a retrieval: ranked hits with the score breakdown
    driver.get(f"{served}/inspector/users/{USER}")
    assert driver.find_elements(By.CSS_SELECTOR, "main img") == []
    driver.find_element(By.ID, "r-query").send_keys("乌龙茶")
    Select(driver.find_element(By.ID, "r-mode")).select_by_value("dense")
    driver.find_element(By.ID, "r-submit").click()
    hits = _wait(driver, "#hits")
    first = hits.find_elements(By.CSS_SELECTOR, "tbody tr")[0]
    assert "用户喜欢喝乌龙茶" in first.text
    assert first.find_elements(By.CSS_SELECTOR, "ul.why meter")
    assert "[preference] 用户喜欢喝乌龙茶" in driver.find_element(By.ID, "prompt-block").text
    assert _no_alert(driver)
    if os.environ.get("MT_UPDATE_SCREENSHOT") == "1":
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(SCREENSHOT))

    # the labels switch to Chinese and back
    driver.find_element(By.ID, "switch-language").click()
    assert "记忆检查器" in _wait(driver, "header.top").text
    driver.find_element(By.ID, "switch-language").click()
    assert "Memory inspector" in _wait(driver, "header.top").text

    # forget a user behind the typed confirmation; they are gone
    driver.get(f"{served}/inspector/users/{FORGOTTEN}")
    button = _wait(driver, "#forget-submit")
    assert not button.is_enabled()  # the script keeps it off until the id is typed
    driver.find_element(By.ID, "forget-confirm").send_keys(str(FORGOTTEN + 1))
    assert not button.is_enabled()
    driver.find_element(By.ID, "forget-confirm").clear()
    driver.find_element(By.ID, "forget-confirm").send_keys(str(FORGOTTEN))
    assert button.is_enabled()
    button.click()
    forgotten = _wait(driver, "#forgotten")
    assert str(FORGOTTEN) in forgotten.text
    driver.find_element(By.ID, "find-user").send_keys(str(FORGOTTEN))
    driver.find_element(By.CSS_SELECTOR, "header form.find button").click()
    assert _wait(driver, "#nothing-stored").is_displayed()
    assert not driver.find_elements(By.ID, "memories")
    assert _call(served, "GET", f"/v1/users/{FORGOTTEN}/memories")["count"] == 0
    kept = {m["id"] for m in _call(served, "GET", f"/v1/users/{USER}/memories")["data"]}
    assert {seeded[f"{USER}:{key}"] for key in ("drink-preference", "home-city", "reply-style")} <= kept


def test_without_a_session_the_browser_lands_on_the_login_form(browser, served: str) -> None:
    browser.delete_all_cookies()
    browser.get(f"{served}/inspector/users/{USER}")
    _wait(browser, "#login-form")
    assert "/inspector/login" in browser.current_url


def test_the_interactive_api_docs_render_offline(browser, served: str) -> None:
    browser.get(f"{served}/docs")
    title = WebDriverWait(browser, 30).until(
        expected_conditions.visibility_of_element_located((By.CSS_SELECTOR, ".swagger-ui .info .title"))
    )
    assert "memory_tasks" in title.text
    assert browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path[data-path='/v1/turns']")
