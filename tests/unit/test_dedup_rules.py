"""When similar-looking memories are still different facts (R-PIPE-4/5)."""

import pytest

from memory_tasks.memories.dedup import different_facts, keys_name_different_items


@pytest.mark.parametrize(
    ("key_a", "key_b", "different"),
    [
        ("pet-cat", "pet-dog", True),
        ("food-sichuan-cuisine", "food-cantonese-cuisine", True),
        ("food-thai", "food-thai-cuisine", False),  # one item contains the other: similarity decides
        ("preference-h1a2b3c4", "preference-h9f8e7d6", False),  # wording hashes say nothing
        ("drink-preference", "food-preference", False),  # other categories: similarity decides
        ("residence-city", "residence-city", False),
    ],
)
def test_keys_of_one_category_naming_different_items_are_different_memories(key_a, key_b, different) -> None:
    assert keys_name_different_items(key_a, key_b) is different


def test_different_numbers_are_different_facts() -> None:
    """Embeddings score 'wakes up at 6' and 'wakes up at 7' alike; numbers decide."""
    assert different_facts("routine-wake", "Wakes up at 6 am", "routine-wake", "Wakes up at 7 am")
    assert not different_facts("routine-wake", "Wakes up at 6 am", "routine-wake", "Gets up at 6 every day")
    assert not different_facts("x-a", "喜欢吃川菜", "x-a", "爱吃四川菜")
