"""schemathesis fuzzes every operation of the OpenAPI document against the app and a real database.

Every response must be documented (status, content type, body schema, headers), valid
requests must be accepted, invalid ones refused with a 4xx, and no request may get a
5xx. The run is bounded (EXAMPLES per operation, no shrinking) so it stays well under
two minutes inside `make test`.

The schema is loaded eagerly from an app built at import (building it touches no
database); schemathesis' fixture-based loader does not work with this pytest.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.config import SchemathesisConfig

from tests.http.conftest import ADMIN_TOKEN, make_app

# MT_FUZZ_EXAMPLES=500 for a deeper run by hand.
EXAMPLES = int(os.environ.get("MT_FUZZ_EXAMPLES", "20"))

pytestmark = pytest.mark.slow

# A body over 64 KB is refused with 413, which schemathesis' list of refusals does not name.
REFUSALS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
config = SchemathesisConfig.from_dict(
    {
        "auth": {"openapi": {"bearer": {"bearer": ADMIN_TOKEN}}},
        "checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}},
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", make_app(), config=config)


@pytest.fixture
def services(db: str, broker_flushed: None, milvus_server: str) -> None:
    """An emptied test database, this run's broker keys and a Milvus server (forget and dense retrieval use it)."""


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented_and_never_5xx(case: schemathesis.Case, services: None) -> None:
    case.call_and_validate()
