"""The committed OpenAPI document is the live one and documents what the fuzz test holds the app to; the README shows the inspector."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from memory_tasks.http.openapi import SPEC_PATH, live_spec, render
from tests.conftest import PROJECT_ROOT
from tests.http.conftest import make_app

ERROR_STATUSES = {"401", "413", "422"}


def test_the_committed_document_is_the_live_one() -> None:
    # Regenerate with `make openapi` after changing a route or a schema.
    assert SPEC_PATH.read_text() == render(live_spec())


def test_every_v1_operation_needs_a_bearer_token_and_documents_its_errors_as_error_bodies() -> None:
    spec = live_spec()
    assert spec["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "description": spec["components"]["securitySchemes"]["bearer"]["description"],
        "scheme": "bearer",
    }
    for path, operations in spec["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, operation in operations.items():
            assert operation["security"] == [{"bearer": []}], (method, path)
            assert set(operation["responses"]) >= ERROR_STATUSES, (method, path)
            for status in ERROR_STATUSES:
                schema = operation["responses"][status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (method, path, status)


def test_the_inspector_is_not_part_of_the_api_document() -> None:
    assert not [path for path in live_spec()["paths"] if path.startswith("/inspector")]


def test_the_readme_shows_the_inspector_and_a_turn_over_http() -> None:
    readme = (PROJECT_ROOT / "README.md").read_text()

    # The screenshot is taken by the browser test: MT_UPDATE_SCREENSHOT=1 pytest tests/browser
    assert (PROJECT_ROOT / "docs" / "inspector.png").exists()
    assert "docs/inspector.png" in readme
    for step in ("/v1/retrieve", "/v1/tools", "/v1/turns"):
        assert "curl" in readme and step in readme


def test_the_interactive_docs_load_nothing_from_elsewhere() -> None:
    with TestClient(make_app(), base_url="http://127.0.0.1") as client:
        page = client.get("/docs")
        assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)

        assert page.status_code == 200
        assert assets and all(asset.startswith("/docs/static/") for asset in assets)
        assert all(client.get(asset).status_code == 200 for asset in assets)
        assert "'/openapi.json'" in page.text or '"/openapi.json"' in page.text
