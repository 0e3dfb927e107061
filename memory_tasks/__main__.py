"""The operator CLI: `python -m memory_tasks <command>` (R-OPS-3).

Every command prints a clear message and exits non-zero on bad input, writing nothing. A
backing service that is down (or a database without the schema) is one line naming the
service, its address and what to do, exit 1; `--debug` adds the traceback (issue 17 item 5).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from memory_tasks.redaction import redact
from memory_tasks.text import InvalidUserId, checked_user_id

EXIT_USAGE = 2
EXIT_FAILED = 1
# What `--help` says about the CLI (the module docstring is for readers of the code).
DESCRIPTION = (
    "Operate the memory pipeline: record turns, inspect and edit memories, run maintenance. "
    "Bad input is refused with a message and writes nothing; a service that is down is named in "
    "one line (--debug shows the traceback)."
)
# `list` and `retrieve` show keys in a column this wide at most; longer keys are cut with "…".
MAX_KEY_COLUMN = 48


class CliError(Exception):
    """A user-facing error: printed as `error: …`, exit code 2."""


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def _user_id(raw: str) -> int:
    """argparse type of every id option (users, conversations, messages): a positive 32-bit integer."""
    try:
        return checked_user_id(int(raw))
    except InvalidUserId as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    except ValueError:
        raise argparse.ArgumentTypeError(f"user id must be an integer, got {raw!r}") from None


def cmd_init_db(args: argparse.Namespace) -> int:
    from memory_tasks.db.migrate import upgrade_to_head
    from memory_tasks.db.session import session_scope
    from memory_tasks.memories.store import mark_core_memories

    upgrade_to_head()
    with session_scope() as session:
        marked = mark_core_memories(session)
    print("database migrated to the newest schema" + (f"; {marked} existing memories marked core" if marked else ""))
    return 0


def _key_column(keys: list[str]) -> Callable[[str], str]:
    """A formatter of keys as one column: as wide as the longest key, at most MAX_KEY_COLUMN."""
    width = min(max((len(key) for key in keys), default=0), MAX_KEY_COLUMN)

    def cell(key: str) -> str:
        return (key if len(key) <= width else key[: width - 1] + "…").ljust(width)

    return cell


def cmd_ingest(args: argparse.Namespace) -> int:
    from memory_tasks.api import FINAL_STATES, TurnError, enqueue_turn, record_turn

    try:
        message_id = record_turn(args.user, args.text, role=args.role, conversation_id=args.conversation)
    except TurnError as exc:
        raise CliError(str(exc)) from None
    if args.role == "user":
        enqueue_turn(message_id, countdown=0 if args.wait else None)
    if not args.wait:
        print(json.dumps({"message_id": message_id, "status": "PENDING" if args.role == "user" else "SKIPPED"}))
        return 0
    from memory_tasks.api import wait_for_message

    state = wait_for_message(message_id, args.timeout)
    if state.get("status") not in FINAL_STATES:
        print(
            f"error: message {message_id} is still {state.get('status')} after {args.timeout:g} s: "
            "is a worker running? (`make up` starts one)",
            file=sys.stderr,
        )
        return EXIT_FAILED
    if args.json:
        print(json.dumps({k: v for k, v in state.items() if k not in ("user_id", "role")}, ensure_ascii=False))
    else:
        _print_outcomes(state)
    return EXIT_FAILED if state["status"] in ("FAILED", "DEAD") else 0


def _print_outcomes(state: dict[str, Any]) -> None:
    """The message's state in one line, then one line per statement: stored (memory, op) or dropped (why)."""
    ids = ", ".join(f"#{i}" for i in state["memory_ids"]) or "none"
    line = f"message {state['message_id']} {state['status']}: active memories {ids}"
    if state["deactivated_ids"]:
        line += "; deactivated " + ", ".join(f"#{i}" for i in state["deactivated_ids"])
    if state["error"]:
        line += f"; {state['error']}"
    print(line)
    from memory_tasks.extraction.outcomes import Outcome

    for item in state["outcomes"]:
        outcome = Outcome.from_json(item)
        if outcome is not None:
            print(f"  {outcome.line()}")


def cmd_list(args: argparse.Namespace) -> int:
    from memory_tasks.api import list_memories

    memories = list_memories(args.user, memory_type=args.type)
    if args.json:
        _print_json(memories)
    elif not memories:
        print(f"user {args.user} has no memories")
    else:
        key = _key_column([m["memory_key"] for m in memories])
        for m in memories:
            print(f"#{m['id']:<6} {m['memory_type']:<10} {key(m['memory_key'])} {m['content']}  [{m['vector_status']}]")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from memory_tasks.status import collect_status

    status = collect_status(errors=args.errors)
    if args.json:
        _print_json(status)
        return 0
    print("messages:", ", ".join(f"{k}={v}" for k, v in status["messages"].items()) or "none")
    print(f"memories: {status['active_memories']} active")
    print(
        "memory vectors (index state of every memory row):", ", ".join(f"{k}={v}" for k, v in status["vectors"].items())
    )
    audit = status["vector_audit"]
    print(
        f"vector audit: {audit['unchecked']} SYNCED rows not checked against Milvus since their last write; "
        f"oldest check {audit['oldest_check_at'] or 'none yet'}"
    )
    for failure in status["recent_failures"]:
        print(f"  failed {failure['kind']} #{failure['id']} at {failure['at']}: {failure['error']}")
    dead = status["dead_letters"]
    print(f"dead letters: {dead['count']}" + (" (requeue with: requeue --all-dead)" if dead["count"] else ""))
    for letter in dead["newest"]:
        print(
            f"  dead message #{letter['id']} at {letter['at']} after {letter['attempts']} attempts: {letter['error']}"
        )
    return 0


def cmd_requeue(args: argparse.Namespace) -> int:
    from memory_tasks.jobs import requeue_messages

    if args.dead_vectors:
        from memory_tasks.dispatch import enqueue_index_sync
        from memory_tasks.vectors.index import revive_dead_vectors

        revived = revive_dead_vectors()
        if revived:
            enqueue_index_sync(revived)
        print(json.dumps({"requeued_vectors": revived}))
        return 0

    requeued = requeue_messages(None if args.all_dead else [args.message])
    print(json.dumps({"requeued": requeued}))
    if args.message is not None and not requeued:
        print(f"error: message {args.message} is not a dead (or failed) user message", file=sys.stderr)
        return EXIT_FAILED
    return 0


def cmd_enqueue(args: argparse.Namespace) -> int:
    from memory_tasks.api import TurnError, enqueue_turn

    try:
        task_id = enqueue_turn(args.message, countdown=0)
    except TurnError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps({"message_id": args.message, "task_id": task_id}))
    return 0


def cmd_rescan(args: argparse.Namespace) -> int:
    from memory_tasks.jobs import rescan_messages

    print(json.dumps({"enqueued": rescan_messages()}))
    return 0


def cmd_forget_user(args: argparse.Namespace) -> int:
    from memory_tasks.forget import ForgetError, forget_user

    if not args.yes:
        raise CliError(
            f"forget-user deletes every memory, message and vector of user {args.user} and cannot be "
            "undone; add --yes to confirm"
        )
    try:
        _print_json(forget_user(args.user))
    except ForgetError as exc:
        print(redact(f"error: {exc}"), file=sys.stderr)
        return EXIT_FAILED
    return 0


def _timestamp(raw: str) -> datetime:
    """An ISO 8601 time as given, UTC when it names no zone."""
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {raw!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _print_plan(plan: Any, outcome: dict[str, Any]) -> None:
    counts = ", ".join(f"{kind} {n}" for kind, n in plan.counts().items() if n)
    print(
        f"user {plan.user_id} ({plan.engine} engine, as of {plan.now:%Y-%m-%d %H:%M:%S %Z}): {counts or 'no memories'}"
    )
    for action in plan.changes:
        target = f" -> #{action.into_id}" if action.into_id is not None else ""
        changes = ", ".join(
            f"{name}={value!r}"
            for name, value in action.changes.items()
            if name in ("memory_key", "memory_type", "content")
        )
        print(f"  {action.kind:<9} #{action.memory_id:<6} {action.key[:40]:<40}{target} {changes}  ({action.reason})")
    if outcome["dry_run"]:
        print("dry run: nothing changed")
    elif outcome["status"] == "stale":
        print("not applied: the user's memories changed while planning; run it again")
    else:
        print(f"applied: {len(outcome['changed_ids'])} memories changed, index sync {outcome['index']}")


def cmd_consolidate(args: argparse.Namespace) -> int:
    from memory_tasks.dispatch import enqueue_index_sync
    from memory_tasks.extraction.review import get_reviewer
    from memory_tasks.llm import LLMError
    from memory_tasks.memories.consolidation import apply_plan, plan_consolidation

    try:
        plan = plan_consolidation(args.user, get_reviewer(args.engine))
    except ValueError as exc:
        raise CliError(str(exc)) from None
    except LLMError as exc:
        print(redact(f"error: the consolidation review failed, nothing changed: {exc}"), file=sys.stderr)
        return EXIT_FAILED
    outcome: dict[str, Any] = {"dry_run": args.dry_run}
    if not args.dry_run:
        result = apply_plan(plan)
        outcome.update(status=result.status, changed_ids=list(result.changed_ids))
        if result.status == "applied":
            outcome["index"] = enqueue_index_sync(list(result.changed_ids))
    if args.json:
        _print_json({**plan.to_json(), **outcome})
    else:
        _print_plan(plan, outcome)
    return EXIT_FAILED if outcome.get("status") == "stale" else 0


def cmd_expire(args: argparse.Namespace) -> int:
    from memory_tasks.jobs import expire_memories

    print(json.dumps({"expired": expire_memories(args.now)}))
    return 0


def _query_text(raw: str) -> str:
    """argparse type: text that is valid UTF-8 (bad bytes in argv arrive as lone surrogates)."""
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError("is not valid UTF-8") from None
    if len(raw) > 10_000:
        raise argparse.ArgumentTypeError(f"is too long ({len(raw)} characters, at most 10000)")
    return raw


def _positive_float(raw: str) -> float:
    """argparse type of durations: a number of seconds above zero."""
    try:
        value = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {raw!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {raw}")
    return value


def _turn_text(raw: str) -> str:
    """argparse type of --text: the text, or standard input for "-"."""
    if raw != "-":
        return raw
    try:
        return sys.stdin.read().rstrip("\n")
    except UnicodeDecodeError:
        raise argparse.ArgumentTypeError("standard input is not valid UTF-8") from None


def _positive_int(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {raw!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {value}")
    return value


def cmd_retrieve(args: argparse.Namespace) -> int:
    from memory_tasks.retrieval import find_memories

    if not args.query.strip() and args.mode != "full_inject":
        raise CliError("--query must not be empty (or use --mode full_inject)")
    hits = find_memories(args.user, args.query, summary=args.summary, mode=args.mode, limit=args.limit)
    if args.json:
        _print_json([hit.to_json() for hit in hits])
    elif not hits:
        print(f"user {args.user} has no memories to retrieve")
    else:
        key = _key_column([hit.memory_key for hit in hits])
        for rank, hit in enumerate(hits, 1):
            print(f"{rank:>2}. #{hit.id:<6} {hit.score:6.3f} {hit.memory_type:<10} {key(hit.memory_key)} {hit.content}")
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    from pymilvus.exceptions import MilvusException

    from config.settings import get_settings
    from memory_tasks.service_errors import service_failure
    from memory_tasks.vectors.embedders import EmbeddingError
    from memory_tasks.vectors.milvus_store import VectorStoreError
    from memory_tasks.vectors.reindex import ReindexError, plan_reindex, reconcile, reindex

    try:
        if args.reconcile:
            collection = args.collection or get_settings().MEMORY_MILVUS_COLLECTION
            print(json.dumps({"collection": collection, **reconcile(collection).__dict__}))
            return 0
        plan = plan_reindex(args.collection)
        print(
            f"rebuild {plan.memories} active memories into {plan.target!r} with {plan.model} "
            f"(version {plan.version}); retrieval keeps using {plan.live!r} meanwhile"
        )
        if plan.target_exists:
            print(f"{plan.target!r} already exists (an earlier, unfinished run?): it will be dropped and rebuilt")
        if not args.yes:
            if not sys.stdin.isatty():
                raise CliError("not a terminal: pass --yes to confirm")
            if input("proceed? [y/N] ").strip().lower() not in ("y", "yes"):
                print("nothing done")
                return EXIT_FAILED
        result = reindex(plan, progress=lambda done, total: print(f"  {done}/{total}", end="\r", flush=True))
    except ReindexError as exc:
        raise CliError(str(exc)) from None
    except (VectorStoreError, EmbeddingError, MilvusException) as exc:
        cause = service_failure(exc, get_settings()) or " ".join(str(exc).split())
        print(redact(f"error: the rebuild failed, the live collection is untouched: {cause}"), file=sys.stderr)
        return EXIT_FAILED
    print(
        f"\nbuilt {result.target!r}: {result.written} vectors in {result.seconds:.1f} s; changes caught up "
        f"meanwhile: {result.reconciled.written} rewritten, {result.reconciled.removed} removed"
    )
    print(
        f"to switch: set MEMORY_MILVUS_COLLECTION={result.target} (with these embedding settings) for the "
        f"workers and chat servers and restart them, then run `python -m memory_tasks reindex --reconcile` "
        f"once; {plan.live!r} stays as it is until you drop it"
    )
    return 0


def cmd_tool(args: argparse.Namespace) -> int:
    """Run one agent tool call exactly as a chat server's dispatcher would; print its result."""
    from memory_tasks.db.session import get_engine
    from memory_tasks.tools import execute

    # The dispatcher answers the model with the kind of failure only; the operator is told
    # which service is down (the one-line error of `main`) before the call is made.
    get_engine().connect().close()
    result = execute(args.user, args.name, args.arguments)
    print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    return EXIT_FAILED if "error" in result else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from memory_tasks.http import serve

    return serve(args.host, args.port)


def cmd_health(args: argparse.Namespace) -> int:
    from config.settings import get_settings
    from memory_tasks.health import health_main

    return health_main(get_settings(), args.check, args.timeout, args.worker)


def cmd_demo(args: argparse.Namespace) -> int:
    from memory_tasks.demo import run_demo

    return run_demo()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m memory_tasks", description=DESCRIPTION)
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failure")
    parser.add_argument(
        "--verbose", action="store_true", help="say which database and broker are used (always when no .env is found)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Callable[[argparse.Namespace], int], help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    command("init-db", cmd_init_db, "create or migrate the database schema (alembic upgrade head)")

    ingest = command("ingest", cmd_ingest, "record a chat turn and enqueue it for memory extraction")
    ingest.add_argument("--user", type=_user_id, required=True)
    ingest.add_argument("--conversation", type=_user_id, help="conversation id (default: the user's latest)")
    ingest.add_argument("--role", choices=["user", "assistant", "system", "tool"], default="user")
    ingest.add_argument("--text", type=_turn_text, required=True, help='the turn\'s text; "-" reads standard input')
    ingest.add_argument(
        "--wait", action="store_true", help="block until processed; print what became of each statement"
    )
    ingest.add_argument("--timeout", type=_positive_float, default=180.0, help="seconds --wait waits (default 180)")
    ingest.add_argument("--json", action="store_true", help="with --wait: the message's state as one JSON object")

    listing = command("list", cmd_list, "list a user's valid memories")
    listing.add_argument("--user", type=_user_id, required=True)
    listing.add_argument("--type", choices=["preference", "fact", "goal", "project", "constraint"])
    listing.add_argument("--json", action="store_true")

    status = command("status", cmd_status, "counts per message state and vector state, and the last errors")
    status.add_argument("--json", action="store_true")
    status.add_argument("--errors", type=int, default=10, help="how many recent failures to show")

    enqueue = command("enqueue", cmd_enqueue, "(re)start the pipeline for a recorded message")
    enqueue.add_argument("--message", type=_user_id, required=True)

    command("rescan", cmd_rescan, "run the PENDING/FAILED message rescan once, now")
    requeue = command("requeue", cmd_requeue, "give dead letters another life: attempts reset, enqueued again")
    which = requeue.add_mutually_exclusive_group(required=True)
    which.add_argument("--message", type=_user_id, help="one DEAD (or FAILED) message")
    which.add_argument("--all-dead", action="store_true", help="every DEAD message")
    which.add_argument(
        "--dead-vectors", action="store_true", help="every DEAD vector: back to DIRTY, attempts reset, synced again"
    )
    forget = command(
        "forget-user",
        cmd_forget_user,
        "delete every memory, history row, message and vector of a user (right to be forgotten)",
    )
    forget.add_argument("--user", type=_user_id, required=True)
    forget.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")

    consolidate = command(
        "consolidate",
        cmd_consolidate,
        "review one user's memories: keep / delete / merge / normalize (shows the plan, then applies it)",
    )
    consolidate.add_argument("--user", type=_user_id, required=True)
    consolidate.add_argument("--dry-run", action="store_true", help="show the plan only; change nothing")
    consolidate.add_argument(
        "--engine",
        choices=["auto", "llm", "rules"],
        default="auto",
        help="auto: the LLM when one is configured, else the offline rules",
    )
    consolidate.add_argument("--json", action="store_true")

    expire = command("expire", cmd_expire, "deactivate every memory whose TTL has run out, now")
    expire.add_argument("--now", type=_timestamp, help="the clock to expire by (ISO 8601; default: the database's)")

    retrieve = command("retrieve", cmd_retrieve, "the memories retrieval would inject for a question, best first")
    retrieve.add_argument("--user", type=_user_id, required=True)
    retrieve.add_argument("--query", type=_query_text, required=True, help="the user's question")
    retrieve.add_argument("--summary", type=_query_text, help="the conversation summary, searched with the question")
    retrieve.add_argument("--mode", choices=["full_inject", "dense"], help="default: LONG_TERM_MEMORY_RETRIEVE_MODE")
    retrieve.add_argument("--limit", type=_positive_int, help="how many memories at most")
    retrieve.add_argument("--json", action="store_true", help="a JSON array of hits, best first")

    reindex = command(
        "reindex",
        cmd_reindex,
        "rebuild the vector index into a new Milvus collection with the current embedder (the live one keeps serving)",
    )
    reindex.add_argument(
        "--collection",
        help="name of the new collection (default: <live name>_v<N+1>); "
        "with --reconcile, the collection to mend (default: the live one)",
    )
    reindex.add_argument(
        "--reconcile",
        action="store_true",
        help="do not rebuild: rewrite missing or stale vectors and remove deactivated ones",
    )
    reindex.add_argument("--yes", action="store_true", help="confirm without a prompt")

    tool = command("tool", cmd_tool, "run one agent memory tool call (memory_save/_append/_delete/_list)")
    tool.add_argument("--user", type=_user_id, required=True)
    tool.add_argument("--name", required=True, help="tool name, e.g. memory_save")
    tool.add_argument("--arguments", default="{}", help="the tool arguments as the model's JSON string")

    serve = command("serve", cmd_serve, "run the HTTP service: the /v1 API for chat servers and the /inspector page")
    serve.add_argument("--host", help="address to bind (default MEMORY_API_HOST, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default MEMORY_API_PORT, 8600)")

    health = command("health", cmd_health, "probe workers, beat, PostgreSQL, the broker, Milvus: exit 0 or 1, JSON")
    health.add_argument("--check", action="append", choices=["workers", "beat", "postgres", "broker", "milvus"])
    health.add_argument("--worker", help="only this worker must answer, e.g. llm@$HOSTNAME (with --check workers)")
    health.add_argument("--timeout", type=float, default=3.0, help="seconds the workers have to answer")

    command("demo", cmd_demo, "push a sample conversation through the running worker and show the memories")
    return parser


class _OneLineWarnings(logging.Formatter):
    """Log records as `warning: <message>`, without the traceback (`--debug` shows it)."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {record.getMessage()}"


def _configure_logging(debug: bool) -> None:
    """Warnings of the library on stderr: one line each, or with their tracebacks under --debug."""
    handler = logging.StreamHandler(sys.stderr)
    if not debug:
        handler.setFormatter(_OneLineWarnings())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.debug)
    from config.settings import ConfigError, find_env_file, get_settings

    try:
        env_file = find_env_file()
        # Before anything imports pymilvus, whose import loads a .env of its own into the environment.
        settings = get_settings()
    except ConfigError as exc:
        print(redact(str(exc)), file=sys.stderr)
        return EXIT_USAGE
    from memory_tasks.service_errors import service_failure, using_line

    if args.verbose or env_file is None:
        print(using_line(settings, env_file), file=sys.stderr)
    try:
        return args.handler(args)
    except CliError as exc:
        print(redact(f"error: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:
        line = service_failure(exc, settings)
        if line is None:
            raise
        if args.debug:
            traceback.print_exc()
        print(f"error: {line}", file=sys.stderr)
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
