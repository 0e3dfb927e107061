"""The inspector's login session: a signed, expiring cookie that carries the CSRF token of its forms.

The cookie is `<payload>.<signature>`: payload = base64url JSON {exp, csrf}, signature =
HMAC-SHA256 under a key derived from the admin token, so changing the token logs every
session out. It is HttpOnly (no script reads it), SameSite=Strict (no other site's page
sends it) and limited to /inspector. Every form that writes carries the session's CSRF
token, checked in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass

COOKIE_NAME = "mt_inspector"
COOKIE_PATH = "/inspector"
SESSION_SECONDS = 8 * 3600
_KEY_LABEL = b"memory_tasks inspector session v1"


@dataclass(frozen=True)
class InspectorSession:
    csrf: str
    expires: int


class SessionSigner:
    """Issues and verifies session cookies under one key."""

    def __init__(self, admin_token: bytes | None) -> None:
        # Without an admin token (insecure local mode) sessions end when the process does.
        secret = admin_token or secrets.token_bytes(32)
        self._key = hmac.new(secret, _KEY_LABEL, hashlib.sha256).digest()

    def _sign(self, payload: bytes) -> str:
        return _b64(hmac.new(self._key, payload, hashlib.sha256).digest())

    def issue(self, now: float | None = None) -> tuple[str, InspectorSession]:
        """A new session and the cookie value that carries it."""
        session = InspectorSession(csrf=secrets.token_urlsafe(32), expires=int((now or time.time()) + SESSION_SECONDS))
        payload = _b64(json.dumps({"exp": session.expires, "csrf": session.csrf}).encode()).encode()
        return f"{payload.decode()}.{self._sign(payload)}", session

    def verify(self, cookie: str | None, now: float | None = None) -> InspectorSession | None:
        """The session in `cookie`, or None when it is missing, forged, malformed or expired."""
        if not cookie or cookie.count(".") != 1:
            return None
        payload, signature = cookie.split(".")
        if not hmac.compare_digest(self._sign(payload.encode()), signature):
            return None
        try:
            data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            session = InspectorSession(csrf=str(data["csrf"]), expires=int(data["exp"]))
        except (ValueError, KeyError, TypeError):
            return None
        return session if session.expires > (now or time.time()) else None


def csrf_matches(session: InspectorSession, submitted: str | None) -> bool:
    return bool(submitted) and hmac.compare_digest(session.csrf.encode(), submitted.encode("utf-8", "replace"))


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
