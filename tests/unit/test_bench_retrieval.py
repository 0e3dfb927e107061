"""The retrieval benchmark's recall counts what LoCoMo says (issue 13 item 5's figures)."""

from __future__ import annotations

import json

from bench.bench_retrieval import Question, load_locomo, recall


def test_a_fact_naming_several_dialogs_is_a_hit_for_each_of_them(tmp_path) -> None:
    """Issue 13.5: LoCoMo gives some observation facts a list of dialog ids; each one is evidence
    (they were read as the text "['D1:2', 'D1:3']", which matched no question)."""
    sample = {
        "observation": {
            "session_1_observation": {
                "Ann": [["Ann adopted a cat named Luna.", ["D1:2", "D1:3"]], ["Ann lives in Oslo.", "D1:5"]]
            }
        },
        "qa": [
            {"question": "What is Ann's cat called?", "evidence": ["D1:3"], "category": 4},
            {"question": "Where does Ann live?", "evidence": ["D1:5"], "category": 4},
        ],
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")

    locomo = load_locomo(path)
    (facts,) = locomo.facts.values()
    assert [dialogs for _, dialogs in facts] == [frozenset({"D1:2", "D1:3"}), frozenset({"D1:5"})]
    cat, city = locomo.questions
    ranked_for_cat = [facts[1][1], facts[0][1]]  # the cat fact second
    assert recall([ranked_for_cat], [cat])[1] == 0.0
    assert recall([ranked_for_cat], [cat])[3] == 1.0
    assert recall([[facts[0][1]]], [Question(city.user_id, city.text, city.evidence, 4)])[1] == 0.0
