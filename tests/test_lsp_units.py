"""The language server's parts without a client: positions, settings, and the worker client against
tests/fake_worker.py."""
import asyncio
import io
import os
import signal
import sys
from pathlib import Path

import pytest
from lsprotocol import types as t

from copy_as_decode.core.text_edits import text_edits
from copy_as_decode.server import positions
from copy_as_decode.server.settings import Settings
from copy_as_decode.server.worker_client import RequestCancelled, Superseded, WorkerClient, WorkerCrashed, WorkerError

FAKE = [sys.executable, str(Path(__file__).resolve().parent / "fake_worker.py")]
UTF8, UTF16, UTF32 = t.PositionEncodingKind.Utf8, t.PositionEncodingKind.Utf16, t.PositionEncodingKind.Utf32


def P(line, character):
    return t.Position(line=line, character=character)


# -- positions ------------------------------------------------------------------------------------------------


def test_line_index_units():
    text = "a😀b中c\r\nx\ry\n"
    for enc, widths in ((UTF16, [1, 2, 1, 1, 1]), (UTF8, [1, 4, 1, 3, 1]), (UTF32, [1, 1, 1, 1, 1])):
        index = positions.LineIndex(text, enc)
        col = 0
        for k, w in enumerate(widths):
            assert index.offset_at(P(0, col)) == k and index.position_at(k) == P(0, col)
            col += w
        assert index.offset_at(P(0, col)) == 5 and index.offset_at(P(0, col + 9)) == 5  # clamps to the line end
        # "\r\n", "\r" and "\n" all break lines, as LSP says
        assert index.offset_at(P(1, 0)) == 7 and index.offset_at(P(2, 0)) == 9 and index.offset_at(P(3, 0)) == 11
        assert index.position_at(6) == P(0, col)  # inside "\r\n": the end of the line
        assert index.offset_at(P(7, 0)) == len(text)


def test_whole_lines():
    text = "ab\ncd\nef"
    assert positions.whole_lines(text, 1, 1) == (0, 3)
    assert positions.whole_lines(text, 1, 3) == (0, 3)  # ends at column 0 of the next line: not taken
    assert positions.whole_lines(text, 1, 4) == (0, 6)
    assert positions.whole_lines(text, 7, 8) == (6, 8)  # last line without newline
    assert positions.whole_lines("a\r\nb\r\n", 0, 3) == (0, 3)


def test_to_lsp_edits_offsets_and_crlf():
    full = "zero\r\none\r\ntwo\r\n"
    base = full.index("one")
    old = full[base:]
    for new in ("one\ntwo\r\n", "ONE\r\ntwo\r\n", "one\r\ntwo\r\nthree\r\n", ""):
        edits = positions.to_lsp_edits(full, base, text_edits(old, new), positions.LineIndex(full))
        assert positions.apply_lsp_edits(full, edits) == full[:base] + new
        for e in edits:
            assert e.range.start.line >= 1


def test_to_lsp_edits_widens_a_cut_crlf():
    from copy_as_decode.core.text_edits import TextEdit
    full = "a\r\nb\r\n"
    # delete the "\r" of line 0 only: LSP cannot point between "\r" and "\n"
    [e] = positions.to_lsp_edits(full, 0, [TextEdit(0, 1, 0, 2, "")], positions.LineIndex(full))
    assert e.new_text == "\n" and (e.range.start, e.range.end) == (P(0, 1), P(1, 0))
    assert positions.apply_lsp_edits(full, [e]) == "a\nb\r\n"


def test_hunk_labels():
    def labels(old, new, encoding=UTF16):
        index = positions.LineIndex(old, encoding)
        hunks = [positions.hunk(index, e) for e in positions.to_lsp_edits(old, 0, text_edits(old, new), index)]
        return [(h.label, h.changed) for h in hunks]

    five = "a\nb\nc\nd\ne\n"
    assert labels(five, "a\nB\nc\nd\ne\n") == [("line 2: replace 1 line", 1)]
    assert labels(five, "a\nx\ny\nb\nc\nd\ne\n") == [("line 2: insert 2 lines", 2)]
    assert labels(five, "a\ne\n") == [("lines 2–4: delete 3 lines", 3)]
    assert labels(five, "a\nB\nC\ne\n") == [("lines 2–4: replace 3 lines with 2", 3)]
    assert labels(five, "a\nb\nc\nd\ne\nf\n") == [("line 6: insert 1 line", 1)]  # at the end
    assert labels(five, "") == [("lines 1–5: delete 5 lines", 5)]
    assert labels("a\nb", "a\n") == [("line 2: delete 1 line", 1)]  # a last line without newline
    assert labels("a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n") == [("line 2: replace 1 line", 1)]
    assert labels("a\rb\rc\r", "a\rb\rC\r") == [("line 3: replace 1 line", 1)]  # lines as LSP counts them
    assert labels("😀\nb\n", "😀\nB\nb2\n", UTF8) == [("line 2: replace 1 line with 2", 2)]


# -- settings -------------------------------------------------------------------------------------------------


def test_settings():
    s = Settings()
    assert s.command() == [sys.executable, "-m", "copy_as_decode.cli", "worker", "--model", "qwen2.5-coder-1.5b"]
    assert s.max_new_tokens is None and s.budget == "auto"
    s2, errors = s.merged({"copyAsDecode": {"model": "tiny", "maxNewTokens": 0, "timeout": 5, "workerCommand": "w --x",
                                            "unknown": 1, "device": None, "dtype": "bfloat16"}})
    assert (s2.model, s2.max_new_tokens, s2.timeout, s2.device) == ("tiny", None, 5.0, "")
    assert s2.command() == ["w", "--x", "--model", "tiny", "--dtype", "bfloat16"]
    assert len(errors) == 1 and "maxNewTokens" in errors[0]
    assert s.restart_needed(s2) and not s2.restart_needed(s2.merged({"selector": "full"})[0])
    assert s.merged(None) == (s, [])


def test_settings_review():
    s = Settings()
    assert (s.review, s.review_lines) == ("large", 20)
    assert s.reviews(21) and not s.reviews(20)
    never, errors = s.merged({"review": "never", "reviewLines": 0})
    assert not errors and not never.reviews(1000)
    always = never.merged({"review": "always"})[0]
    assert always.reviews(0) and not always.restart_needed(s)
    bad, errors = s.merged({"review": "sometimes", "reviewLines": -1})
    assert bad == s and len(errors) == 2 and "reviewLines" in errors[1]
    assert s.merged({"reviewLines": True})[1]


def test_settings_budget():
    s, errors = Settings().merged({"maxNewTokens": 500})
    assert (s.max_new_tokens, s.budget, errors) == (500, 500, [])
    assert Settings().merged({"maxNewTokens": "auto"})[0].budget == "auto"
    # beyond a built-in model's context: refused, the value before stays
    s2, [error] = s.merged({"maxNewTokens": 100000})
    assert s2.max_new_tokens == 500 and "maxNewTokens" in error and "32768" in error
    s3, [error] = s.merged({"model": "qwen2.5-coder-1.5b", "maxNewTokens": 40000})
    assert (s3.model, s3.max_new_tokens) == ("qwen2.5-coder-1.5b", 500)
    # another model's context is only known to its worker
    assert Settings().merged({"model": "org/other", "maxNewTokens": 100000})[0].max_new_tokens == 100000


# -- worker client --------------------------------------------------------------------------------------------


async def client(**kw):
    events = {"starts": [], "exits": []}
    wc = WorkerClient(FAKE + ["--model", "m"], stderr_sink=io.StringIO(),
                      on_start=events["starts"].append, on_exit=events["exits"].append, **kw)
    return wc, events


async def test_worker_client_edit_progress_and_errors():
    wc, events = await client()
    try:
        seen = []
        res = await wc.edit({"document": "a\nb\n", "instruction": '#slow 0.01 3\n<copy lines="1-1"/><gen>B\n</gen>'},
                            seen.append)
        assert res["text"] == "a\nB\n" and res["stats"]["model"] == "m"
        assert [p["sampled"] for p in seen][:3] == [1, 2, 3]
        assert res["stop"] == "eos"
        with pytest.raises(WorkerError) as err:
            await wc.edit({"document": "a\n", "instruction": '<copy lines="2-2"/>'})
        assert err.value.code == 1003 and not isinstance(err.value, RequestCancelled)
        with pytest.raises(WorkerError) as err:
            await wc.edit({"document": "", "instruction": "<gen>hello</gen>", "max_new_tokens": 3})
        assert err.value.code == 1004
        assert str(err.value) == "the edit did not finish within 3 tokens; nothing was changed"
        assert err.value.data["stop"] == "cap" and err.value.data["limit"] == 3
        assert await wc.request("ping") == {"model": "m", "device": "cpu", "dtype": "float32", "context": None}
        assert events["starts"] == [False]
    finally:
        await wc.shutdown()
    assert events["exits"][-1].expected and not wc.running


async def test_worker_client_cancel_supersede_and_queue():
    wc, _ = await client()
    try:
        ids = []
        slow = asyncio.ensure_future(wc.edit({"document": "", "instruction": "#slow 0.05 200\n"}, key="A",
                                             on_id=ids.append))
        await asyncio.sleep(0.2)
        other = asyncio.ensure_future(wc.edit({"document": "", "instruction": "<gen>o</gen>"}, key="B"))
        newer = asyncio.ensure_future(wc.edit({"document": "", "instruction": "<gen>n</gen>"}, key="A"))
        with pytest.raises(Superseded):
            await slow
        # the superseded edit stops at its next step, so the queue behind it drains quickly
        assert (await asyncio.wait_for(newer, 3))["text"] == "n"
        assert (await asyncio.wait_for(other, 3))["text"] == "o"
        # cancel by id, and by cancelling the awaiting task
        ids.clear()
        slow = asyncio.ensure_future(wc.edit({"document": "", "instruction": "#slow 0.05 200\n"}, on_id=ids.append))
        await asyncio.sleep(0.1)
        assert wc.cancel(ids[0]) and not wc.cancel(ids[0])
        with pytest.raises(RequestCancelled):
            await slow
        slow = asyncio.ensure_future(wc.edit({"document": "", "instruction": "#slow 0.05 200\n"}))
        await asyncio.sleep(0.1)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        assert (await asyncio.wait_for(wc.edit({"document": "", "instruction": "<gen>x</gen>"}), 3))["text"] == "x"
    finally:
        await wc.shutdown()


async def test_worker_client_refuses_what_it_cannot_encode():
    wc, _ = await client()
    try:
        with pytest.raises(WorkerError, match=r"not valid Unicode \(U\+D800\); nothing was sent"):
            await wc.edit({"document": "a\ud800\n", "instruction": "<gen>x</gen>"}, key="A")
        assert not wc._pending and not wc._by_key and wc.starts == 0  # nothing started, nothing left behind
        assert (await wc.edit({"document": "", "instruction": "<gen>x</gen>"}, key="A"))["text"] == "x"
    finally:
        await wc.shutdown()


async def test_worker_client_shutdown_stops_the_running_edit():
    sink = io.StringIO()
    wc = WorkerClient(FAKE, stderr_sink=sink)
    slow = asyncio.ensure_future(wc.edit({"document": "", "instruction": "#slow 0.05 200\n"}))
    while not wc._pending:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    started = asyncio.get_running_loop().time()
    await wc.shutdown()
    assert asyncio.get_running_loop().time() - started < 1  # not the 3 s grace before terminate
    with pytest.raises(WorkerError, match="was stopped") as err:
        await slow
    assert not isinstance(err.value, (RequestCancelled, WorkerCrashed))
    assert "stopped (cancelled)" in sink.getvalue()  # `cancel` went out before `shutdown`
    assert not wc._pending and not wc.running


async def test_worker_client_restarts_after_crash():
    wc, events = await client()
    try:
        first = await wc.edit({"document": "", "instruction": "<gen>1</gen>"})
        os.kill(first["stats"]["pid"], signal.SIGKILL)
        for _ in range(300):
            if events["exits"]:
                break
            await asyncio.sleep(0.01)
        [exit_info] = events["exits"]
        assert not exit_info.expected and exit_info.returncode == -signal.SIGKILL and exit_info.pending == 0
        second = await wc.edit({"document": "", "instruction": "<gen>2</gen>"})
        assert second["stats"]["pid"] != first["stats"]["pid"] and events["starts"] == [False, True]
        with pytest.raises(WorkerCrashed, match="exit code 3: fake worker: crashing"):
            await wc.edit({"document": "", "instruction": "#crash\n"})
        assert (await wc.edit({"document": "", "instruction": "<gen>3</gen>"}))["text"] == "3"
        assert wc.crashes == 2 and events["starts"][-1] is True
    finally:
        await wc.shutdown()


async def test_worker_client_set_command_and_bad_command():
    wc, events = await client()
    try:
        first = await wc.edit({"document": "", "instruction": "<gen>1</gen>"})
        assert await wc.set_command(FAKE + ["--model", "m2"])
        second = await wc.edit({"document": "", "instruction": "<gen>2</gen>"})
        assert second["stats"]["model"] == "m2" and second["stats"]["pid"] != first["stats"]["pid"]
        assert events["starts"] == [False, False]  # a settings restart is not reported as a crash restart
        assert not await wc.set_command(FAKE + ["--model", "m2"])
    finally:
        await wc.shutdown()
    bad = WorkerClient(["/nonexistent/worker"])
    with pytest.raises(WorkerError, match="cannot start the model worker"):
        await bad.edit({"document": "", "instruction": ""})
