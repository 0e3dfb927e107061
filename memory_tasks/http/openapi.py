"""The committed OpenAPI document: `python -m memory_tasks.http.openapi [--check]` (make openapi).

docs/openapi.json is an artefact chat-server authors read and generate clients from; a
test fails when the live app's document differs from it, so it never goes stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from config.settings import Settings
from memory_tasks.http.app import create_app

SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"


def live_spec() -> dict[str, Any]:
    """The OpenAPI document of the app (it depends on no setting, so any settings do)."""
    return create_app(Settings()).openapi()


def render(spec: dict[str, Any]) -> str:
    return json.dumps(spec, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memory_tasks.http.openapi", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed document is out of date")
    args = parser.parse_args(argv)
    text = render(live_spec())
    if args.check:
        current = SPEC_PATH.read_text() if SPEC_PATH.exists() else ""
        if current != text:
            print(f"{SPEC_PATH} is out of date: run `make openapi`", file=sys.stderr)
            return 1
        print(f"{SPEC_PATH} is up to date")
        return 0
    SPEC_PATH.write_text(text)
    print(f"wrote {SPEC_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
