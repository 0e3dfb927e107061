"""The inspector's pages: login, find a user, their memories and messages, history, retrieval, edits, forget.

Pages are server-rendered Jinja2 with autoescaping on (memory content is data, never
markup) and a Content-Security-Policy that allows only this origin's script and style.
Every write is a POST form carrying the session's CSRF token and answers with a redirect
to the page that shows the result (post/redirect/get). The routes call the same plain
functions as the API routes and the CLI.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from sqlalchemy.orm import Session

from memory_tasks.db.clock import db_now
from memory_tasks.dispatch import enqueue_index_sync
from memory_tasks.extraction.candidates import MEMORY_TYPES
from memory_tasks.forget import ForgetError, forget_user
from memory_tasks.http.auth import Role
from memory_tasks.http.deps import ReadSession, RowIdPath, UserIdPath, auth_config, require_loopback_host, whole_number
from memory_tasks.http.inspector.i18n import LABELS, LANG_COOKIE, LANGUAGES, pick_language
from memory_tasks.http.inspector.session import (
    COOKIE_NAME,
    COOKIE_PATH,
    SESSION_SECONDS,
    InspectorSession,
    csrf_matches,
)
from memory_tasks.memories import reads
from memory_tasks.memories.edits import EditError, MemoryEdit, delete_memory, edit_memory
from memory_tasks.redaction import redact
from memory_tasks.retrieval import find_memories, format_memory_block
from memory_tasks.retrieval.search import MODES
from memory_tasks.shapes import memory_json
from memory_tasks.status import collect_status
from memory_tasks.text import MAX_USER_ID

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
PAGE_SIZE = 50
RECENT_MESSAGES = 20
RECENT_USERS = 20
MAX_RETRIEVE_LIMIT = 50
DONE_LABELS = {"edited": "done_edited", "unchanged": "done_unchanged", "deleted": "done_deleted"}

templates = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
# Errors stored before the redaction helper existed (or by an older worker) may hold a secret:
# pages mask them on display, as `status` does.
templates.filters["redacted"] = redact

router = APIRouter(prefix="/inspector", include_in_schema=False)


class LoginRequired(Exception):
    """No valid session: the handler redirects to the login page, back to `next` afterwards."""

    def __init__(self, next_path: str) -> None:
        super().__init__(next_path)
        self.next_path = next_path


class FormRejected(Exception):
    """A write whose CSRF token or origin does not check out; answered with a 403 page."""


@dataclass(frozen=True)
class Page:
    """What every page template gets: the labels, the language, and the session's CSRF token."""

    request: Request
    lang: str
    session: InspectorSession | None

    def render(self, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        other = next(lang for lang in LANGUAGES if lang != self.lang)
        here = self.request.url.path + (f"?{self.request.url.query}" if self.request.url.query else "")
        if self.request.method != "GET":
            # A page answering a form: come back to the page the form is on (.../retrieve -> the user).
            here = self.request.url.path.rsplit("/", 1)[0]
        html = templates.get_template(template).render(
            t=LABELS[self.lang],
            lang=self.lang,
            switch_url=f"/inspector/lang/{other}?{urlencode({'next': here})}",
            csrf=self.session.csrf if self.session else "",
            logged_in=self.session is not None,
            **context,
        )
        return HTMLResponse(html, status_code=status)


def language_of(request: Request) -> str:
    return pick_language(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))


def current_session(request: Request) -> InspectorSession | None:
    return request.app.state.sessions.verify(request.cookies.get(COOKIE_NAME))


def logged_in_page(request: Request) -> Page:
    """The page context of a logged-in operator; LoginRequired otherwise."""
    if auth_config(request).insecure_local:
        require_loopback_host(request)
    session = current_session(request)
    if session is None:
        raise LoginRequired(request.url.path)
    return Page(request, language_of(request), session)


def checked_form(
    request: Request, page: Annotated[Page, Depends(logged_in_page)], csrf: Annotated[str, Form()] = ""
) -> Page:
    """The page context of a write: the session's CSRF token must come back, from this origin."""
    origin = request.headers.get("origin")
    same_origin = origin is None or origin == f"{request.url.scheme}://{request.url.netloc}"
    if page.session is None or not same_origin or not csrf_matches(page.session, csrf):
        raise FormRejected
    return page


LoggedIn = Annotated[Page, Depends(logged_in_page)]
WriteForm = Annotated[Page, Depends(checked_form)]


def safe_next(target: str | None) -> str:
    """`target` when it is a path inside the inspector, else the inspector's home (no open redirect)."""
    if target and target.startswith("/inspector") and not any(c in target for c in ("\\", "\r", "\n", "//")):
        return target
    return "/inspector"


def _redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


# --- login, logout, language -------------------------------------------------------------


@router.get("/login")
def login_form(request: Request, next: str = "/inspector") -> Response:
    if current_session(request) is not None:
        return _redirect(safe_next(next))
    page = Page(request, language_of(request), None)
    return page.render("login.html", next=safe_next(next), failed=False, insecure=auth_config(request).insecure_local)


@router.post("/login")
def login(
    request: Request, token: Annotated[str, Form(max_length=1000)] = "", next: Annotated[str, Form()] = "/inspector"
) -> Response:
    config = auth_config(request)
    if config.insecure_local:
        require_loopback_host(request)
    # Only the admin token opens the inspector; a chat server's token does not.
    if config.role_of(token) is Role.ADMIN:
        cookie, _ = request.app.state.sessions.issue()
        response = _redirect(safe_next(next))
        response.set_cookie(
            COOKIE_NAME,
            cookie,
            max_age=SESSION_SECONDS,
            path=COOKIE_PATH,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return response
    page = Page(request, language_of(request), None)
    return page.render("login.html", status=401, next=safe_next(next), failed=True, insecure=config.insecure_local)


@router.post("/logout")
def logout(page: WriteForm) -> Response:
    response = _redirect("/inspector/login")
    response.delete_cookie(COOKIE_NAME, path=COOKIE_PATH, httponly=True, samesite="strict")
    return response


@router.get("/lang/{lang}")
def switch_language(request: Request, lang: str, next: str = "/inspector") -> Response:
    response = _redirect(safe_next(next))
    if lang in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, path=COOKIE_PATH, httponly=True, samesite="lax")
    return response


# --- home and finding a user -------------------------------------------------------------


@router.get("")
def home(page: LoggedIn, session: ReadSession) -> HTMLResponse:
    return _home(page, session)


def _home(page: Page, session: Session, status: int = 200, **context: Any) -> HTMLResponse:
    now = db_now(session)
    overviews = [reads.user_overview(session, user_id, now) for user_id in reads.recent_user_ids(session, RECENT_USERS)]
    context.setdefault("error", None)
    context.setdefault("forgotten", None)
    return page.render(
        "home.html", status=status, status_counts=collect_status(), users=[o for o in overviews if o], **context
    )


@router.get("/find")
def find_user(page: LoggedIn, session: ReadSession, user_id: str = "") -> Response:
    value = user_id.strip()
    if not value.isdigit() or not 0 < int(value) <= MAX_USER_ID:
        return _home(page, session, status=422, error=LABELS[page.lang]["invalid_user_id"])
    return _redirect(f"/inspector/users/{int(value)}")


# --- a user's page ------------------------------------------------------------------------


def _filters(memory_type: str, active: str, text: str) -> reads.MemoryFilter:
    return reads.MemoryFilter(
        memory_type=memory_type or None,
        active={"true": True, "false": False}.get(active),
        text=text.replace("\x00", "").strip() or None,
    )


def _user_page(
    page: Page,
    session: Session,
    user_id: int,
    filters: reads.MemoryFilter,
    page_number: int = 1,
    status: int = 200,
    **context: Any,
) -> HTMLResponse:
    now = db_now(session)
    overview = reads.user_overview(session, user_id, now)
    rows, total = reads.memory_page(session, user_id, filters, now, PAGE_SIZE, (page_number - 1) * PAGE_SIZE)
    messages = reads.recent_messages(session, user_id, RECENT_MESSAGES)
    changed = reads.changed_memory_ids(session, [m.id for m in messages])
    query = {
        "type": filters.memory_type or "",
        "active": "" if filters.active is None else str(filters.active).lower(),
        "text": filters.text or "",
    }
    for name, value in (("retrieval", None), ("retrieval_form", None), ("error", None)):
        context.setdefault(name, value)
    return page.render(
        "user.html",
        status=status,
        user_id=user_id,
        overview=overview,
        memories=[memory_json(m) for m in rows],
        total=total,
        page_number=page_number,
        pages=max(1, math.ceil(total / PAGE_SIZE)),
        filter_query=query,
        page_link=lambda n: f"/inspector/users/{user_id}?{urlencode({**query, 'page': n})}",
        messages=messages,
        changed=changed,
        memory_types=MEMORY_TYPES,
        modes=MODES,
        **context,
    )


@router.get("/users/{user_id}")
def user_page(
    page: LoggedIn,
    session: ReadSession,
    user_id: UserIdPath,
    type: str = "",
    active: str = "",
    text: Annotated[str, Query(max_length=200)] = "",
    page_number: whole_number(Query(alias="page", ge=1, le=100_000)) = 1,
) -> HTMLResponse:
    filters = _filters(type if type in MEMORY_TYPES else "", active, text)
    return _user_page(page, session, user_id, filters, page_number, status=200)


@router.post("/users/{user_id}/retrieve")
def try_retrieval(
    page: WriteForm,
    session: ReadSession,
    user_id: UserIdPath,
    query: Annotated[str, Form(max_length=10_000)] = "",
    summary: Annotated[str, Form(max_length=20_000)] = "",
    mode: Annotated[str, Form()] = "",
    limit: Annotated[str, Form()] = "",
) -> HTMLResponse:
    chosen_mode = mode if mode in MODES else None
    chosen_limit = int(limit) if limit.isdigit() and 0 < int(limit) <= MAX_RETRIEVE_LIMIT else None
    form = {"query": query, "summary": summary, "mode": chosen_mode or "", "limit": chosen_limit or ""}
    hits = find_memories(user_id, query, summary=summary or None, mode=chosen_mode, limit=chosen_limit)
    retrieval = {"hits": [hit.to_json() for hit in hits], "block": format_memory_block(hits)}
    return _user_page(page, session, user_id, reads.MemoryFilter(), retrieval=retrieval, retrieval_form=form)


@router.post("/users/{user_id}/forget")
def forget(
    page: WriteForm, session: ReadSession, user_id: UserIdPath, confirm: Annotated[str, Form()] = ""
) -> Response:
    labels = LABELS[page.lang]
    if confirm.strip() != str(user_id):
        return _user_page(page, session, user_id, reads.MemoryFilter(), status=422, error=labels["forget_mismatch"])
    try:
        removed = forget_user(user_id)
    except ForgetError as exc:
        return _user_page(
            page, session, user_id, reads.MemoryFilter(), status=503, error=f"{labels['forget_failed']} {exc}"
        )
    return _home(page, session, forgotten=removed)


# --- one memory, one message ------------------------------------------------------------


def _memory_page(page: Page, session: Session, user_id: int, memory_id: int, status: int = 200, **context: Any):
    memory = reads.user_memory(session, user_id, memory_id)
    if memory is None:
        return page.render("not_found.html", status=404, user_id=user_id)
    context.setdefault("error", None)
    context.setdefault("done", None)
    return page.render(
        "memory.html",
        status=status,
        user_id=user_id,
        memory=memory_json(memory),
        history=reads.memory_history(session, user_id, memory_id),
        **context,
    )


@router.get("/users/{user_id}/memories/{memory_id}")
def memory_page(page: LoggedIn, session: ReadSession, user_id: UserIdPath, memory_id: RowIdPath, done: str = ""):
    label = DONE_LABELS.get(done)
    return _memory_page(page, session, user_id, memory_id, done=LABELS[page.lang][label] if label else None)


def _whole_number(raw: str, name: str) -> int | None:
    """None for an empty field, the number for digits, else EditError naming the field."""
    value = raw.strip()
    if not value:
        return None
    if not value.isdigit() or len(value) > 9:
        raise EditError(f"{name} must be a whole number")
    return int(value)


@router.post("/users/{user_id}/memories/{memory_id}/edit")
def edit(
    page: WriteForm,
    session: ReadSession,
    user_id: UserIdPath,
    memory_id: RowIdPath,
    content: Annotated[str, Form(max_length=5000)] = "",
    importance: Annotated[str, Form()] = "",
    ttl_days: Annotated[str, Form()] = "",
) -> Response:
    try:
        change = MemoryEdit(
            content=content or None,
            importance=_whole_number(importance, "importance"),
            ttl_days=_whole_number(ttl_days, "ttl_days"),
        )
        result = edit_memory(user_id, memory_id, change)
    except EditError as exc:
        return _memory_page(page, session, user_id, memory_id, status=422, error=str(exc))
    if result is None:
        return page.render("not_found.html", status=404, user_id=user_id)
    if result.changed:
        enqueue_index_sync([memory_id])
    return _redirect(
        f"/inspector/users/{user_id}/memories/{memory_id}?done={'edited' if result.changed else 'unchanged'}"
    )


@router.post("/users/{user_id}/memories/{memory_id}/delete")
def delete(page: WriteForm, user_id: UserIdPath, memory_id: RowIdPath) -> Response:
    result = delete_memory(user_id, memory_id)
    if result is None:
        return page.render("not_found.html", status=404, user_id=user_id)
    if result.changed:
        enqueue_index_sync([memory_id])
    return _redirect(f"/inspector/users/{user_id}/memories/{memory_id}?done=deleted")


@router.get("/users/{user_id}/messages/{message_id}")
def message_page(page: LoggedIn, session: ReadSession, user_id: UserIdPath, message_id: RowIdPath) -> HTMLResponse:
    message = reads.user_message(session, user_id, message_id)
    if message is None:
        return page.render("not_found.html", status=404, user_id=user_id)
    return page.render(
        "message.html", user_id=user_id, message=message, changes=reads.message_history(session, user_id, message_id)
    )
