"""The inspector over HTTP: login and session cookie, CSRF, escaping, languages, the pages and their writes.

The browser test (tests/browser) clicks through the same pages in Chromium; these tests
check what a browser does not show: cookie flags, refusals, redirects, headers.
"""

from __future__ import annotations

import re
import time
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from memory_tasks.db.models import LongTermMemory, MemoryHistory
from memory_tasks.db.session import session_scope
from memory_tasks.http.inspector.i18n import LABELS, pick_language
from memory_tasks.http.inspector.routes import safe_next
from memory_tasks.http.inspector.session import SESSION_SECONDS, SessionSigner
from memory_tasks.tools import execute
from tests.http.conftest import ADMIN_TOKEN, CHAT_TOKEN

USER, OTHER = 4501, 4502
HOSTILE = "<img src=x onerror=alert(1)>"

pytestmark = pytest.mark.usefixtures("milvus_server")


def _login(client: TestClient) -> str:
    """Log in; returns the CSRF token of the session (from a page's form)."""
    response = client.post(
        "/inspector/login", data={"token": ADMIN_TOKEN, "next": "/inspector"}, follow_redirects=False
    )
    assert response.status_code == 303
    page = client.get("/inspector").text
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def _memory(user_id: int, key: str, content: str, memory_type: str = "fact") -> int:
    result = execute(user_id, "memory_save", {"key": key, "content": content, "memory_type": memory_type})
    assert result.get("ok"), result
    return result["memory"]["id"]


# --- login and session -------------------------------------------------------------------


def test_every_page_sends_a_stranger_to_the_login_form(client: TestClient) -> None:
    for path in ("/inspector", f"/inspector/users/{USER}", f"/inspector/users/{USER}/memories/1"):
        response = client.get(path, follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == f"/inspector/login?{urlencode({'next': path})}"


def test_only_the_admin_token_logs_in_and_the_cookie_is_httponly_samesite(client: TestClient) -> None:
    chat = client.post("/inspector/login", data={"token": CHAT_TOKEN}, follow_redirects=False)
    admin = client.post("/inspector/login", data={"token": ADMIN_TOKEN}, follow_redirects=False)

    assert chat.status_code == 401
    assert LABELS["en"]["login_failed"] in chat.text
    assert "set-cookie" not in chat.headers
    cookie = admin.headers["set-cookie"]
    assert admin.status_code == 303
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie or "SameSite=Strict" in cookie
    assert "Path=/inspector" in cookie
    assert ADMIN_TOKEN not in cookie


def test_a_forged_or_expired_session_is_no_session() -> None:
    signer = SessionSigner(ADMIN_TOKEN.encode())
    cookie, session = signer.issue()
    payload, signature = cookie.split(".")

    assert signer.verify(cookie) == session
    assert signer.verify(f"{payload}.{signature[:-2]}xx") is None
    assert signer.verify(f"{payload}x.{signature}") is None
    assert signer.verify("garbage") is None
    assert signer.verify(cookie, now=time.time() + SESSION_SECONDS + 1) is None
    # Another admin token (rotated) signs differently: every session ends.
    assert SessionSigner(b"another-admin-token-0123456789").verify(cookie) is None


def test_logout_ends_the_session(client: TestClient) -> None:
    csrf = _login(client)

    response = client.post("/inspector/logout", data={"csrf": csrf}, follow_redirects=False)

    assert response.headers["location"] == "/inspector/login"
    assert client.get("/inspector", follow_redirects=False).status_code == 303


@pytest.mark.parametrize(
    ("target", "landing"),
    [
        ("/inspector/users/5", "/inspector/users/5"),
        ("https://attacker.example/", "/inspector"),
        ("//attacker.example/", "/inspector"),
        ("/inspector/../admin", "/inspector/../admin"),
        ("/inspector\\@attacker.example", "/inspector"),
        ("/elsewhere", "/inspector"),
    ],
)
def test_the_login_redirect_stays_inside_the_inspector(target: str, landing: str) -> None:
    assert safe_next(target) == landing


# --- CSRF, headers, escaping -------------------------------------------------------------


def test_a_write_without_the_sessions_csrf_token_is_refused_and_changes_nothing(client: TestClient) -> None:
    memory_id = _memory(USER, "home-city", "用户住在杭州")
    _login(client)
    url = f"/inspector/users/{USER}/memories/{memory_id}/edit"

    missing = client.post(url, data={"content": "用户住在上海"})
    wrong = client.post(url, data={"content": "用户住在上海", "csrf": "not-the-token"})
    foreign = client.post(
        url,
        data={"content": "用户住在上海", "csrf": _login(client)},
        headers={"Origin": "https://attacker.example"},
    )

    for response in (missing, wrong, foreign):
        assert response.status_code == 403
        assert LABELS["en"]["csrf_failed"] in response.text
    with session_scope() as session:
        assert session.get(LongTermMemory, memory_id).content == "用户住在杭州"


def test_pages_forbid_framing_and_foreign_scripts(client: TestClient) -> None:
    _login(client)
    headers = client.get("/inspector").headers

    assert "script-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["cache-control"] == "no-store"


def test_memory_content_and_messages_render_as_text(client: TestClient) -> None:
    memory_id = _memory(USER, "home-city", "用户住在杭州")
    with session_scope() as session:
        session.get(LongTermMemory, memory_id).content = HOSTILE
    client.post(
        "/v1/turns",
        json={"user_id": USER, "role": "user", "content": "<script>alert('msg')</script>"},
        headers={"Authorization": f"Bearer {CHAT_TOKEN}"},
    )
    _login(client)

    pages = [
        client.get(f"/inspector/users/{USER}").text,
        client.get(f"/inspector/users/{USER}/memories/{memory_id}").text,
    ]

    for page in pages:
        assert "<img src=x" not in page
        assert "<script>alert" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in pages[0]
    assert "&lt;script&gt;alert(&#39;msg&#39;)&lt;/script&gt;" in pages[0]


# --- languages ----------------------------------------------------------------------------


def test_both_languages_label_the_same_things() -> None:
    assert set(LABELS["en"]) == set(LABELS["zh"])
    assert all(LABELS["zh"][key] for key in LABELS["zh"])


@pytest.mark.parametrize(
    ("chosen", "header", "language"),
    [
        (None, "zh-CN,zh;q=0.9,en;q=0.8", "zh"),
        (None, "en-US,en;q=0.9", "en"),
        (None, "fr-FR, en;q=0.5, zh;q=0.9", "zh"),
        (None, "de, fr", "en"),
        (None, "zh;q=0, en", "en"),
        (None, "zh;q=abc, en", "en"),
        (None, None, "en"),
        ("en", "zh-CN", "en"),
        ("zh", "en", "zh"),
        ("klingon", "zh", "zh"),
    ],
)
def test_the_language_is_the_operators_choice_else_the_browsers(chosen, header, language) -> None:
    assert pick_language(chosen, header) == language


def test_pages_follow_accept_language_and_the_switch(client: TestClient) -> None:
    login_zh = client.get("/inspector/login", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert LABELS["zh"]["admin_token"] in login_zh.text
    assert 'lang="zh-CN"' in login_zh.text

    switched = client.get("/inspector/lang/en?next=/inspector/login", follow_redirects=False)
    assert switched.headers["location"] == "/inspector/login"
    page = client.get("/inspector/login", headers={"Accept-Language": "zh-CN"})
    assert LABELS["en"]["admin_token"] in page.text


# --- the pages and their writes ----------------------------------------------------------


def test_finding_a_user_opens_their_page(client: TestClient) -> None:
    _memory(USER, "home-city", "用户住在杭州")
    _login(client)

    found = client.get("/inspector/find", params={"user_id": f" {USER} "}, follow_redirects=False)
    invalid = client.get("/inspector/find", params={"user_id": "robert'); drop"})
    unknown = client.get("/inspector/users/999")

    assert found.headers["location"] == f"/inspector/users/{USER}"
    assert invalid.status_code == 422
    assert LABELS["en"]["invalid_user_id"] in invalid.text
    assert LABELS["en"]["nothing_stored"] in unknown.text
    home = client.get("/inspector").text
    assert f'href="/inspector/users/{USER}"' in home


def test_the_users_page_lists_memories_with_filters_and_recent_messages(client: TestClient) -> None:
    _memory(USER, "home-city", "用户住在杭州")
    _memory(USER, "drink-preference", "用户喜欢喝乌龙茶", "preference")
    _memory(OTHER, "secret-project", "别人的秘密项目", "project")
    client.post(
        "/v1/turns",
        json={"user_id": USER, "role": "user", "content": "我周末去爬山"},
        headers={"Authorization": f"Bearer {CHAT_TOKEN}"},
    )
    _login(client)

    page = client.get(f"/inspector/users/{USER}").text
    preferences = client.get(f"/inspector/users/{USER}", params={"type": "preference"}).text

    assert "用户住在杭州" in page and "用户喜欢喝乌龙茶" in page
    assert "别人的秘密项目" not in page
    assert "我周末去爬山" in page and "PENDING" in page
    assert "用户喜欢喝乌龙茶" in preferences and "用户住在杭州" not in preferences


def test_an_edit_from_the_page_records_history_source_api(client: TestClient) -> None:
    memory_id = _memory(USER, "home-city", "用户住在杭州")
    csrf = _login(client)

    response = client.post(
        f"/inspector/users/{USER}/memories/{memory_id}/edit",
        data={"csrf": csrf, "content": "用户住在上海", "importance": "4", "ttl_days": ""},
        follow_redirects=False,
    )
    page = client.get(response.headers["location"]).text

    assert response.status_code == 303
    assert LABELS["en"]["done_edited"] in page
    with session_scope() as session:
        last = session.scalars(select(MemoryHistory).order_by(MemoryHistory.id.desc()).limit(1)).one()
        assert (last.op, last.source, last.new_content) == ("edit", "api", "用户住在上海")


def test_a_bad_edit_says_why_and_changes_nothing(client: TestClient) -> None:
    memory_id = _memory(USER, "home-city", "用户住在杭州")
    csrf = _login(client)

    response = client.post(
        f"/inspector/users/{USER}/memories/{memory_id}/edit",
        data={"csrf": csrf, "content": "用户住在上海", "importance": "9", "ttl_days": "soon"},
    )

    assert response.status_code == 422
    assert "must be" in response.text
    with session_scope() as session:
        assert session.get(LongTermMemory, memory_id).content == "用户住在杭州"


def test_another_users_memory_page_and_edit_are_not_found(client: TestClient) -> None:
    memory_id = _memory(OTHER, "secret-project", "别人的秘密项目", "project")
    csrf = _login(client)

    page = client.get(f"/inspector/users/{USER}/memories/{memory_id}")
    edit = client.post(f"/inspector/users/{USER}/memories/{memory_id}/edit", data={"csrf": csrf, "content": "改掉"})
    delete = client.post(f"/inspector/users/{USER}/memories/{memory_id}/delete", data={"csrf": csrf})

    assert page.status_code == edit.status_code == delete.status_code == 404
    assert "别人的秘密项目" not in page.text
    with session_scope() as session:
        row = session.get(LongTermMemory, memory_id)
        assert (row.content, row.is_active) == ("别人的秘密项目", True)


def test_delete_from_the_page_deactivates_the_memory(client: TestClient) -> None:
    memory_id = _memory(USER, "home-city", "用户住在杭州")
    csrf = _login(client)

    response = client.post(f"/inspector/users/{USER}/memories/{memory_id}/delete", data={"csrf": csrf})

    assert LABELS["en"]["done_deleted"] in response.text
    assert LABELS["en"]["deleted_memory"] in response.text
    with session_scope() as session:
        assert session.get(LongTermMemory, memory_id).is_active is False


def test_a_retrieval_try_shows_ranked_hits_with_their_breakdown(client: TestClient) -> None:
    _memory(USER, "drink-preference", "用户喜欢喝乌龙茶", "preference")
    _memory(USER, "home-city", "用户住在杭州")
    csrf = _login(client)

    page = client.post(
        f"/inspector/users/{USER}/retrieve", data={"csrf": csrf, "query": "乌龙茶", "mode": "dense", "limit": "5"}
    ).text

    hits = page[page.index('id="hits"') :]
    assert "用户喜欢喝乌龙茶" in hits
    # The home city says nothing about oolong: below the relevance floor, it is not injected (issue 17 item 3).
    assert "用户住在杭州" not in hits
    assert "<meter" in hits and "importance" in hits
    assert "- [preference] 用户喜欢喝乌龙茶" in page


def test_forgetting_needs_the_typed_user_id(client: TestClient) -> None:
    _memory(USER, "home-city", "用户住在杭州")
    csrf = _login(client)

    refused = client.post(f"/inspector/users/{USER}/forget", data={"csrf": csrf, "confirm": str(USER + 1)})
    done = client.post(f"/inspector/users/{USER}/forget", data={"csrf": csrf, "confirm": str(USER)})

    assert refused.status_code == 422
    assert LABELS["en"]["forget_mismatch"] in refused.text
    assert done.status_code == 200
    assert LABELS["en"]["forgotten"] in done.text
    with session_scope() as session:
        assert session.scalar(select(func.count()).where(LongTermMemory.user_id == USER)) == 0
    assert LABELS["en"]["nothing_stored"] in client.get(f"/inspector/users/{USER}").text
