"""The worker process, spoken to exactly as docs/worker-protocol.md says."""
import json
import subprocess
import sys
import time

import pytest

from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program

pytestmark = pytest.mark.model

HEAD = "def add(a: int, b: int) -> int:\n    \"\"\"Return the sum of two integers, a and b.\"\"\"\n"
TAIL = "\n\nif __name__ == \"__main__\":\n    print(add(1, 2), add(3, 4), add(5, 6))\n"
DOC, GOLD = HEAD + "    return a - b\n" + TAIL, HEAD + "    return a + b\n" + TAIL


@pytest.fixture(scope="module")
def worker():
    p = subprocess.Popen([sys.executable, "-m", "copy_as_decode.cli", "worker", "--model", "tiny", "--threads", "1"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    yield p
    p.kill()


def send(p, msg):
    p.stdin.write(json.dumps({"jsonrpc": "2.0", **msg}) + "\n")
    p.stdin.flush()


def receive(p, rid, timeout=120):
    """Messages until the response to `rid`; returns (response, notifications seen)."""
    notes, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        msg = json.loads(p.stdout.readline())
        if msg.get("id") == rid and "method" not in msg:
            return msg, notes
        notes.append(msg)
    raise TimeoutError(rid)


def test_ping_reports_the_model(worker):
    send(worker, {"id": 1, "method": "ping"})
    reply, _ = receive(worker, 1)
    assert reply["result"]["model"] == "tiny" and reply["result"]["device"] == "cpu"


def test_forced_edit_returns_text_program_and_stats(worker):
    program = format_program(line_oracle(DOC, GOLD))
    send(worker, {"id": 2, "method": "edit",
                  "params": {"document": DOC, "instruction": "fix", "selector": "forced", "program": program}})
    reply, _ = receive(worker, 2)
    assert reply["result"]["text"] == GOLD
    assert reply["result"]["stats"]["spliced"] > 0


def test_bad_requests_get_errors_and_the_worker_survives(worker):
    worker.stdin.write("{not json\n")
    worker.stdin.flush()
    assert json.loads(worker.stdout.readline())["error"]["code"] == -32700
    send(worker, {"id": 3, "method": "frobnicate"})
    assert receive(worker, 3)[0]["error"]["code"] == -32601
    send(worker, {"id": 4, "method": "edit", "params": {"document": 5}})
    assert receive(worker, 4)[0]["error"]["code"] == -32602
    send(worker, {"id": 5, "method": "edit", "params": {"document": DOC, "selector": "forced",
                                                      "program": '<copy lines="1-9"/>'}})
    reply = receive(worker, 5)[0]
    assert reply["error"]["code"] == 1003 and "grammar" in reply["error"]["message"]
    send(worker, {"id": 6, "method": "edit", "params": {"document": "x = 1\n" * 20000, "instruction": "x"}})
    assert receive(worker, 6)[0]["error"]["code"] == 1001
    send(worker, {"id": 7, "method": "ping"})
    assert "result" in receive(worker, 7)[0]


def test_cancel_stops_a_running_edit_and_progress_is_reported(worker):
    send(worker, {"id": 8, "method": "edit", "params": {"document": DOC * 20, "instruction": "x",
                                                      "selector": "full", "max_new_tokens": 5000}})
    first = json.loads(worker.stdout.readline())  # progress arrives while it runs
    assert first["method"] == "progress" and first["params"]["id"] == 8
    send(worker, {"id": 9, "method": "cancel", "params": {"id": 8}})
    reply, notes = receive(worker, 8)
    assert reply["error"]["code"] == -32800
    assert all(n.get("params", {}).get("sampled", 0) < 5000 for n in notes if n.get("method") == "progress")


def test_queued_requests_are_answered_in_order(worker):
    program = format_program(line_oracle(DOC, GOLD))
    for rid in (10, 11):
        send(worker, {"id": rid, "method": "edit",
                      "params": {"document": DOC, "selector": "forced", "program": program}})
    send(worker, {"id": 12, "method": "cancel", "params": {"id": 11}})  # cancelling a queued request drops it
    first, _ = receive(worker, 10)
    second, _ = receive(worker, 11)
    assert first["result"]["text"] == GOLD
    assert second["error"]["code"] == -32800
