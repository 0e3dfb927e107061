"""LoCoMo's turns for the pipeline benchmark, and a chat model that answers with LoCoMo's own facts.

Each LoCoMo conversation has two speakers; each turn is said by one of them. The model is
served by the test suite's OpenAI-compatible stub (`tests.fake_openai.FakeOpenAI`) on
127.0.0.1 and plays both pipeline calls:
- extract (the request holds `<user_message>`, one per turn of a debounce window): the
  observation facts LoCoMo attaches to each turn (`observation.session_N_observation`
  entries citing its dia_id), as upsert candidates of type fact saying their `turn`, or no
  candidate when the turns have none;
- refine (the request lists `candidates`): "keep" for every candidate;
- anything else (consolidation): nothing to change.
Every call is recorded with its purpose, time, the texts it was about and the turns they
came from, so calls can be counted per turn; `delay` seconds pass before each answer (the
slow model).
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import dialog_ids
from tests.fake_openai import FakeOpenAI, Reply, as_json


@dataclass(frozen=True)
class Turn:
    conversation: int  # index in locomo10.json
    session: int
    dialog_id: str
    speaker: int  # 0 speaker_a, 1 speaker_b
    text: str
    facts: tuple[str, ...]  # observation facts citing this turn


def load_turns(path: Path, conversations: int, max_turns: int | None) -> list[list[Turn]]:
    """The first `conversations` conversations, each its turns in order (the first `max_turns`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    result = []
    for index, sample in enumerate(data[:conversations]):
        conversation = sample["conversation"]
        speakers = (conversation["speaker_a"], conversation["speaker_b"])
        facts: dict[str, list[str]] = {}
        for observations in sample["observation"].values():
            for speaker_facts in observations.values():
                for fact, raw_ids in speaker_facts:
                    for dialog_id in dialog_ids(raw_ids):
                        facts.setdefault(dialog_id, []).append(fact)
        sessions = sorted(
            (int(key.removeprefix("session_")), turns)
            for key, turns in conversation.items()
            if key.startswith("session_") and isinstance(turns, list)
        )
        turns = [
            Turn(
                conversation=index,
                session=number,
                dialog_id=turn["dia_id"],
                speaker=speakers.index(turn["speaker"]),
                text=turn["text"].strip(),
                facts=tuple(facts.get(turn["dia_id"], ())),
            )
            for number, session_turns in sessions
            for turn in session_turns
            if turn.get("text", "").strip()
        ]
        result.append(turns[:max_turns] if max_turns else turns)
    return result


_USER_MESSAGE = re.compile(r"<user_message>\n(.*?)\n</user_message>", re.DOTALL)
REFINE_TAIL = "\n\nAnswer with the JSON object"
# The word of the retrieval-only write's keys (`bench_retrieval.write_locomo`: observation-<n>), so the two
# sides of the oracle benchmark carry the same key noise into the index text (a hash in the key cost recall).
KEY_PREFIX = "observation-"


@dataclass(frozen=True)
class Call:
    at: float  # time.time() when the request arrived
    purpose: str  # extract, refine or other
    texts: tuple[str, ...]  # extract: the user message(s) of the window; refine: the candidates' contents
    # The texts of the turns the call is about: extract: every turn of the window (one call
    # serves them all); refine: the turns whose candidates it lists, known by their keys.
    turns: tuple[str, ...] = ()


class LocomoModel:
    """The responder of a FakeOpenAI: LoCoMo's facts for extract, keep for refine (see module doc)."""

    def __init__(self, conversations: list[list[Turn]]) -> None:
        self.facts_of: dict[str, list[str]] = {}
        for turns in conversations:
            for turn in turns:
                self.facts_of.setdefault(turn.text, []).extend(turn.facts)
        # One key per proposed fact, numbered in order: (turn text, fact number) -> key, and back to the turn.
        self._keys: dict[tuple[str, int], str] = {}
        self._turn_of_key: dict[str, str] = {}
        for text, facts in self.facts_of.items():
            for number in range(len(facts)):
                key = f"{KEY_PREFIX}{len(self._keys)}"
                self._keys[(text, number)] = key
                self._turn_of_key[key] = text
        self.delay = 0.0
        self.calls: list[Call] = []
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        content = str(body["messages"][-1]["content"])
        # One turn, or a debounce window of several (issue 16): the facts of each of them.
        texts = tuple(found.strip() for found in _USER_MESSAGE.findall(content))
        if texts:
            self._record("extract", texts, texts)
            candidates = [
                {**observation_candidate(self.key_of(text, number), fact), "turn": position}
                for position, text in enumerate(texts, 1)
                for number, fact in enumerate(self.facts_of.get(text, []))
            ]
            return as_json({"candidates": candidates}, delay=self.delay)
        if REFINE_TAIL in content:
            proposed = json.loads(content.rsplit(REFINE_TAIL, 1)[0])["candidates"]
            turns = (self.turn_of_key(str(c["key"])) for c in proposed)
            self._record("refine", tuple(c["content"] for c in proposed), tuple(dict.fromkeys(t for t in turns if t)))
            return as_json(
                {"decisions": [{"index": c["index"], "action": "keep", "target_key": None} for c in proposed]},
                delay=self.delay,
            )
        self._record("other", ())
        return as_json({"decisions": [], "candidates": []}, delay=self.delay)

    def key_of(self, text: str, number: int) -> str:
        """The key of the `number`-th fact proposed for the turn saying `text`."""
        return self._keys[(text, number)]

    def turn_of_key(self, key: str) -> str | None:
        """The text of the turn whose candidate has this key (`key_of`), or None."""
        return self._turn_of_key.get(key)

    def _record(self, purpose: str, texts: tuple[str, ...], turns: tuple[str, ...] = ()) -> None:
        with self._lock:
            self.calls.append(Call(time.time(), purpose, texts, turns))

    def calls_between(self, start: float, end: float) -> list[Call]:
        with self._lock:
            return [call for call in self.calls if start <= call.at <= end]


def observation_candidate(key: str, fact: str) -> dict[str, Any]:
    """One extraction candidate for `fact` under `key` (`LocomoModel.key_of`: no two facts share a slot)."""
    return {
        "op": "upsert",
        "memory_type": "fact",
        "key": key,
        "content": fact,
        "importance": 3,
        "confidence": 0.9,
        "ttl_days": None,
        "reason": "LoCoMo observation of this turn",
    }


def serve(model: LocomoModel) -> FakeOpenAI:
    """The stub server answering with `model`, started, with Nagle's algorithm off.

    The test stub writes headers and body in two sends; with Nagle on, the client's delayed
    ACK holds the second for ~40 ms, which would make the "instant" model a 45 ms one.
    """
    server = FakeOpenAI(default=model)
    handler = server._server.RequestHandlerClass
    server._server.RequestHandlerClass = type("NoDelayHandler", (handler,), {"disable_nagle_algorithm": True})
    return server.start()
