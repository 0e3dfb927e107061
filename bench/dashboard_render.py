"""Render docs/grafana-dashboard.json's panels from scraped samples into a PNG (no Grafana needed).

    python -m bench.dashboard_render [--samples var/dashboard/samples.json] [--output docs/grafana-dashboard.png]

Each panel's PromQL targets are evaluated over the samples of `bench.dashboard_run` by a
small evaluator of exactly the forms the dashboard uses (anything else is an error, so the
picture never shows a query it did not run):

    AGG [by (labels)] (SELECTOR)                 AGG: sum, max, min
    AGG [by (labels)] (rate(SELECTOR[Ns|Nm]))
    histogram_quantile(Q, sum by (le[, labels]) (rate(NAME_bucket[W])))

SELECTOR is a series name with optional `label="v"` / `label!="v"` matchers. `rate` is the
increase between the first and the last sample inside the window, per second (Prometheus
also extrapolates to the window's edges; this does not). Panels keep their grid position.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the backend

ROOT = Path(__file__).resolve().parent.parent
DASHBOARD = ROOT / "docs" / "grafana-dashboard.json"
DEFAULT_SAMPLES = ROOT / "var" / "dashboard" / "samples.json"
DEFAULT_OUTPUT = ROOT / "docs" / "grafana-dashboard.png"

_QUANTILE = re.compile(r"histogram_quantile\(\s*([0-9.]+)\s*,\s*(.+)\)$")
_AGGREGATE = re.compile(r"(sum|max|min)\s*(?:by\s*\(([^)]*)\))?\s*\((.+)\)$")
_RATE = re.compile(r"rate\((.+)\[(\d+)([sm])\]\)$")
_SELECTOR = re.compile(r"([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?$")
_MATCHER = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*(!=|=)\s*"([^"]*)"\s*')
AGGREGATIONS: dict[str, Callable[[list[float]], float]] = {"sum": sum, "max": max, "min": min}

Labels = tuple[tuple[str, str], ...]
Series = dict[Labels, list[tuple[float, float]]]  # labels -> [(time, value)], one per scrape round


@dataclass(frozen=True)
class Samples:
    """The scraped samples: `times` are the scrape rounds, `series[name][labels]` the points (target kept as a label)."""

    times: list[float]
    series: dict[str, Series]

    @classmethod
    def load(cls, path: Path) -> Samples:
        series: dict[str, Series] = defaultdict(lambda: defaultdict(list))
        times: set[float] = set()
        for sample in json.loads(path.read_text()):
            labels = tuple(sorted({**sample["labels"], "target": sample["target"]}.items()))
            series[sample["name"]][labels].append((sample["t"], sample["value"]))
            times.add(sample["t"])
        return cls(sorted(times), series)


class UnsupportedQuery(ValueError):
    """A PromQL expression outside the forms this evaluator knows."""


def _select(samples: Samples, selector: str) -> Series:
    found = _SELECTOR.fullmatch(selector.strip())
    if not found:
        raise UnsupportedQuery(selector)
    name, matchers = found.group(1), found.group(2) or ""
    conditions = [_MATCHER.fullmatch(part) for part in matchers.split(",") if part.strip()]
    if not all(conditions):
        raise UnsupportedQuery(selector)

    def wanted(labels: Labels) -> bool:
        values = dict(labels)
        return all((values.get(c[1], "") == c[3]) == (c[2] == "=") for c in conditions if c)

    return {labels: points for labels, points in samples.series.get(name, {}).items() if wanted(labels)}


def _rate(points: list[tuple[float, float]], at: float, window: float) -> float | None:
    inside = [(t, v) for t, v in points if at - window <= t <= at]
    if len(inside) < 2 or inside[-1][0] == inside[0][0]:
        return None
    increase = inside[-1][1] - inside[0][1]
    if increase < 0:  # a counter reset (a restarted worker): count from zero
        increase = inside[-1][1]
    return increase / (inside[-1][0] - inside[0][0])


def _instant(points: list[tuple[float, float]], at: float) -> float | None:
    for t, v in reversed(points):
        if t <= at:
            return v if at - t < 30 else None
    return None


def evaluate(samples: Samples, expr: str) -> dict[Labels, list[float]]:
    """{result labels: value at each of `samples.times` (NaN where none)} of one expression."""
    expr = expr.strip()
    quantile = _QUANTILE.fullmatch(expr)
    if quantile:
        buckets = evaluate(samples, quantile.group(2))
        return _quantiles(float(quantile.group(1)), buckets, len(samples.times))
    aggregate = _AGGREGATE.fullmatch(expr)
    if not aggregate:
        raise UnsupportedQuery(expr)
    how, by, inner = aggregate.group(1), aggregate.group(2), aggregate.group(3)
    keep = [name.strip() for name in (by or "").split(",") if name.strip()]
    rate = _RATE.fullmatch(inner.strip())
    if rate:
        window = int(rate.group(2)) * (60 if rate.group(3) == "m" else 1)
        series = _select(samples, rate.group(1))
        value_at: Callable[[list[tuple[float, float]], float], float | None] = lambda p, t: _rate(p, t, window)  # noqa: E731
    else:
        series = _select(samples, inner)
        value_at = _instant
    result: dict[Labels, list[float]] = {}
    for index, at in enumerate(samples.times):
        groups: dict[Labels, list[float]] = defaultdict(list)
        for labels, points in series.items():
            value = value_at(points, at)
            if value is not None:
                groups[tuple((k, v) for k, v in labels if k in keep)].append(value)
        for group, values in groups.items():
            result.setdefault(group, [math.nan] * len(samples.times))[index] = AGGREGATIONS[how](values)
    return result


def _quantiles(q: float, buckets: dict[Labels, list[float]], length: int) -> dict[Labels, list[float]]:
    """histogram_quantile: linear interpolation inside the bucket holding rank q * total, as Prometheus does."""
    by_group: dict[Labels, list[tuple[float, list[float]]]] = defaultdict(list)
    for labels, values in buckets.items():
        le = dict(labels).get("le")
        if le is None:
            raise UnsupportedQuery("histogram_quantile needs `le` among the by() labels")
        by_group[tuple((k, v) for k, v in labels if k != "le")].append((float(le), values))
    result = {}
    for group, bounds in by_group.items():
        bounds.sort()
        series = []
        for index in range(length):
            counts = [(le, values[index]) for le, values in bounds if not math.isnan(values[index])]
            series.append(_quantile(q, counts))
        result[group] = series
    return result


def _quantile(q: float, counts: list[tuple[float, float]]) -> float:
    if not counts or counts[-1][1] <= 0:
        return math.nan
    rank = q * counts[-1][1]
    lower_bound, lower_count = 0.0, 0.0
    for le, count in counts:
        if count >= rank:
            if math.isinf(le):
                return lower_bound
            if count == lower_count:
                return le
            return lower_bound + (le - lower_bound) * (rank - lower_count) / (count - lower_count)
        lower_bound, lower_count = le, count
    return lower_bound


def _legend(template: str, labels: Labels) -> str:
    values = dict(labels)
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: values.get(m.group(1), ""), template).strip() or "value"


def render(dashboard: dict[str, Any], samples: Samples, output: Path) -> None:
    """Draw every panel at its grid position (24 columns) and write the PNG."""
    panels = dashboard["panels"]
    rows = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p in panels)
    plt.style.use("dark_background")
    figure = plt.figure(figsize=(24, rows * 0.62), dpi=80)
    grid = figure.add_gridspec(rows, 24, hspace=12, wspace=3, top=0.95)
    start = samples.times[0]
    minutes = [(t - start) / 60 for t in samples.times]
    for panel in panels:
        pos = panel["gridPos"]
        axes = figure.add_subplot(grid[pos["y"] : pos["y"] + pos["h"], pos["x"] : pos["x"] + pos["w"]])
        axes.set_title(panel["title"], fontsize=12, loc="left")
        for target in panel["targets"]:
            for labels, values in sorted(evaluate(samples, target["expr"]).items()):
                axes.plot(minutes, values, linewidth=1.4, label=_legend(target.get("legendFormat", ""), labels))
        unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit", "")
        axes.set_xlabel("minutes into the run", fontsize=8)
        axes.set_ylabel({"s": "seconds", "ops": "per second"}.get(unit, ""), fontsize=8)
        axes.set_ylim(bottom=0)
        axes.tick_params(labelsize=8)
        axes.grid(alpha=0.2)
        if axes.lines:
            axes.legend(fontsize=7, loc="upper left", ncol=2, framealpha=0.3)
    figure.suptitle(f"{dashboard['title']}: rendered by bench/dashboard_render.py from a real run", fontsize=15, y=0.98)
    output.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(output, bbox_inches="tight")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.dashboard_render", description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=Path, default=DEFAULT_SAMPLES)
    parser.add_argument("--dashboard", type=Path, default=DASHBOARD)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if not args.samples.is_file():
        parser.error(f"--samples: no such file {args.samples} (run python -m bench.dashboard_run first)")
    render(json.loads(args.dashboard.read_text()), Samples.load(args.samples), args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
