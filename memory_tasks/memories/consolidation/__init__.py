"""Consolidation: review one user's memories and keep / delete / merge / normalize them (R-LIFE-2).

A plan is made first and applied second, so an operator can look before anything
changes (`consolidate --dry-run`) and the slow part, the LLM review, runs outside any
transaction:

1. snapshot - the user's active rows as plain `ExistingMemory`s, read at `now`;
2. triage   - the same for every reviewer: expired rows are expired; every other row is
              conformed (`normalizers`: slug key, known type, tidy content) and deleted
              when it fails the hard filters of the write path (noise keys, profile
              fields, short-term …);
3. review   - the reviewer (`extraction.review`, passed in by the caller): the offline
              `RulesReviewer` proposes nothing beyond the rules; `LLMReviewer` proposes an
              action per row, in chunks of at most LLM_CHUNK_SIZE rows, and may only name
              ids it was shown;
4. finalize - deterministic: proposals are validated (a change that fails the hard filters
              is refused), rows that end on one key are merged (the row holding the key
              survives, the newest content wins), near-duplicates at >= the merge threshold
              are merged as the write path merges them (`dedup.near_duplicate_merges`);
5. apply    - one transaction under the user's write lock, refused as "stale" when the
              user's active rows changed since the snapshot; every change goes through the
              write model (`memories.store`): a new revision, DIRTY, history
              (source=consolidate, expiry for expired rows); `users.last_consolidated_at` is set.

Modules: `plan` (the plan's types), `normalizers`, `planner` (steps 1-4: `plan_rows` is a
pure function of plain data, `plan_consolidation` the snapshot around it), `apply` (step 5),
`due` (which users are due, claimed for the beat fan-out). The names callers use are
re-exported here.
"""

from memory_tasks.memories.consolidation.apply import StalePlan, apply_plan
from memory_tasks.memories.consolidation.due import is_due, schedule_due_users
from memory_tasks.memories.consolidation.plan import Action, ConsolidationResult, Plan
from memory_tasks.memories.consolidation.planner import plan_consolidation, plan_rows

__all__ = [
    "Action",
    "ConsolidationResult",
    "Plan",
    "StalePlan",
    "apply_plan",
    "is_due",
    "plan_consolidation",
    "plan_rows",
    "schedule_due_users",
]
