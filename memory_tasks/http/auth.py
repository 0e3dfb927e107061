"""Who is calling: bearer tokens from the settings, compared in constant time and never logged.

Two roles: a chat server (any of MEMORY_API_TOKENS) and the operator
(MEMORY_API_ADMIN_TOKEN, who may also do everything a chat server may). With no token
configured and MEMORY_API_INSECURE_LOCAL, every caller is the operator; the service
then only starts bound to 127.0.0.1 (`startup_problem`) and only answers requests
addressed to a loopback name (a web page cannot reach it through DNS rebinding).
"""

from __future__ import annotations

import enum
import hmac
from dataclasses import dataclass

from config.settings import Settings

# A token is a secret only if it cannot be guessed: `make up` generates 43 characters.
MIN_TOKEN_CHARS = 16
LOOPBACK_HOST = "127.0.0.1"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


class Role(enum.IntEnum):
    CHAT = 1
    ADMIN = 2


@dataclass(frozen=True)
class AuthConfig:
    """The accepted tokens (as bytes, for `hmac.compare_digest`) and whether auth is off."""

    chat_tokens: tuple[bytes, ...]
    admin_token: bytes | None
    insecure_local: bool

    @classmethod
    def from_settings(cls, settings: Settings) -> AuthConfig:
        chat = tuple(
            token.strip().encode("utf-8")
            for token in settings.MEMORY_API_TOKENS.get_secret_value().split(",")
            if token.strip()
        )
        admin = settings.MEMORY_API_ADMIN_TOKEN.get_secret_value().strip().encode("utf-8") or None
        # Tokens, once configured, always apply: the insecure switch only covers "none at all".
        return cls(chat, admin, insecure_local=settings.MEMORY_API_INSECURE_LOCAL and not (chat or admin))

    def role_of(self, token: str | None) -> Role | None:
        """The role `token` grants, or None. Every configured token is compared, in constant time."""
        if self.insecure_local:
            return Role.ADMIN
        if not token:
            return None
        given = token.encode("utf-8")
        is_admin = self.admin_token is not None and hmac.compare_digest(given, self.admin_token)
        is_chat = False
        for candidate in self.chat_tokens:
            is_chat |= hmac.compare_digest(given, candidate)
        if is_admin:
            return Role.ADMIN
        return Role.CHAT if is_chat else None


def startup_problem(settings: Settings, host: str) -> str | None:
    """Why the service must not start with these settings on `host`, or None when it may."""
    config = AuthConfig.from_settings(settings)
    short = [
        name
        for name, tokens in (
            ("MEMORY_API_TOKENS", config.chat_tokens),
            ("MEMORY_API_ADMIN_TOKEN", (config.admin_token,) if config.admin_token else ()),
        )
        if any(len(t) < MIN_TOKEN_CHARS for t in tokens)
    ]
    if short:
        return f"{', '.join(short)}: every token must be at least {MIN_TOKEN_CHARS} characters"
    if config.chat_tokens or config.admin_token:
        return None
    if not settings.MEMORY_API_INSECURE_LOCAL:
        return (
            "no API token configured: set MEMORY_API_TOKENS (chat servers) and MEMORY_API_ADMIN_TOKEN (operator), "
            "or MEMORY_API_INSECURE_LOCAL=true to run without auth on 127.0.0.1 (make up generates tokens into .env)"
        )
    if host != LOOPBACK_HOST:
        return f"MEMORY_API_INSECURE_LOCAL=true serves without auth and so only on {LOOPBACK_HOST}, not on {host}"
    return None
