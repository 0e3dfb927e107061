"""Broker options follow the transport: Redis-only ones never reach RabbitMQ (issue 15 item 7)."""

from __future__ import annotations

from config.celery import BEAT_SCHEDULER, celery_config
from config.settings import Settings


def _conf(**values: str) -> dict:
    return celery_config(Settings(_env_file=None, CELERY_REDIS_KEY_PREFIX="deploy-a:", **values))


def test_redis_gets_its_visibility_timeout_and_key_prefix() -> None:
    """R-SAFE-1: Redis redelivers after the visibility timeout, which must exceed the hard limit."""
    conf = _conf(CELERY_BROKER_URL="redis://127.0.0.1:6379/0", CELERY_RESULT_BACKEND="redis://127.0.0.1:6379/1")

    assert conf["broker_transport_options"]["visibility_timeout"] > conf["task_time_limit"]
    assert conf["broker_transport_options"]["global_keyprefix"] == "deploy-a:"
    assert conf["result_backend_transport_options"] == {"global_keyprefix": "deploy-a:"}


def test_rabbitmq_gets_publisher_confirms_and_no_redis_options() -> None:
    """Issue 15 item 7: amqp has no visibility timeout or key prefix; a send waits for the broker's confirm.
    The result backend on Redis keeps its prefix."""
    conf = _conf(CELERY_BROKER_URL="amqp://guest:guest@127.0.0.1:5672//", CELERY_RESULT_BACKEND="redis://h:6379/1")

    assert conf["broker_transport_options"] == {"confirm_publish": True}
    assert conf["result_backend_transport_options"] == {"global_keyprefix": "deploy-a:"}


def test_a_result_backend_that_is_not_redis_gets_no_key_prefix() -> None:
    conf = _conf(CELERY_BROKER_URL="amqp://127.0.0.1//", CELERY_RESULT_BACKEND="rpc://")

    assert conf["result_backend_transport_options"] == {}


def test_every_beat_of_the_app_takes_the_one_beat_lock() -> None:
    """Issue 15 item 5: `celery beat` without -S still runs the locking scheduler."""
    assert _conf()["beat_scheduler"] == BEAT_SCHEDULER == "schedules.scheduler:LockedScheduler"
