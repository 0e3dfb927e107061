"""What a switch gives up ends the held memory that names it (issue 13.1, R-WRITE-2; session 42's held-out bursts:
"I quit aerial silks and started taking salsa dance classes instead" was dropped, "I dropped the GRE, I'm taking the
GMAT instead" stood beside the GRE goal, 「我不练泰拳了，改玩桨板了」 beside the Muay Thai)."""

from __future__ import annotations

import pytest

from config.settings import DEFAULT_NOISE_KEY_PATTERNS
from memory_tasks.extraction.rules import RulesEngine
from memory_tasks.extraction.rules.given_up import GIVEN_UP
from memory_tasks.extraction.types import ExistingMemory, TurnContext

ENGINE = RulesEngine(DEFAULT_NOISE_KEY_PATTERNS)


def written(message: str, held: list[ExistingMemory]) -> list[tuple[str, str, str]]:
    """(op, target key, content) of what the engine writes for `message` to a user holding `held`."""
    candidates = ENGINE.refine(ENGINE.extract(TurnContext(message=message)), held)
    return [(c.op, c.target_key, c.content) for c in candidates]


SILKS = ExistingMemory(1, "said-aerial-silks-twice-week", "fact", "Does aerial silks twice a week")
GRE = ExistingMemory(2, "goal-gre", "goal", "Is studying for the GRE")
MUAY_THAI = ExistingMemory(3, "sport-muay-thai", "preference", "在练泰拳")
MEDITERRANEAN = ExistingMemory(4, "diet-mediterranean", "fact", "Is following a Mediterranean diet")


def test_a_switch_no_rule_reads_the_new_side_of_rewrites_the_held_memory_it_names() -> None:
    """Nothing reads "started taking salsa dance classes": the held memory takes the sentence as its new value."""
    assert written("I quit aerial silks and started taking salsa dance classes instead.", [SILKS]) == [
        ("upsert", SILKS.key, "Quit aerial silks and started taking salsa dance classes instead")
    ]


@pytest.mark.parametrize(
    ("message", "held", "new_key"),
    [
        ("I dropped the GRE, I'm taking the GMAT instead.", GRE, "said-dropped-gre-taking-gmat-instead"),
        ("我不练泰拳了，改玩桨板了。", MUAY_THAI, None),
        ("泰拳不练了，现在改练瑜伽。", MUAY_THAI, "sport-yoga"),
    ],
)
def test_a_switch_whose_new_side_a_rule_reads_ends_the_held_memory(
    message: str, held: ExistingMemory, new_key: str | None
) -> None:
    """The new side is written under its own key and the held memory that names what was given up goes."""
    done = {(op, key) for op, key, _ in written(message, [held])}
    assert ("delete", held.key) in done
    assert new_key is None or ("upsert", new_key) in done


def test_a_diet_named_as_one_is_the_only_safety_fact_a_switch_ends() -> None:
    message = "I've dropped the Mediterranean diet and switched to a whole-food plant-based diet instead."
    assert [(op, key) for op, key, _ in written(message, [MEDITERRANEAN])] == [("upsert", MEDITERRANEAN.key)]
    low_sugar = ExistingMemory(5, "diet-low-sugar", "fact", "Avoids sugar")
    allergy = ExistingMemory(6, "allergy-sugar", "fact", "Is allergic to sugar")
    for held in (low_sugar, allergy):
        assert written("I quit sugar and eat honey instead.", [held]) == []


@pytest.mark.parametrize(
    "held",
    [
        # Someone else's fact, or two memories naming it: not the user's one thing given up.
        [ExistingMemory(1, "family-siblings", "fact", "Sister teaches aerial silks")],
        [SILKS, ExistingMemory(7, "said-aerial-silks-studio", "fact", "Rents an aerial silks studio every Sunday")],
        # Nothing held names it.
        [ExistingMemory(1, "sport-running", "preference", "Runs every morning")],
    ],
)
def test_a_switch_ends_nothing_but_the_one_memory_of_the_users_naming_it(held: list[ExistingMemory]) -> None:
    """With `SILKS` alone held, the same sentence rewrites it (the first test)."""
    assert written("I quit aerial silks and started boxing instead.", held) == []


@pytest.mark.parametrize(
    "message",
    [
        # Nothing said replaced it: the rules' own retirements decide ("I quit going to the gym" ends sport-gym).
        "I quit yoga.",
        "I quit going to the gym.",
        "I quit aerial silks.",
        "I dropped the GRE.",
        # A question, or someone else's switch.
        "Should I quit yoga and start boxing instead?",
        "My sister quit yoga and started boxing instead.",
    ],
)
def test_only_the_users_own_switch_with_its_new_side_said_is_a_switch(message: str) -> None:
    assert not [c for c in ENGINE.extract(TurnContext(message=message)) if GIVEN_UP in c.extra]


def test_the_switch_starts_at_the_clause_that_gives_up() -> None:
    """「跟你说个好消息，…」 before it says nothing of the job; the sentence from 「不开地铁了」 on is its new value."""
    held = ExistingMemory(1, "occupation", "fact", "职业：地铁司机")
    message = "跟你说个好消息，我不开地铁了，现在在控制中心当行车调度。"
    assert written(message, [held]) == [("upsert", "occupation", "不开地铁了，现在在控制中心当行车调度")]


def test_what_a_rule_already_ends_is_ended_once() -> None:
    """ "I switched from VS Code to Neovim": the rules' switch ends the editor held; the switch's own search finds the
    same memory and adds no second delete."""
    vscode = ExistingMemory(1, "preference-vs-code", "preference", "Uses VS Code")
    assert [(op, key) for op, key, _ in written("I switched from VS Code to Neovim.", [vscode])] == [
        ("delete", "preference-vs-code"),
        ("upsert", "preference-neovim"),
    ]


def test_a_switch_finds_what_the_rules_retirement_cannot() -> None:
    """s42d-en-dvorak: the rules' switch looks among likings, devices and apps; the layout was kept in the user's words."""
    dvorak = ExistingMemory(1, "said-type-dvorak-layout", "fact", "Types on the Dvorak layout")
    assert sorted((op, key) for op, key, _ in written("I switched from Dvorak to Colemak.", [dvorak])) == [
        ("delete", "said-type-dvorak-layout"),
        ("upsert", "preference-colemak"),
    ]


def test_a_place_left_names_no_one_memory_when_the_home_names_it_too() -> None:
    """ "I moved from Leeds to Manchester": the home is the turn's own to rewrite, and the job naming Leeds is no switch
    of the user's (two memories name Leeds: neither is the one given up)."""
    home = ExistingMemory(1, "residence-city", "fact", "Lives in Leeds")
    job = ExistingMemory(2, "employer", "fact", "Works at Leeds General Infirmary")
    assert written("I've moved from Leeds to Manchester.", [home, job]) == [
        ("upsert", "residence-city", "Lives in Manchester")
    ]
