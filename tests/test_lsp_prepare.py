"""copyAsDecode.prepare through the real language server with tests/fake_worker.py as the worker: the place it
forwards, that a change of the document drops it, that a newer one replaces it, and that an edit never waits
for one (engine/read_ahead.py reads the window; here the worker only answers)."""
import asyncio

import pytest
from lsprotocol import types as t
from test_lsp_server import edit, session

DOC = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
SLOW = "#prepare 30\n" + DOC  # the fake worker takes 30 s over this document's prepare, cancellable
URI = "file:///tmp/copy-as-decode-test/prepare/a.py"

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def prepare(client, arg):
    return await client.workspace_execute_command_async(
        t.ExecuteCommandParams(command="copyAsDecode.prepare", arguments=[arg]))


async def test_a_prepare_sends_the_place_and_answers_what_was_read():
    async with session() as (client, editor):
        editor.open(URI, DOC)
        res = await prepare(client, {"uri": URI, "version": 1, "position": {"line": 4, "character": 2}})
        assert res["prepared"] is True and res["at"] == 5 and res["lines"] == [1, 6] and res["tokens"] == len(DOC)
        sel = {"start": {"line": 4, "character": 0}, "end": {"line": 5, "character": 3}}
        res = await prepare(client, {"uri": URI, "version": 1, "range": sel})
        assert res["prepared"] is True and res["lines"] == [5, 6]
        assert editor.text(URI) == DOC  # nothing written


async def test_a_stale_unknown_or_unreadable_prepare_reads_nothing():
    async with session() as (client, editor):
        editor.open(URI, DOC)
        stale = await prepare(client, {"uri": URI, "version": 7})
        unknown = await prepare(client, {"uri": URI + "x", "version": 1})
        bad = await prepare(client, {"version": 1})
        assert [r["prepared"] for r in (stale, unknown, bad)] == [False] * 3
        assert "not open at that version" in stale["reason"] and "missing uri" in bad["reason"]


async def test_a_change_of_the_document_drops_the_prepare():
    async with session() as (client, editor):
        editor.open(URI, SLOW)
        task = asyncio.ensure_future(prepare(client, {"uri": URI, "version": 1}))
        await asyncio.sleep(0.5)
        editor.change(URI, SLOW + "# typed\n")
        res = await asyncio.wait_for(task, 5)
        assert res == {"prepared": False, "reason": "the document changed"}


async def test_a_newer_prepare_replaces_the_older_and_an_edit_does_not_wait_for_one():
    async with session() as (client, editor):
        editor.open(URI, SLOW)
        first = asyncio.ensure_future(prepare(client, {"uri": URI, "version": 1}))
        await asyncio.sleep(0.5)
        second = asyncio.ensure_future(prepare(client, {"uri": URI, "version": 1}))
        older = await asyncio.wait_for(first, 5)
        assert older["prepared"] is False and "superseded" in older["reason"]
        # the worker answers one request at a time: a prepare gives way to the edit, which does not wait its 30 s
        res = await asyncio.wait_for(edit(client, URI, '<copy lines="1-7"/><gen>x = 1\n</gen>', editor=editor), 10)
        assert res["status"] == "applied" and editor.text(URI) == SLOW + "x = 1\n"
        assert (await asyncio.wait_for(second, 5)) == {"prepared": False, "reason": "cancelled"}
