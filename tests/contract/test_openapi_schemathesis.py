"""Schemathesis over every operation of `/v1/openapi.json`, against a live sandbox
(issue 2, Tests).

For each operation it generates requests from the document and checks that the sandbox never
answers a server error, that every answer conforms to the documented schema and content type,
and that every status code is documented. Bounded: a few examples per operation, no shrinking.

The document is built once at import (schemathesis needs it to collect one test per operation;
its lazy fixture loader does not run on pytest 9); a test checks that the live server serves
exactly that document.
"""

from __future__ import annotations

from typing import Any

import httpx
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from sandbox.http.server import RunningSandbox
from tests.conftest import answered, auth, openapi_document
from tests.contract import reading

MAX_EXAMPLES = 5
sandbox = reading.sandbox


DOCUMENT = openapi_document()
schema = schemathesis.openapi.from_dict(DOCUMENT)
schema.config.update(headers=auth())
schema.config.generation.update(max_examples=MAX_EXAMPLES, no_shrink=True, deterministic=True)
schema.config.phases.update(phases=["examples", "fuzzing"])


def test_live_server_serves_the_document_under_test(sandbox: RunningSandbox) -> None:
    served = httpx.get(f"{sandbox.base_url}/openapi.json", timeout=30)
    assert answered(served) == DOCUMENT


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_operation_conforms(case: schemathesis.Case[Any], sandbox: RunningSandbox) -> None:
    case.call_and_validate(base_url=sandbox.root_url, headers=auth(),
                           checks=[not_a_server_error, status_code_conformance,
                                   content_type_conformance, response_schema_conformance],
                           timeout=30)
