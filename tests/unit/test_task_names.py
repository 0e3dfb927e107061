"""Task names are a public contract: chat servers `send_task` by name (R-PIPE-1)."""

from config.celery import TASK_ROUTES
from memory_tasks import dispatch

PIPELINE_STAGES = [
    "memory.extract_candidates",
    "memory.refine_candidates",
    "memory.upsert_memories",
    "memory.embed_memories",
    "memory.upsert_vectors",
]


def test_pipeline_stages_keep_their_names() -> None:
    """R-PIPE-1: each stage is registered under its stable dotted name."""
    from memory_tasks import app

    app.loader.import_default_modules()  # what a worker does at start-up
    for name in [*PIPELINE_STAGES, "memory.sync_index_batch", "memory.rescan_messages", "memory.purge_user_vectors"]:
        assert name in app.tasks, name


def test_chain_runs_the_five_stages_in_order() -> None:
    """R-PIPE-1: enqueue_turn starts extract -> refine -> upsert -> embed -> upsert_vectors."""
    chain = dispatch.message_chain(123)
    assert [sig.task for sig in chain.tasks] == PIPELINE_STAGES
    assert chain.tasks[0].args == (123,)
    assert chain.tasks[0].immutable


def test_index_sync_chains_embed_and_upsert_vectors_for_the_given_ids() -> None:
    """R-VEC-3: a tool write, consolidation or expiry starts embed -> upsert_vectors for its rows."""
    chain = dispatch.index_chain([7, 8])
    assert [sig.task for sig in chain.tasks] == PIPELINE_STAGES[3:]
    assert chain.tasks[0].args == ([7, 8],)
    assert chain.tasks[0].immutable and not chain.tasks[1].immutable


def test_llm_and_index_stages_go_to_separate_queues() -> None:
    """R-OPS-1: slow LLM work cannot starve index sync."""
    assert TASK_ROUTES["memory.extract_candidates"]["queue"] == "llm"
    assert TASK_ROUTES["memory.upsert_vectors"]["queue"] == "index"
    assert TASK_ROUTES["memory.purge_user_vectors"]["queue"] == "index"
    from memory_tasks import app

    queues = {q.name for q in app.conf.task_queues}
    assert {"llm", "index", "maintenance"} <= queues
    assert app.conf.task_create_missing_queues is False


def test_each_task_reaches_exactly_one_queue() -> None:
    """R-PIPE-6: a task is delivered once: queues do not share an exchange binding."""
    from memory_tasks import app

    bindings = [(q.exchange.name, q.routing_key) for q in app.amqp.queues.values()]
    assert len(bindings) == len(set(bindings))
    route = app.amqp.router.route({}, "memory.upsert_vectors")["queue"]
    assert (route.name, route.exchange.name, route.routing_key) == ("index", "index", "index")
