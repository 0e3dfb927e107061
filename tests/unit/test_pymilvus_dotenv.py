"""pymilvus copies a .env into os.environ when imported; importing memory_tasks takes it back (SPEC §9 settings)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT_ROOT

# python-dotenv finds the .env above pymilvus' installed folder; pointed at a file of the test instead.
PROBE = """
import os, sys
import dotenv.main
dotenv.main.find_dotenv = lambda *args, **kwargs: sys.argv[1]
{first_import}
from config.settings import get_settings
print(os.environ.get("MT_DOTENV_PROBE"), get_settings().LONG_TERM_MEMORY_DEBOUNCE_SEC)
"""


def _run(tmp_path: Path, first_import: str) -> list[str]:
    stray = tmp_path / "chat-server.env"
    stray.write_text("MT_DOTENV_PROBE=leaked\nLONG_TERM_MEMORY_DEBOUNCE_SEC=2\n")
    ours = tmp_path / "memory.env"
    ours.write_text("LONG_TERM_MEMORY_DEBOUNCE_SEC=7\n")
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(first_import=first_import), str(stray)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT), "MEMORY_ENV_FILE": str(ours)},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_a_stray_env_file_never_overrides_the_settings_file(tmp_path: Path) -> None:
    """A chat server's .env found by pymilvus' import must not outrank MEMORY_ENV_FILE (the environment wins)."""
    assert _run(tmp_path, "import memory_tasks.vectors.milvus_store") == ["None", "7.0"]


def test_the_probe_sees_the_copy_when_pymilvus_comes_first(tmp_path: Path) -> None:
    """The case the package cannot undo, and the proof that the probe above can fail: pymilvus imported first."""
    assert _run(tmp_path, "import pymilvus\nimport memory_tasks.vectors.milvus_store") == ["leaked", "2.0"]
