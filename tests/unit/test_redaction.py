"""The redaction helper on each shape of secret (issue 15 item 6); the error paths are in tests/integration/test_secrets.py."""

from __future__ import annotations

import pytest

from memory_tasks.redaction import redact, remember_secrets


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("redis://:pw-123456@cache:6379/0", "redis://:***@cache:6379/0"),
        ("amqp://guest:guest@127.0.0.1:5672//", "amqp://guest:***@127.0.0.1:5672//"),
        ("key sk-proj-AbCdEf0123456789 refused", "key *** refused"),
        ("Authorization: Bearer abc.def-ghi_123456", "Authorization: Bearer ***"),
        ('{"api_key": "k-0123456789"}', '{"api_key": "***"}'),
        ("GET /x?token=t0k3n-value&page=2", "GET /x?token=***&page=2"),
        ("prompt_tokens=11 completion_tokens=7", "prompt_tokens=11 completion_tokens=7"),
    ],
)
def test_redact_masks_each_shape_of_secret_and_nothing_else(raw: str, kept: str) -> None:
    """Issue 15 item 6: URL passwords, keys, bearer tokens and key=value credentials; counts stay."""
    assert redact(raw) == kept


def test_remembered_secrets_are_masked_whatever_their_shape() -> None:
    """Issue 15 item 6: a configured key not shaped like one, and a URL's password, by value."""
    remember_secrets("plain-value-of-a-key-991", "postgresql://app:odd~pw~771@db/app", "tok-aaaaaa,tok-bbbbbb")

    assert redact("echo: plain-value-of-a-key-991 / odd~pw~771 / tok-bbbbbb") == "echo: *** / *** / ***"
