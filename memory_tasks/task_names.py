"""Every Celery task name: the contract between whoever sends work and the workers (R-PIPE-1).

A chat server may `send_task` these names without importing this package, so they never
change. Senders go through `memory_tasks.dispatch`; `config/celery.py` routes by these
names, `schedules/beat.py` schedules them and `memory_tasks/tasks/` registers them. This
module imports nothing, so the routing configuration can use it without an import circle
(dispatch needs the configured app, and the app needs the routes).
tests/unit/test_task_contract.py pins the complete set (every constant here is a task name).
"""

# The five stages of one message, chained in this order.
EXTRACT_CANDIDATES = "memory.extract_candidates"
REFINE_CANDIDATES = "memory.refine_candidates"
UPSERT_MEMORIES = "memory.upsert_memories"
EMBED_MEMORIES = "memory.embed_memories"
UPSERT_VECTORS = "memory.upsert_vectors"
# A debounce countdown: when due, it sends the turn's chain (the worker holds a task with a
# countdown outside the broker's priority queues, so the chain itself is sent only then).
RELEASE_TRIGGER = "memory.release_trigger"

# Index upkeep: the DIRTY/FAILED sweep and the deferred access statistics of reads.
SYNC_INDEX_BATCH = "memory.sync_index_batch"
TOUCH_MEMORIES = "memory.touch_memories"
# The Milvus half of forget-user, retried until a strong read finds no vector of the user.
PURGE_USER_VECTORS = "memory.purge_user_vectors"

# Beat jobs and the per-user task the consolidation fan-out sends.
RESCAN_MESSAGES = "memory.rescan_messages"
EXPIRE_MEMORIES = "memory.expire_memories"
SCHEDULE_CONSOLIDATION = "memory.schedule_consolidation"
CONSOLIDATE_USER = "memory.consolidate_user"
