"""Faults, through the real language server (`copy-as-decode serve`) with tests/fake_worker.py as its worker,
driven by a plain LSP client written here, so that every byte it sends is the test's: malformed requests too.

Every case checks the same invariants after its fault: the server is still up and answered every request;
each edit it applied carried the buffer's version at that moment; the buffer is what the worker answered, or
unchanged; every progress that began has ended; the next edit succeeds within FAULT_RECOVERY_S; and no worker
process is left behind (each one seen, but the current one, is gone). The cases run in two editors: one that
shows change annotations (as VS Code does) and one that does not but answers window/showMessageRequest (as
Neovim 0.11 does); a result that may only be reviewed reaches either buffer only on the user's yes. The cases
that end the server check that it leaves no worker behind either, whatever the worker does with SIGTERM.
"""
import asyncio
import itertools
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest
import pytest_asyncio
from lsprotocol import types as t
from pygls.protocol import default_converter
from test_lsp_server import FAKE_WORKER, UTF16, alive, editor_apply, until

from copy_as_decode.server.worker_client import CANCEL_GRACE_S

pytestmark = [pytest.mark.model, pytest.mark.asyncio(loop_scope="module")]

TIMEOUT_S = 5  # the server's `timeout` setting here: a hung edit ends after it; the next one waits CANCEL_GRACE_S
FAULT_RECOVERY_S = 5.0  # the next edit after any fault succeeds within this
SLOW = "#slow 0.05 400\n<gen>x\n</gen>"  # 20 s unless cancelled
CAPABILITIES = {"window": {"workDoneProgress": True, "showMessage": {}},
                "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": True,
                                                                   "changeAnnotationSupport": {}}}}
# an editor that shows no change annotations: a result that may only be reviewed is asked about instead
PLAIN = {"window": {"workDoneProgress": True, "showMessage": {}},
         "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": True}}}
CONVERTER = default_converter()


class Client:
    """An editor over stdio: it keeps each document's version and text, applies workspace/applyEdit to them
    (refusing one for another version, and recording it as a violation), and records progress, messages, and
    the worker PIDs the server's stderr names (tests/fake_worker.py logs "fake worker PID: ...").

    Its user answers every review `yes` (True: keeps every hunk that needs confirmation, or answers Apply to a
    question; False: discards them, or answers Discard), after `meanwhile()` when it is set (typing while the
    question is open); `questions` and `reviews` (each annotated edit's hunk labels) record what was shown, and
    `applies` the documents of every workspace/applyEdit, applied or not."""

    def __init__(self, proc: asyncio.subprocess.Process, annotations: bool):
        self.proc, self.annotations = proc, annotations
        self.ids = itertools.count(1)
        self.answers: dict = {}  # request id -> future of its answer
        self.docs: dict[str, list] = {}  # uri -> [version, text]
        self.progress: dict[str, list[str]] = {}  # token -> kinds: begin, report..., end
        self.messages: list[tuple[int, str]] = []
        self.violations: list[str] = []
        self.pids: set[int] = set()
        self.yes = True
        self.meanwhile: Callable[[], None] | None = None
        self.questions: list[dict] = []
        self.reviews: list[list[str]] = []
        self.applies: list[str] = []
        self.reading = [asyncio.ensure_future(self._read()), asyncio.ensure_future(self._read_stderr())]

    @classmethod
    async def start(cls, capabilities: dict = CAPABILITIES, **settings) -> "Client":
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "copy_as_decode.cli", "serve", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, limit=1 << 24)
        client = cls(proc, "changeAnnotationSupport" in capabilities["workspace"]["workspaceEdit"])
        options = {"workerCommand": FAKE_WORKER, "model": "fake", "timeout": TIMEOUT_S, **settings}
        answer = await client.request("initialize", {"capabilities": capabilities,
                                                     "initializationOptions": {"copyAsDecode": options}})
        assert answer["result"]["capabilities"]["positionEncoding"] == UTF16
        client.notify("initialized", {})
        return client

    # -- the wire

    def send(self, msg) -> None:
        body = json.dumps(msg, ensure_ascii=False).encode() if not isinstance(msg, bytes) else msg
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    def request(self, method: str, params, msg_id=None) -> asyncio.Future:
        rid = next(self.ids) if msg_id is None else msg_id
        self.answers[rid] = asyncio.get_running_loop().create_future()
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.answers[rid]

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def _read(self) -> None:
        while True:
            length = 0
            while (line := await self.proc.stdout.readline()).strip():
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if not length:
                return
            msg = json.loads(await self.proc.stdout.readexactly(length))
            if "method" not in msg:
                if (future := self.answers.get(msg.get("id"))) is not None and not future.done():
                    future.set_result(msg)
            elif "id" in msg:
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": self._serve(msg["method"], msg["params"])})
            elif msg["method"] == "$/progress":
                self.progress.setdefault(msg["params"]["token"], []).append(msg["params"]["value"]["kind"])
            elif msg["method"] == "window/showMessage":
                self.messages.append((msg["params"]["type"], msg["params"]["message"]))

    async def _read_stderr(self) -> None:
        while line := await self.proc.stderr.readline():
            if line.startswith(b"fake worker ") and b": model " in line:
                self.pids.add(int(line.split()[2].rstrip(b":")))

    def _serve(self, method: str, params):
        """The server's requests: workspace/applyEdit is applied (reviewed hunks on the user's yes), a question
        answered as the user does; the others need no more than null."""
        if method == "window/showMessageRequest":
            self.questions.append(params)
            if self.meanwhile is not None:
                self.meanwhile()
            return next((a for a in params["actions"] if a["title"] == ("Apply" if self.yes else "Discard")), None)
        if method != "workspace/applyEdit":
            return None
        [change] = params["edit"]["documentChanges"]
        uri, version = change["textDocument"]["uri"], change["textDocument"]["version"]
        self.applies.append(uri)
        notes = params["edit"].get("changeAnnotations") or {}
        if notes and not self.annotations:
            self.violations.append(f"change annotations sent to an editor that does not show them ({uri})")
        asks = [notes[e["annotationId"]]["label"] for e in change["edits"]
                if notes.get(e.get("annotationId"), {}).get("needsConfirmation")]
        if asks:
            self.reviews.append(asks)
            if not self.yes:  # the user discards the review: no reason given, as VS Code's Discard
                return {"applied": False}
        doc = self.docs.get(uri)
        if doc is None or version != doc[0]:
            self.violations.append(f"an edit of {uri} for version {version}, the buffer's is {doc and doc[0]}")
            return {"applied": False, "failureReason": "version mismatch"}
        edits = [CONVERTER.structure(e, t.TextEdit) for e in change["edits"]]
        self.change(uri, editor_apply(doc[1], edits, UTF16))
        return {"applied": True}

    # -- the editor

    def open(self, uri: str, text: str) -> None:
        self.docs[uri] = [1, text]
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                              "text": text}})

    def change(self, uri: str, text: str) -> None:
        doc = self.docs[uri]
        doc[0], doc[1] = doc[0] + 1, text
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": doc[0]},
                                               "contentChanges": [{"text": text}]})

    def edit(self, uri: str, instruction: str, msg_id=None, **extra) -> asyncio.Future:
        version = self.docs[uri][0] if uri in self.docs else None
        return self.request("workspace/executeCommand", {"command": "copyAsDecode.edit", "arguments": [
            {"uri": uri, "version": version, "instruction": instruction, **extra}]}, msg_id)

    def configure(self, **settings) -> None:
        self.notify("workspace/didChangeConfiguration", {"settings": {"copyAsDecode": settings}})

    def reports(self) -> int:
        return sum(kinds.count("report") for kinds in self.progress.values())

    async def reported(self, before: int) -> None:
        await until(lambda: self.reports() > before, what="progress")

    async def close(self, timeout: float = 10) -> int:
        for task in self.reading:
            task.cancel()
        if self.proc.returncode is None:
            self.proc.kill()
        return await asyncio.wait_for(self.proc.wait(), timeout)


async def answered(future: asyncio.Future) -> dict:
    return await asyncio.wait_for(future, TIMEOUT_S + CANCEL_GRACE_S + 5)


def result(msg: dict) -> dict:
    assert "result" in msg, msg
    return msg["result"]


async def edit_ok(c: Client, uri: str, instruction: str) -> dict:
    res = result(await answered(c.edit(uri, instruction)))
    assert res["status"] == "applied", res
    return res


# -- the cases: each opens its document, makes its fault, and returns the text the buffer must hold --------------


@dataclass
class Case:
    name: str
    text: str
    run: Callable[[Client, str], Awaitable[str | None]]  # the buffer's expected text; None: unchanged
    editor: str = "server"  # the fixture that runs it: `server` (shows annotations) or `plain_server`

    def __repr__(self) -> str:
        return self.name


def applies(program: str, expected: str) -> Callable:
    async def run(c: Client, uri: str) -> str:
        await edit_ok(c, uri, program)
        return expected
    return run


def fails(instruction: str, status: str, says: str, **settings) -> Callable:
    """An edit that ends with `status`, telling the user `says`; nothing changes."""
    async def run(c: Client, uri: str) -> None:
        if settings:
            c.configure(**settings)
        try:
            res = result(await answered(c.edit(uri, instruction)))
        finally:
            if settings:
                c.configure(timeout=TIMEOUT_S, review="large")
        assert res["status"] == status and says in res.get("message", ""), res
    return run


def request_error(code: int, method: str, params) -> Callable:
    async def run(c: Client, uri: str) -> None:
        msg = await answered(c.request(method, params))
        assert msg["error"]["code"] == code, msg
    return run


def code_action(line: int, **params) -> dict:
    return {"textDocument": {"uri": "file:///faults/doc.py"},
            "range": {"start": {"line": line, "character": 0}, "end": {"line": 0, "character": 0}}, **params}


async def raw_bad_bodies(c: Client, uri: str) -> None:
    """Bodies no request id can be read from (not JSON, not an object): nothing to answer; the server reads on."""
    c.send(b"{not json")
    c.send(b"[1, 2]")
    msg = await answered(c.request("textDocument/codeAction", code_action(0, context={"diagnostics": []})))
    assert "result" in msg


async def no_jsonrpc(c: Client, uri: str) -> None:
    c.answers["bare"] = asyncio.get_running_loop().create_future()
    c.send({"id": "bare", "method": "textDocument/codeAction", "params": {}})
    assert (await answered(c.answers["bare"]))["error"]["code"] == -32600


def cancelled_by(how: str, instruction: str = SLOW) -> Callable:
    """An edit stopped from one of its four places once it reports progress; nothing changes."""
    async def run(c: Client, uri: str) -> None:
        before = c.reports()
        pending = c.edit(uri, instruction, msg_id=f"edit-{uri}")
        if instruction == SLOW:
            await c.reported(before)
        else:  # a hung worker reports nothing: the edit has begun once its progress has
            await until(lambda: any(kinds == ["begin"] for kinds in c.progress.values()), what="progress begin")
        if how == "$/cancelRequest":
            c.notify("$/cancelRequest", {"id": f"edit-{uri}"})
        elif how == "progress":
            token = next(tok for tok, kinds in c.progress.items() if kinds[-1] != "end")
            c.notify("window/workDoneProgress/cancel", {"token": token})
        elif how == "command":
            assert result(await answered(c.request("workspace/executeCommand", {
                "command": "copyAsDecode.cancel", "arguments": [{"uri": uri}]}))) == {"cancelled": 1}
        else:
            c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        msg = await answered(pending)
        if how == "$/cancelRequest":
            assert msg["error"]["code"] == -32800, msg
        else:
            assert result(msg)["status"] == "cancelled", msg
    return run


async def superseded(c: Client, uri: str) -> str:
    before = c.reports()
    first = c.edit(uri, SLOW)
    await c.reported(before)
    second = c.edit(uri, "<gen>second\n</gen>")
    assert result(await answered(first))["status"] == "superseded"
    assert result(await answered(second))["status"] == "applied"
    return "second\n"


async def stale(c: Client, uri: str) -> str:
    before = c.reports()
    pending = c.edit(uri, "#slow 0.05 10\n<gen>x\n</gen>")
    await c.reported(before)
    c.change(uri, "typed\n")
    assert result(await answered(pending))["status"] == "stale"
    return "typed\n"


async def cancel_unknown_id(c: Client, uri: str) -> str:
    c.notify("$/cancelRequest", {"id": "never-sent"})
    await edit_ok(c, uri, "<gen>b\n</gen>")
    return "b\n"


async def slow_progress(c: Client, uri: str) -> str:
    before = c.reports()
    await edit_ok(c, uri, "#slow 0.4 3\n<gen>b\n</gen>")
    assert c.reports() - before >= 2
    return "b\n"


def bad_argument(override: dict | None, says: str) -> Callable:
    """copyAsDecode.edit with one field of its argument bad (None: no argument): an error result saying `says`."""
    async def run(c: Client, uri: str) -> None:
        args = [] if override is None else [{"uri": uri, "version": 1, "instruction": "<gen>b\n</gen>", **override}]
        res = result(await answered(c.request("workspace/executeCommand", {"command": "copyAsDecode.edit",
                                                                           "arguments": args})))
        assert res["status"] == "error" and says in res["message"], res
    return run


LINES400 = "".join(f"line {k}\n" for k in range(1, 401))
HALF = '#refuse\n<copy lines="1-200"/>'  # an answer that drops lines 201-400, which the worker refuses


UNPARSED = "a = 1\nb = 2\n"
BROKEN = '#refuse unparsed\n<copy lines="1-1"/><gen>b = (2\n</gen>'  # a result the worker refuses: new parse errors


def reviewed(instruction: str, says: str, yes: bool, expected: str | None) -> Callable:
    """A result that may only be reviewed (a deletion nobody asked for, new parse errors), shown to the user:
    as hunks that need confirmation where the editor shows annotations, else as an Apply / Discard question
    that names the hunks, before any workspace/applyEdit. The buffer gets `expected` (at its version, which the
    editor checks) on the user's yes, and nothing otherwise."""
    async def run(c: Client, uri: str) -> str | None:
        c.yes, questions, reviews = yes, len(c.questions), len(c.reviews)
        try:
            res = result(await answered(c.edit(uri, instruction)))
        finally:
            c.yes = True
        assert res["status"] == ("applied" if yes else "rejected") and res["reviewed"], res
        assert says in res["warning"] and "nothing was changed" not in res["warning"], res  # it is offered
        if c.annotations:
            assert len(c.questions) == questions and len(c.reviews) == reviews + 1
        else:
            [asked] = c.questions[questions:]
            assert says in asked["message"] and "Apply it anyway?" in asked["message"], asked
            assert [a["title"] for a in asked["actions"]] == ["Apply", "Discard"] and len(c.reviews) == reviews
            assert c.applies.count(uri) == yes  # nothing is sent before the yes, and nothing after a no
        return expected if yes else None
    return run


async def typed_while_asked(c: Client, uri: str) -> str:
    """The user types while the question is open, then answers Apply: the result was for the old version, so
    nothing is applied."""
    c.meanwhile = lambda: c.change(uri, "typed\n")
    try:
        res = result(await answered(c.edit(uri, HALF)))
    finally:
        c.meanwhile = None
    assert res["status"] == "stale" and uri not in c.applies, res
    assert any("changed while the edit waited for your answer" in m for _, m in c.messages)
    return "typed\n"


async def unchanged(c: Client, uri: str) -> None:
    """The worker answers the document as it was: nothing is applied, and the user is told why."""
    res = result(await answered(c.edit(uri, '<copy lines="1-2"/>')))
    said = "No change: the model answered the text as it was"
    assert (res["status"], res["applied"], res["message"]) == ("unchanged", False, said), res
    assert (t.MessageType.Info, f"Copy-as-Decode: {said}") in c.messages and uri not in c.applies


CASES = [
    # odd documents
    Case("crlf", "a\r\nb\r\nc\r\n", applies('<copy lines="1-1"/><gen>B\n</gen><copy lines="3-3"/>', "a\r\nB\r\nc\r\n")),
    Case("bom", "\ufeffa\nb\n", applies('<copy lines="1-1"/><gen>B\n</gen>', "\ufeffa\nB\n")),
    Case("astral", "s = '😀𝔘'\nt = 1\n", applies("<copy lines=\"1-1\"/><gen>t = '🎉'\n</gen>", "s = '😀𝔘'\nt = '🎉'\n")),
    Case("long-line", "x" * 200_000 + "\nb\n", applies('<copy lines="1-1"/><gen>B\n</gen>', "x" * 200_000 + "\nB\n")),
    Case("no-final-newline", "a\nb", applies('<copy lines="1-1"/><gen>B</gen>', "a\nB")),
    # bad requests
    Case("negative-line", "a\n", request_error(-32602, "textDocument/codeAction", code_action(-1, context={
        "diagnostics": []}))),
    Case("no-context", "a\n", request_error(-32602, "textDocument/codeAction", code_action(0))),
    Case("params-a-list", "a\n", request_error(-32602, "textDocument/codeAction", [1, 2])),
    Case("unknown-method", "a\n", request_error(-32601, "copyAsDecode/nothing", {})),
    Case("no-jsonrpc", "a\n", no_jsonrpc),
    Case("unreadable-bodies", "a\n", raw_bad_bodies),
    Case("edit-without-arguments", "a\n", bad_argument(None, "expected one argument")),
    Case("edit-bad-range", "a\n", bad_argument({"range": {"start": {"line": -1, "character": 0}}}, "range")),
    Case("edit-not-open", "a\n", bad_argument({"uri": "file:///faults/not-open.py"}, "not open")),
    # racing requests
    Case("superseded", "a\n", superseded),
    Case("stale", "a\n", stale),
    Case("cancel-unknown-id", "a\n", cancel_unknown_id),
    # every way to cancel
    *[Case(f"cancel-{how}", "a\n", cancelled_by(how)) for how in ("$/cancelRequest", "progress", "command", "didClose")],
    Case("cancel-a-hung-worker", "a\n", cancelled_by("$/cancelRequest", "#hang\n")),
    # worker faults
    Case("garbage-lines", "a\n", applies("#garbage\n<gen>b\n</gen>", "b\n")),
    *[Case(f"malformed-{kind}", "a\n", fails(f"#malformed {kind}\n<gen>b\n</gen>", "error", "malformed message"))
      for kind in ("error", "id", "progress")],
    Case("wrong-id", "a\n", fails("#wrongid\n<gen>b\n</gen>", "error", "never sent")),
    Case("hang", "a\n", fails("#hang\n", "timeout", f"timed out after {TIMEOUT_S} s")),
    Case("crash-mid-edit", "a\n", fails("#slow 0.05 4\n#crash\n", "error", "exit code 3")),
    # results that may only be reviewed (ones the worker refuses: the server does not check again), in both
    # editors, with the user's yes and no
    *[Case(f"{name}-{editor}-{'yes' if yes else 'no'}", text, reviewed(program, says, yes, expected), fixture)
      for name, text, program, says, expected in (
          ("refused", "a\nb\nc\n", '#refuse\n<copy lines="1-1"/>', "deletes lines 2-3 unasked", "a\n"),
          ("unparsed", UNPARSED, BROKEN, "no longer parses where the document did", "a = 1\nb = (2\n"))
      for editor, fixture in (("annotations", "server"), ("asked", "plain_server")) for yes in (True, False)],
    Case("typed-while-asked", LINES400, typed_while_asked, "plain_server"),
    *[Case(f"unchanged-{fixture}", "a\nb\n", unchanged, fixture) for fixture in ("server", "plain_server")],
    Case("refusal", "a\nb\nc\n", fails('#refuse\n<copy lines="1-1"/>', "error", "unasked", review="never")),
    Case("unparsed-refused", UNPARSED, fails(BROKEN, "error", "no longer parses where the document did", review="never"),
         "plain_server"),
    Case("engine-error", "a\n", fails("#error 1001 too long for the context\n", "error", "too long")),
    Case("slow-progress", "a\n", slow_progress),
]


async def _serving(capabilities: dict):
    c = await Client.start(capabilities)
    yield c
    assert result(await answered(c.request("shutdown", None))) is None
    c.notify("exit", None)
    assert await asyncio.wait_for(c.proc.wait(), 10) == 0
    await c.close()
    await until(lambda: not any(alive(pid) for pid in c.pids), what="every worker to stop")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def server():
    async for c in _serving(CAPABILITIES):
        yield c


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def plain_server():
    async for c in _serving(PLAIN):
        yield c


@pytest.mark.parametrize("case", CASES, ids=repr)
async def test_fault(server: Client, plain_server: Client, case: Case):
    c = {"server": server, "plain_server": plain_server}[case.editor]
    uri = f"file:///faults/{case.name}.py"
    c.open(uri, case.text)
    asked = len(c.answers)
    expected = await case.run(c, uri)
    assert c.proc.returncode is None, "the server stopped"
    await until(lambda: all(f.done() for f in list(c.answers.values())[asked:]), what="every request answered")
    assert not c.violations, c.violations
    assert c.docs[uri][1] == (case.text if expected is None else expected)
    await until(lambda: all(kinds[-1] == "end" for kinds in c.progress.values()), what="every progress to end")
    # the next edit succeeds at once, or within the time a hung worker takes to be replaced
    probe = f"file:///faults/{case.name}-next.py"
    c.open(probe, "x\n")
    started = time.monotonic()
    res = await edit_ok(c, probe, "<gen>ok\n</gen>")
    assert time.monotonic() - started < FAULT_RECOVERY_S and c.docs[probe][1] == "ok\n"
    current = res["stats"]["pid"]
    await until(lambda: not any(alive(pid) for pid in c.pids - {current}), timeout=3, what="old workers gone")


# -- the ways out, with an edit in flight -------------------------------------------------------------------------


async def _editing(instruction: str) -> tuple[Client, asyncio.Future]:
    c = await Client.start()
    c.open("file:///faults/out.py", "a\n")
    pending = c.edit("file:///faults/out.py", instruction)
    await until(lambda: c.pids and any(kinds[:1] == ["begin"] for kinds in c.progress.values()), what="the edit")
    await asyncio.sleep(0.2)  # the worker has it
    return c, pending


@pytest.mark.parametrize("way,instruction", [
    ("shutdown+exit", SLOW), ("shutdown+exit", "#hang\n"), ("exit", "#hang\n"), ("end of input", "#hang\n"),
    ("SIGTERM", "#hang\n")])
async def test_the_server_leaves_no_worker_behind(way, instruction):
    c, pending = await _editing(instruction)
    try:
        if way == "shutdown+exit":
            started = time.monotonic()
            assert result(await answered(c.request("shutdown", None))) is None
            # an edit the worker stops is over at once; a hung worker gets the grace, then SIGTERM, then SIGKILL
            assert time.monotonic() - started < (1 if instruction == SLOW else CANCEL_GRACE_S + 3)
            assert result(await answered(pending))["status"] == "cancelled"
            c.notify("exit", None)
        elif way == "exit":
            c.notify("exit", None)
        elif way == "end of input":
            c.proc.stdin.close()
        else:
            c.proc.send_signal(signal.SIGTERM)
        rc = await asyncio.wait_for(c.proc.wait(), 10)
        assert rc == {"shutdown+exit": 0, "SIGTERM": 128 + signal.SIGTERM}.get(way, 1)
        [pid] = c.pids
        await until(lambda: not alive(pid), timeout=3, what=f"worker {pid} to stop")
    finally:
        await c.close()
        for pid in c.pids:  # whatever the test found, it leaves nothing running
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
