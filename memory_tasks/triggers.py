"""One pending debounce trigger per conversation: later turns join it instead of sending their own.

Every user turn used to send a trigger (`memory.extract_candidates`), and in a burst all but
the last found a later turn waiting and did nothing: a Celery message, a task run and a
transaction per turn for nothing (issue 12, the Celery overhead). Now the first turn of a
user's conversation *arms* a trigger: it records {the newest turn, when it is due} under one
Redis key and sends the trigger; every turn that comes while that key exists only moves the
newest turn and the due time forward, and sends nothing. When the trigger runs it *takes*
the key (`take`) after deciding its window and arms one follow-up trigger for the turns
after that window (`pipeline.extract_stage`), at the newest turn's due time.

PostgreSQL stays the only record of the turns: the key only says which trigger will look
at them. A key outlives its trigger's due time by `GRACE_SEC`; a trigger later than that
(lost with a killed worker, or behind a backlog) no longer holds later turns back: they
arm triggers of their own, and those windows take the turns the lost one held (a window is
every waiting turn up to its leader); a lost trigger is redelivered or its turns rescanned
like any lost task. If Redis loses the key while its trigger waits, the turns that joined
it wait for the conversation's next turn or the rescan (the claim lease): late, not lost.
Keys live in the broker's Redis (`memory_tasks.broker_redis`); without a Redis broker every
turn sends its own trigger, as before. See docs/reliability.md, "Debounce".
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from config.settings import Settings
from memory_tasks.broker_redis import shared_key, shared_redis

# How long past its due time a pending trigger still holds the turns that joined it.
GRACE_SEC = 60.0

# KEYS[1] the conversation's key; ARGV: message id, due (epoch s), ttl (ms).
# Returns 1 when the caller must send the trigger (no trigger pending), 0 when the turn joined one.
_ARM = """
if redis.call('exists', KEYS[1]) == 1 then
  local newest = tonumber(redis.call('hget', KEYS[1], 'newest'))
  if tonumber(ARGV[1]) >= newest then
    redis.call('hset', KEYS[1], 'newest', ARGV[1])
    local due = tonumber(redis.call('hget', KEYS[1], 'due'))
    if tonumber(ARGV[2]) > due then
      redis.call('hset', KEYS[1], 'due', ARGV[2])
      redis.call('pexpire', KEYS[1], ARGV[3])
    end
  end
  return 0
end
redis.call('hset', KEYS[1], 'lead', ARGV[1], 'newest', ARGV[1], 'due', ARGV[2])
redis.call('pexpire', KEYS[1], ARGV[3])
return 1
"""

# KEYS[1] the conversation's key; ARGV[1] the message id of the trigger that runs.
# Returns {newest, due} and deletes the key when that trigger is the one the key waits for.
_TAKE = """
if redis.call('hget', KEYS[1], 'lead') == ARGV[1] then
  local pending = redis.call('hmget', KEYS[1], 'newest', 'due')
  redis.call('del', KEYS[1])
  return pending
end
return false
"""

# Withdraws an arm whose trigger could not be sent (the same condition as _TAKE, nothing returned).
_DISARM = """
if redis.call('hget', KEYS[1], 'lead') == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class Pending:
    """What joined a trigger while it waited: the newest turn, and when its own debounce ends (epoch s)."""

    newest: int
    due_at: float


def _key(settings: Settings, user_id: int, conversation_id: int) -> str:
    return shared_key(settings, f"trigger:{user_id}:{conversation_id}")


def arm(settings: Settings, user_id: int, conversation_id: int, message_id: int, due_at: float) -> bool:
    """Record that `message_id` needs a trigger at `due_at` (epoch s).

    True: no trigger is pending for the conversation (or there is no shared Redis), so the
    caller sends one for `message_id` now; it is the one the key waits for. False: the turn
    joined the pending trigger, which sends a follow-up for it. Raises what Redis raises.
    """
    client = shared_redis(settings)
    if client is None:
        return True
    ttl_ms = int((max(due_at - time.time(), 0.0) + GRACE_SEC) * 1000)
    return bool(client.eval(_ARM, 1, _key(settings, user_id, conversation_id), message_id, repr(due_at), ttl_ms))


def disarm(settings: Settings, user_id: int, conversation_id: int, message_id: int) -> None:
    """Withdraw `arm` for a trigger that was not sent, so later turns do not wait on it."""
    client = shared_redis(settings)
    if client is not None:
        client.eval(_DISARM, 1, _key(settings, user_id, conversation_id), message_id)


def take(settings: Settings, user_id: int, conversation_id: int, message_id: int) -> Pending | None:
    """The turns that joined the trigger of `message_id` while it waited, removing its key.

    None when that trigger is not the one the conversation's key waits for (a rescan's
    trigger, a follow-up another trigger armed, a key already gone) or there is no shared
    Redis. Raises what Redis raises.
    """
    client = shared_redis(settings)
    if client is None:
        return None
    pending = client.eval(_TAKE, 1, _key(settings, user_id, conversation_id), message_id)
    if not pending:
        return None
    newest, due_at = pending
    return Pending(newest=int(newest), due_at=float(due_at))
