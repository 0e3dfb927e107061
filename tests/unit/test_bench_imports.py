"""Importing a bench module for its functions leaves the process' environment as it was.

Unit tests import bench scripts; pytest-xdist imports every test module at collection, and a module-scoped
`worker` fixture starts its subprocess before the function-scoped `run_environment` can repair anything.
When bench_retrieval/bench_oracle/bench_write pointed os.environ at an in-memory broker at import, the
first worker started after collection got `memory://` and every test of its module timed out.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import bench
from tests.conftest import PROJECT_ROOT

# pymilvus copies a project .env (from `make up`) into os.environ when first imported: that is not a bench's doing.
PROBE = """
import importlib, json, os, sys
import pymilvus
before = dict(os.environ)
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(key for key in set(before) | set(os.environ) if before.get(key) != os.environ.get(key))))
"""


def test_importing_any_bench_module_changes_no_environment_variable() -> None:
    modules = [f"bench.{module.name}" for module in pkgutil.iter_modules(bench.__path__)]
    assert "bench.bench_retrieval" in modules and "bench.in_process" in modules
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *modules],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(done.stdout.splitlines()[-1]) == []
