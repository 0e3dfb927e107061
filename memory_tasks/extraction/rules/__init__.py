"""The offline extraction engine: Chinese and English patterns, no model (SPEC R-LLM-2).

A message is read in four steps, one module each:

1. `clauses` cuts it into clauses and marks the ones no rule may read (questions, one-off
   requests, statements about someone else, short time windows, `filters.text_drop_reason`);
2. `table` tries each rule on each readable clause, in table order;
3. `builders` turn a match into candidates, worded by `content` (and `english` for the third
   person) and keyed by `keys` (the key scheme, with `lexicon` naming known items);
4. `engine` (`RulesEngine`) collects the candidates of the message, one per key; retractions
   and forget requests are read as the statement they take back (`retract`).
"""

from memory_tasks.extraction.rules.engine import RulesEngine

__all__ = ["RulesEngine"]
