"""`make eval-extraction MODEL=…` against an OpenAI-compatible server (issue 13.6): the local stub only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import eval_extraction
from config.settings import get_settings
from tests.fake_openai import FakeOpenAI, as_json, text

TURNS = [
    {"id": "t1", "lang": "zh", "text": "我住在武汉", "expected": [{"memory_type": "fact", "facts": ["武汉"]}]},
    {"id": "t2", "lang": "en", "text": "I love jazz.", "expected": [{"memory_type": "preference", "facts": ["jazz"]}]},
    {"id": "t3", "lang": "en", "text": "What time is it?", "expected": []},
]
ANSWERS = {
    "我住在武汉": {
        "candidates": [{"op": "upsert", "memory_type": "fact", "key": "residence-city", "content": "住在武汉"}]
    },
    "I love jazz.": {"candidates": [{"op": "upsert", "memory_type": "fact", "key": "music", "content": "Loves jazz"}]},
}


def test_a_named_model_is_measured_per_type_and_language_with_calls_tokens_and_latency(
    fake_openai: FakeOpenAI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "turns.jsonl"
    data.write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in TURNS), encoding="utf-8")

    def answer(body: dict) -> object:
        user = body["messages"][-1]["content"]
        for message, value in ANSWERS.items():
            if message in user:
                return as_json(value, prompt_tokens=100, completion_tokens=20)
        return text("I am not sure what you mean", prompt_tokens=100, completion_tokens=20)  # no JSON at all

    fake_openai.default = answer
    fake_openai.rejects_json_schema = True  # like a server without structured output
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "")
    monkeypatch.setenv("LONG_TERM_MEMORY_ENGINE", "auto")
    get_settings.cache_clear()
    try:
        eval_extraction.main(["--data", str(data), "--model", "my-local-model"])
    finally:
        get_settings.cache_clear()
    out = capsys.readouterr().out
    assert "== model my-local-model at " + fake_openai.base_url in out
    assert {body["model"] for body in fake_openai.requests} == {"my-local-model"}
    # One call per turn, whatever the splits, plus the one json_schema request the server refused.
    assert len(fake_openai.requests) == len(TURNS) + 1
    first_split = out.split("\n== ")[1].splitlines()  # the "all" split
    rows = {" ".join(line.split()[:2]) if line.startswith("lang") else line.split()[0]: line for line in first_split}
    assert rows["fact"].split()[1:3] == ["0.500", "1.000"]  # precision, recall: the jazz "fact" is wrong
    assert rows["preference"].split()[1:3] == ["1.000", "0.000"]  # and the preference is missed
    assert rows["lang zh"].split()[2:4] == ["1.000", "1.000"]
    assert "model calls 3, tokens 300 prompt + 60 completion, latency ms p50" in out
    assert "response format json_object 3" in out  # the schema was refused once, then JSON mode
    assert "failed turns 1" in out  # the answer without JSON: counted as producing nothing
