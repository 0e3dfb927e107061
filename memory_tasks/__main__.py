"""The operator CLI: `python -m memory_tasks <command>` (R-OPS-3).

Every command prints a clear message and exits non-zero on bad input, writing nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

EXIT_USAGE = 2
EXIT_FAILED = 1


class CliError(Exception):
    """A user-facing error: printed as `error: …`, exit code 2."""


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def _user_id(raw: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"user id must be an integer, got {raw!r}") from None
    if not 0 < value < 2**31:
        raise argparse.ArgumentTypeError(f"user id must be between 1 and {2**31 - 1}, got {value}")
    return value


def cmd_init_db(args: argparse.Namespace) -> int:
    from memory_tasks.db.migrate import upgrade_to_head

    upgrade_to_head()
    print("database migrated to the newest schema")
    return 0


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
        print(json.dumps({"message_id": message_id, "status": state.get("status"), "error": "timed out waiting; "
                          "is a worker running? (make up)"}, ensure_ascii=False))
        return EXIT_FAILED
    result = {"message_id": message_id, "status": state["status"], "memory_ids": state["memory_ids"]}
    if state["error"]:
        result["error"] = state["error"]
    print(json.dumps(result, ensure_ascii=False))
    return EXIT_FAILED if state["status"] == "FAILED" else 0


def cmd_list(args: argparse.Namespace) -> int:
    from memory_tasks.api import list_memories

    memories = list_memories(args.user, memory_type=args.type)
    if args.json:
        _print_json(memories)
    elif not memories:
        print(f"user {args.user} has no memories")
    else:
        for m in memories:
            print(f"#{m['id']:<6} {m['memory_type']:<10} {m['memory_key']:<32} {m['content']}  [{m['vector_status']}]")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from memory_tasks.status import collect_status

    status = collect_status(errors=args.errors)
    if args.json:
        _print_json(status)
        return 0
    print("messages:", ", ".join(f"{k}={v}" for k, v in status["messages"].items()) or "none")
    print("memories:", ", ".join(f"{k}={v}" for k, v in status["vectors"].items()) or "none",
          f"(active {status['active_memories']})")
    for failure in status["recent_failures"]:
        print(f"  failed {failure['kind']} #{failure['id']} at {failure['at']}: {failure['error']}")
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
    from memory_tasks.tasks.maintenance import rescan_messages

    print(json.dumps({"enqueued": rescan_messages.run()}))
    return 0


def cmd_forget_user(args: argparse.Namespace) -> int:
    from memory_tasks.forget import ForgetError, forget_user

    if not args.yes:
        raise CliError(f"forget-user deletes every memory, message and vector of user {args.user} and cannot be "
                       "undone; add --yes to confirm")
    try:
        _print_json(forget_user(args.user))
    except ForgetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from memory_tasks.demo import run_demo

    return run_demo()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m memory_tasks", description=__doc__)
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
    ingest.add_argument("--text", required=True)
    ingest.add_argument("--wait", action="store_true", help="block until processed; print the outcome as JSON")
    ingest.add_argument("--timeout", type=float, default=180.0)

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
    forget = command("forget-user", cmd_forget_user,
                     "delete every memory, history row, message and vector of a user (right to be forgotten)")
    forget.add_argument("--user", type=_user_id, required=True)
    forget.add_argument("--yes", action="store_true", help="confirm: this cannot be undone")

    command("demo", cmd_demo, "push a sample conversation through the running worker and show the memories")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from config.settings import ConfigError

    try:
        return args.handler(args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
