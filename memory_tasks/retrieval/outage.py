"""Log a failing dependency once when it breaks and once when it heals, not on every call."""

from __future__ import annotations

import logging
import threading
import time


class Outage:
    """The health of one dependency of the read path, shared by the threads of a process.

    `failed` warns only on the transition to failing, `recovered` informs only on the way
    back, so a chat server calling retrieval a thousand times during an outage logs twice.
    With `retry_sec`, `skip()` tells callers to leave the dependency alone for that long
    after a failure (a circuit breaker: no connect timeout paid on every reply).
    """

    def __init__(self, name: str, logger: logging.Logger) -> None:
        self.name = name
        self._logger = logger
        self._lock = threading.Lock()
        self._down = False
        self._retry_at = 0.0

    @property
    def down(self) -> bool:
        return self._down

    def skip(self) -> bool:
        """True while a recent failure says not to try the dependency yet."""
        return self._down and time.monotonic() < self._retry_at

    def failed(self, error: BaseException | str, retry_sec: float = 0.0, level: int = logging.WARNING) -> None:
        """Record a failure; logs only if the dependency was healthy until now."""
        with self._lock:
            self._retry_at = time.monotonic() + retry_sec
            if self._down:
                return
            self._down = True
        detail = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        self._logger.log(level, "%s unavailable: %s", self.name, detail, extra={"dependency": self.name})

    def recovered(self) -> None:
        """Record a success; logs only if the dependency was failing until now."""
        with self._lock:
            if not self._down:
                return
            self._down = False
        self._logger.info("%s available again", self.name, extra={"dependency": self.name})
