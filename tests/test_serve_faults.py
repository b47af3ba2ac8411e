"""Hostile and mistaken requests to `vidmem serve`, cases kept as data (tests/data/serve_faults.yaml):
each gets its status and words, leaks nothing it names, and leaves the memory byte-for-byte."""

import hashlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from vidmem.commands.serve import LOOPBACK_NAMES
from vidmem.serve import create_app

CASES: list[dict[str, Any]] = yaml.safe_load(
    (Path(__file__).resolve().parent / "data" / "serve_faults.yaml").read_text()
)
KEYS = {"name", "method", "path", "params", "json", "headers", "status", "words", "never", "token"}


@pytest.fixture(scope="module")
def clients(serve_memory: Path) -> Any:
    apps = {
        token: create_app(str(serve_memory), hold_s=0, token="s3cret" if token else None, allowed_hosts=LOOPBACK_NAMES)
        for token in (False, True)
    }
    with TestClient(apps[False], base_url="http://127.0.0.1:8000") as open_client, \
            TestClient(apps[True], base_url="http://127.0.0.1:8000") as token_client:  # fmt: skip
        yield {False: open_client, True: token_client}


def test_every_case_is_well_formed() -> None:
    for case in CASES:
        assert set(case) <= KEYS and {"name", "path", "status"} <= set(case), case


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_serve_fault(case: dict[str, Any], clients: dict[bool, TestClient], serve_memory: Path) -> None:
    before = hashlib.sha256(serve_memory.read_bytes()).hexdigest()
    client = clients[bool(case.get("token"))]
    path = case["path"]
    if "{video}" in path:
        headers = {"Authorization": "Bearer s3cret"} if case.get("token") else {}
        video = client.get("/api/videos", headers=headers).json()[0]["video_id"]
        path = path.replace("{video}", video)
    reply = client.request(
        case.get("method", "GET"), path, params=case.get("params"), json=case.get("json"), headers=case.get("headers"),
    )  # fmt: skip
    assert reply.status_code == case["status"], reply.text[:500]
    for word in case.get("words", []):
        assert word in reply.text, reply.text[:500]
    for word in case.get("never", []):
        assert word not in reply.text, reply.text[:500]
    assert hashlib.sha256(serve_memory.read_bytes()).hexdigest() == before
