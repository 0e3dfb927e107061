"""The layers point one way (issue 10; R-PIPE-1): read from the source with `ast`, imports inside
functions included, so a lazy import cannot hide a dependency."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tests.conftest import PROJECT_ROOT

PACKAGES = ("memory_tasks", "config", "schedules")


@cache
def _modules() -> dict[str, Path]:
    """Every module of the project by dotted name (a package by its __init__)."""
    modules = {}
    for package in PACKAGES:
        for path in (PROJECT_ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported(path: Path, *, anywhere: bool = True) -> set[str]:
    """The project modules `path` imports; `anywhere=False`: only those at module level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree) if anywhere else tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            # `from memory_tasks import dispatch` imports the module memory_tasks.dispatch.
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name in _modules()}


def _files(*roots: str) -> Iterator[Path]:
    for root in roots:
        path = PROJECT_ROOT / root
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def _violations(roots: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    """'file -> module' for every import in `roots` of a module in (or under) `forbidden`."""
    return [
        f"{path.relative_to(PROJECT_ROOT)} -> {module}"
        for path in _files(*roots)
        for module in sorted(_imported(path))
        if any(module == name or module.startswith(name + ".") for name in forbidden)
    ]


def test_the_faces_never_import_the_tasks() -> None:
    """API, tools, retrieval and the CLI enqueue through memory_tasks.dispatch, by name."""
    faces = ("memory_tasks/api.py", "memory_tasks/tools.py", "memory_tasks/retrieval", "memory_tasks/__main__.py")
    assert _violations(faces, ("memory_tasks.tasks",)) == []


def test_the_faces_really_load_no_task_module() -> None:
    """What a chat server imports sends work without loading the workers' code (no circle to dodge)."""
    code = (
        "import sys, memory_tasks.api, memory_tasks.tools, memory_tasks.retrieval, memory_tasks.dispatch\n"
        "print(sorted(m for m in sys.modules if m.startswith('memory_tasks.tasks')))"
    )
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}  # run from the tests' cwd: no developer .env
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    assert result.stdout.strip() == "[]"


def test_retrieval_never_imports_the_api() -> None:
    assert _violations(("memory_tasks/retrieval",), ("memory_tasks.api",)) == []


def test_the_tools_never_import_the_api() -> None:
    assert _violations(("memory_tasks/tools.py",), ("memory_tasks.api",)) == []


def test_the_write_model_and_the_tools_never_import_the_stage_functions() -> None:
    assert _violations(("memory_tasks/memories", "memory_tasks/tools.py"), ("memory_tasks.pipeline",)) == []


def test_db_imports_nothing_above_it() -> None:
    forbidden = ("memory_tasks.memories", "memory_tasks.vectors", "memory_tasks.extraction", "memory_tasks.retrieval")
    assert _violations(("memory_tasks/db",), forbidden) == []


def test_extraction_never_touches_the_database_or_the_write_model() -> None:
    assert _violations(("memory_tasks/extraction",), ("memory_tasks.db", "memory_tasks.memories")) == []


def test_the_bottom_modules_import_nothing_of_the_project() -> None:
    """Task names, the error taxonomy, the metrics and the redaction helper may be used by every layer, config included."""
    for module in (
        "memory_tasks/task_names.py",
        "memory_tasks/errors.py",
        "memory_tasks/metrics.py",
        "memory_tasks/redaction.py",
    ):
        assert _imported(PROJECT_ROOT / module) == set(), module


def test_there_is_no_import_circle() -> None:
    """Module-level imports form no cycle (a package's own __init__ importing its modules aside)."""
    graph = {name: _imported(path, anywhere=False) - {name} for name, path in _modules().items()}
    done: set[str] = set()

    def cycle_from(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for imported in sorted(graph[name]):
            found = cycle_from(imported, [*path, name])
            if found:
                return found
        done.add(name)
        return None

    for name in sorted(graph):
        assert cycle_from(name, []) is None
