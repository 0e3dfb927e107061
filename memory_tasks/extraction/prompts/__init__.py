"""The LLM prompts, as versioned files of the project (R-LLM-3).

A prompt lives in `<name>.v<N>.md` next to this module. Changing a prompt's meaning means
adding `<name>.v<N+1>.md`, so a prompt's `ref` (e.g. "extract.v1") always names one exact
text. The ref is not stored with the memories a prompt produced: their history records the
source (extraction, tool, consolidate, expiry), not the prompt version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PROMPT_DIR = Path(__file__).resolve().parent
_FILE_NAME = re.compile(r"^(?P<name>[a-z][a-z0-9_-]*)\.v(?P<version>\d+)\.md$")


@dataclass(frozen=True)
class Prompt:
    """A prompt's text and where it came from."""

    name: str
    version: int
    text: str

    @property
    def ref(self) -> str:
        """The prompt's name and version, e.g. "extract.v1": one name for one exact text."""
        return f"{self.name}.v{self.version}"


class PromptNotFound(LookupError):
    """No prompt file of that name (and version)."""


@cache
def load_prompt(name: str, version: int | None = None) -> Prompt:
    """The prompt `name` at `version`, or at its highest version when `version` is None.

    Raises PromptNotFound when no such file exists.
    """
    versions = {
        int(match["version"]): path
        for path in PROMPT_DIR.glob(f"{name}.v*.md")
        if (match := _FILE_NAME.match(path.name)) and match["name"] == name
    }
    if not versions:
        raise PromptNotFound(f"no prompt named {name!r} in {PROMPT_DIR}")
    chosen = max(versions) if version is None else version
    if chosen not in versions:
        raise PromptNotFound(f"prompt {name!r} has no version {chosen} (have {sorted(versions)})")
    text = versions[chosen].read_text(encoding="utf-8").strip()
    return Prompt(name=name, version=chosen, text=text)
