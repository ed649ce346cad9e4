"""The worker, spoken to exactly as docs/worker-protocol.md says: the process with the tiny model, and its
request handling (engine/worker.py) with a scripted engine, no model."""
import io
import json
import os
import subprocess
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from copy_as_decode.core.contract import UNPARSED, IncompleteEdit
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program
from copy_as_decode.engine.worker import Worker

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


@pytest.mark.model
def test_ping_reports_the_model(worker):
    send(worker, {"id": 1, "method": "ping"})
    reply, _ = receive(worker, 1)
    assert reply["result"]["model"] == "tiny" and reply["result"]["device"] == "cpu"


@pytest.mark.model
def test_forced_edit_returns_text_program_and_stats(worker):
    program = format_program(line_oracle(DOC, GOLD))
    send(worker, {"id": 2, "method": "edit",
                  "params": {"document": DOC, "instruction": "fix", "selector": "forced", "program": program}})
    reply, _ = receive(worker, 2)
    assert reply["result"]["text"] == GOLD
    assert reply["result"]["stats"]["spliced"] > 0


@pytest.mark.model
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


@pytest.mark.model
def test_cancel_stops_a_running_edit_and_progress_is_reported(worker):
    send(worker, {"id": 8, "method": "edit", "params": {"document": DOC * 20, "instruction": "x",
                                                      "selector": "full", "max_new_tokens": 5000}})
    first = json.loads(worker.stdout.readline())  # progress arrives while it runs
    assert first["method"] == "progress" and first["params"]["id"] == 8
    send(worker, {"id": 9, "method": "cancel", "params": {"id": 8}})
    reply, notes = receive(worker, 8)
    assert reply["error"]["code"] == -32800
    assert all(n.get("params", {}).get("sampled", 0) < 5000 for n in notes if n.get("method") == "progress")


@pytest.mark.model
def test_queued_requests_are_answered_in_order(worker):
    program = format_program(line_oracle(DOC, GOLD))
    for rid in (10, 11):
        send(worker, {"id": rid, "method": "edit",
                      "params": {"document": DOC, "selector": "forced", "program": program}})
    send(worker, {"id": 12, "method": "cancel", "params": {"id": 11}})  # cancelling a queued request drops it
    second, notes = receive(worker, 11)  # at once: perhaps before the edit ahead of it is answered
    first = next((m for m in notes if m.get("id") == 10), None) or receive(worker, 10)[0]
    assert first["result"]["text"] == GOLD
    assert second["error"]["code"] == -32800


# -- request handling, with a scripted engine -----------------------------------------------------------------


class ScriptedEngine:
    """Upper-cases the document; the instruction "run" runs until cancelled, "wait" for 0.2 s, "same" answers
    the document as it was, "unparsed" refuses its result as one with new parse errors (engine/front.py)."""
    model_name, device, dtype, context = "scripted", "cpu", "float32", 1000

    def __init__(self):
        self.running = threading.Event()

    def resolve(self, request):
        return request

    def run(self, request):
        self.running.set()
        instruction, hooks = request.instruction, request.hooks
        end = time.monotonic() + (0.2 if instruction == "wait" else 3600 if instruction == "run" else 0)
        while time.monotonic() < end:
            hooks.check()
            time.sleep(0.01)
        stats = SimpleNamespace(stop="eos", as_dict=lambda: {"stop": "eos"})
        if instruction == "unparsed":
            raise IncompleteEdit(UNPARSED, 0, stats, why="the result has parse errors the document had not: line 1",
                                 text=request.document.upper())
        text = request.document if instruction == "same" else request.document.upper()
        return SimpleNamespace(text=text, stats=stats, program=None)


class Output(io.StringIO):
    """The worker's stdout, read as messages; `closed_after`: writes after that many lines fail, as on a pipe
    whose reader is gone."""

    def __init__(self, closed_after: int | None = None):
        super().__init__()
        self.lock, self.closed_after = threading.Lock(), closed_after

    def write(self, text: str) -> int:
        with self.lock:
            if self.closed_after is not None and self.getvalue().count("\n") >= self.closed_after:
                raise BrokenPipeError(32, "Broken pipe")
            return super().write(text)

    def messages(self) -> list[dict]:
        with self.lock:
            return [json.loads(line) for line in self.getvalue().splitlines()]

    def answer(self, rid, timeout: float = 5.0) -> dict:
        end = time.monotonic() + timeout
        while not (found := [m for m in self.messages() if m.get("id") == rid and "method" not in m]):
            if time.monotonic() > end:
                raise TimeoutError(rid)
            time.sleep(0.01)
        return found[0]


def serving(out: Output):
    """A worker serving in a thread; returns it, its engine, a function that sends it a request and the thread."""
    engine = ScriptedEngine()
    worker = Worker(engine, out=out)
    read, write = os.pipe()
    stdin = os.fdopen(write, "w", buffering=1)
    thread = threading.Thread(target=worker.serve, args=(os.fdopen(read),), daemon=True)
    thread.start()

    def send(msg) -> None:
        stdin.write((msg if isinstance(msg, str) else json.dumps({"jsonrpc": "2.0", **msg})) + "\n")

    send.close = stdin.close
    return worker, engine, send, thread


def test_malformed_requests_are_answered_and_the_reader_reads_on():
    out = Output()
    _, _, send, thread = serving(out)
    send({"id": 1, "method": "edit", "params": ["not", "an", "object"]})
    send({"id": [2], "method": "ping"})
    send({"id": 3, "method": "frobnicate"})
    send({"id": 4, "method": "cancel", "params": {"id": [1]}})
    send({"id": 5, "method": "cancel", "params": {"id": 999}})  # nothing to cancel: answered null
    send("[1, 2]")
    send({"id": 6, "method": "ping"})
    assert out.answer(6)["result"]["model"] == "scripted"
    assert out.answer(1)["error"]["code"] == -32602 and out.answer(3)["error"]["code"] == -32601
    assert out.answer(4)["error"]["code"] == -32602 and out.answer(5)["result"] is None
    assert [m["error"]["code"] for m in out.messages() if m.get("id") is None] == [-32600, -32600]
    send.close()
    thread.join(5)
    assert not thread.is_alive()


def test_edits_queue_and_a_queued_one_is_cancelled_at_once():
    out = Output()
    worker, engine, send, thread = serving(out)
    send({"id": 1, "method": "edit", "params": {"document": "a\n", "instruction": "run"}})
    assert engine.running.wait(5)
    send({"id": 2, "method": "edit", "params": {"document": "b\n", "instruction": "x"}})
    send({"id": 2, "method": "edit", "params": {"document": "c\n", "instruction": "x"}})  # the id of one in flight
    send({"id": 3, "method": "cancel", "params": {"id": 2}})
    assert out.answer(2)["error"]["code"] == -32800  # while edit 1 still runs
    assert [m["error"]["code"] for m in out.messages() if m.get("id") is None] == [-32600]
    send({"id": 4, "method": "edit", "params": {"document": "d\n", "instruction": "x"}})
    send({"id": 5, "method": "cancel", "params": {"id": 1}})
    assert out.answer(1)["error"]["code"] == -32800
    assert out.answer(4)["result"]["text"] == "D\n"
    assert len([m for m in out.messages() if m.get("id") == 2]) == 1  # the cancelled edit never ran
    send.close()
    thread.join(5)
    assert not thread.is_alive() and not worker.queued and worker.current is None


def test_the_end_of_input_lets_the_running_edit_finish():
    out = Output()
    _, engine, send, thread = serving(out)
    send({"id": 1, "method": "edit", "params": {"document": "a\n", "instruction": "wait"}})
    assert engine.running.wait(5)
    send.close()
    thread.join(5)
    assert not thread.is_alive() and out.answer(1, 0)["result"]["text"] == "A\n"


def test_a_closed_output_stops_the_running_edit():
    out = Output(closed_after=0)
    worker, engine, send, thread = serving(out)
    send({"id": 1, "method": "edit", "params": {"document": "a\n", "instruction": "run"}})
    assert engine.running.wait(5)
    send({"id": 2, "method": "ping"})  # its answer cannot be written: nobody reads any more
    send.close()
    thread.join(5)
    assert not thread.is_alive() and worker.stopping and out.messages() == []


def test_a_result_that_changes_nothing_says_so():
    """An edit answered with the document as it was, and an apply of a block the file already holds: status
    `unchanged` and why; an edit that changes the text carries no status."""
    out = Output()
    _, _, send, thread = serving(out)
    send({"id": 1, "method": "edit", "params": {"document": "a\r\nb\n", "instruction": "same"}})
    send({"id": 2, "method": "edit", "params": {"document": "a\n", "instruction": "x"}})
    fn = "def f():\n    return 1\n"
    send({"id": 3, "method": "apply", "params": {"document": fn, "block": fn}})
    send({"id": 4, "method": "apply", "params": {"document": fn, "block": "def f():\n    return 2\n"}})
    same = out.answer(1)["result"]
    assert (same["text"], same["status"], same["message"]) == ("a\r\nb\n", "unchanged",
                                                               "the model answered the text as it was")
    assert out.answer(2)["result"]["text"] == "A\n" and "status" not in out.answer(2)["result"]
    already = out.answer(3)["result"]
    assert (already["text"], already["status"], already["message"]) == (fn, "unchanged",
                                                                         "the block is already in the file")
    assert "status" not in out.answer(4)["result"] and out.answer(4)["result"]["text"].endswith("return 2\n")
    send.close()
    thread.join(5)


def test_a_result_with_new_parse_errors_is_refused_with_its_text():
    """Stop `unparsed` passes through as `skipped` does: error 1004 with the stop and the refused result, which
    an editor offers only for review (docs/worker-protocol.md)."""
    out = Output()
    _, _, send, thread = serving(out)
    send({"id": 1, "method": "edit", "params": {"document": "a\n", "instruction": "unparsed"}})
    error = out.answer(1)["error"]
    assert error["code"] == 1004 and error["message"] == ("the result has parse errors the document had not: "
                                                          "line 1; nothing was changed")
    assert error["data"] == {"stop": "unparsed", "limit": 0, "stats": {"stop": "eos"}, "text": "A\n"}
    send.close()
    thread.join(5)


LONG = "".join(f"def f{k}(x):\n    return x + {k}\n\n" for k in range(40))  # 120 lines


def test_locate_says_where_an_edit_lands_without_decoding(worker):
    send(worker, {"id": 20, "method": "locate", "params": {"document": LONG, "instruction": "Fix `f3`: add 4."}})
    reply, _ = receive(worker, 20)
    assert reply["result"] == {"windows": [{"lines": [10, 12], "symbols": ["f3"]}], "reason": "named: f3",
                               "decisive": True, "candidates": []}
    # no name: the search's hits, which the model chooses among, with its probability
    said = "The function that adds 31 should add 32."
    send(worker, {"id": 21, "method": "locate", "params": {"document": LONG, "instruction": said}})
    result = receive(worker, 21)[0]["result"]
    assert isinstance(result["decisive"], bool) and result["candidates"]
    assert result["windows"][0]["lines"] == result["candidates"][0]["lines"]
    ps = [c["p"] for c in result["candidates"]]
    assert sum(p is not None for p in ps) == 1 and all(0 < p <= 1 for p in ps if p is not None)
    assert result["candidates"][0]["first"].startswith("def f")
    send(worker, {"id": 22, "method": "locate", "params": {"document": LONG, "instruction": "x", "lines": [0, 2]}})
    assert "outside the document" in receive(worker, 22)[0]["error"]["message"]


def test_an_edit_announces_its_place_before_it_decodes(worker):
    send(worker, {"id": 23, "method": "edit", "params": {"document": LONG, "instruction": "Fix `f3`: add 4.",
                                                       "max_new_tokens": 40}})
    reply, notes = receive(worker, 23)
    progress = [n["params"] for n in notes if n.get("method") == "progress"]
    assert progress[0]["place"] == {"lines": [10, 12], "symbols": ["f3"], "window": 1, "of": 1,
                                    "reason": "named: f3"}
    assert not any("place" in p for p in progress[1:])
    partials = [p["partial"] for p in progress if "partial" in p]
    assert all(p["lines"] == [10, 12] and p["text"].endswith("\n") for p in partials)
    stats = reply["result"]["stats"] if "result" in reply else reply["error"]["data"]["stats"]
    assert stats["first_token_s"] > 0
