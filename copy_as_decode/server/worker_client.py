"""asyncio client for the decoding worker (`copy-as-decode worker`, see docs/worker-protocol.md).

One worker process serves edits one at a time; the client writes requests as they come and the worker
queues them. The client keeps the JSON-RPC bookkeeping: request ids, the future each caller awaits,
progress notifications routed to the request they are about, and `cancel` sent for a request given up.
The process itself is server/worker_process.py's: it starts on the first request, and again on the next
request after it died, so a crash costs the requests that were in flight and nothing else. `on_exit` and
`on_start` tell the owner when that happens.

Requests carry an optional key (the LSP server uses the document URI): a new request with the key of one
still in flight supersedes it. The older one is cancelled in the worker and raises `Superseded`, because
its result would be applied to a document the newer edit is about to change.

A worker that stops keeping the protocol is killed, and the next request starts a new one: one that sends a
malformed message (the requests in flight fail, saying what came), and one that does not answer an edit
within CANCEL_GRACE_S of its `cancel` (every later edit would queue behind it). Until a cancelled edit is
answered, new edits wait here rather than in the worker's queue, so they go to the new worker if it comes
to that.
"""
import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass

from copy_as_decode.core.contract import E_CANCELLED as CANCELLED

from .worker_process import CannotStart, WorkerProcess

# Seconds a worker gets to answer an edit after its `cancel`. The worker stops before its next forward pass
# (docs/worker-protocol.md); past this it is taken to hang, and is killed: a restart costs a model load, a
# hung worker every later edit.
CANCEL_GRACE_S = 3.0


class WorkerError(RuntimeError):
    """The worker answered an edit with an error, or could not be started."""

    def __init__(self, message: str, code: int = 1000, data=None):
        super().__init__(message)
        self.code, self.data = code, data


class WorkerCrashed(WorkerError):
    """The worker process ended while the request was in flight."""


class RequestCancelled(WorkerError):
    """The request was cancelled (by `cancel`, or the awaiting task was cancelled), or the worker answered that
    the edit was (its core.contract.Cancelled)."""

    def __init__(self, message: str = "cancelled"):
        super().__init__(message, CANCELLED)


class Superseded(RequestCancelled):
    """A newer request with the same key replaced this one."""


@dataclass
class ExitInfo:
    returncode: int | None
    stderr_tail: str  # last non-empty stderr line
    expected: bool  # shutdown / settings change, not a crash
    pending: int  # requests that failed with it
    reason: str = ""  # why the client killed it (a malformed message, a cancel not honoured), else empty


class _Request:
    def __init__(self, rid: int, key, on_progress):
        self.id, self.key, self.on_progress = rid, key, on_progress
        self.future: asyncio.Future = asyncio.get_running_loop().create_future()


class WorkerClient:
    def __init__(self, command: list[str], *, env: dict | None = None,
                 on_start: Callable[[bool], None] | None = None,
                 on_exit: Callable[[ExitInfo], None] | None = None,
                 stderr_sink=None):
        self.on_exit = on_exit
        self._process = WorkerProcess(command, env=env, on_start=on_start, on_line=self._receive,
                                      on_exit=self._process_exited, stderr_sink=stderr_sink)
        self._ids = itertools.count(1)
        self._last_id = 0  # ids above it were never sent: an answer to one breaks the protocol
        self._pending: dict[int, _Request] = {}  # sent and not answered
        self._by_key: dict = {}
        self._abandoned: dict[int, asyncio.TimerHandle] = {}  # cancelled, not yet answered: the grace's timer
        self._fault: str | None = None  # why the running process is being killed
        self._quiet = asyncio.Event()  # nothing abandoned and no fault: a new edit may be sent
        self._quiet.set()

    # -- the process ---------------------------------------------------------------------------------------

    @property
    def command(self) -> list[str]:
        return self._process.command

    @command.setter
    def command(self, command: list[str]) -> None:
        self._process.use(command)

    @property
    def running(self) -> bool:
        return self._process.running

    @property
    def starts(self) -> int:
        return self._process.starts

    @property
    def crashes(self) -> int:
        return self._process.crashes

    async def start(self) -> None:
        """Start the process unless it runs; raise WorkerError if it cannot be started."""
        try:
            await self._process.start()
        except CannotStart as e:
            raise WorkerError(str(e)) from e

    async def shutdown(self, timeout: float = 3.0) -> None:
        """Ask the worker to exit, then terminate and kill it if it does not; pending requests fail.
        A request made meanwhile waits and starts a new process."""
        await self._process.stop(timeout, self._farewell)

    def _farewell(self) -> None:
        for req in list(self._pending.values()):  # `cancel` first: the running edit stops, not finishes
            self._give_up(req, WorkerError("the model worker was stopped"))
        with contextlib.suppress(OSError, RuntimeError, WorkerError):
            self._send({"jsonrpc": "2.0", "id": self._next_id(), "method": "shutdown", "params": None})

    def kill(self) -> None:
        """Stop the process now, without waiting (for when the event loop is ending)."""
        self._process.kill()

    async def set_command(self, command: list[str]) -> bool:
        """Use a new command line; a running worker with another one is stopped (the next request starts
        the new one). Returns whether a running worker was stopped."""
        if list(command) == self.command:
            return False
        was_running = self.running
        self.command = command
        await self.shutdown()
        return was_running

    def _process_exited(self, returncode: int | None, stderr_tail: str, expected: bool) -> None:
        pending = list(self._pending.values())
        self._pending.clear()
        for req in pending:  # edits waiting to be sent keep their key: they go to the next process
            if self._by_key.get(req.key) is req:
                del self._by_key[req.key]
        for timer in self._abandoned.values():
            timer.cancel()
        self._abandoned.clear()
        reason, self._fault = self._fault or "", None
        self._quiet.set()
        why = (reason or f"the model worker stopped (exit code {returncode}{': ' + stderr_tail if stderr_tail else ''})"
               if not expected else "the model worker was stopped")
        for req in pending:
            if not req.future.done():
                req.future.set_exception(WorkerCrashed(why) if not expected else WorkerError(why))
        if self.on_exit:
            self.on_exit(ExitInfo(returncode, stderr_tail, expected, len(pending), reason))

    def _kill(self, reason: str) -> None:
        """The worker broke the protocol: kill it; the requests in flight fail with `reason` when it has
        exited, and new ones wait for that, then start a new worker."""
        if self._fault is None:
            self._fault = reason
            self._quiet.clear()
            self._process.log(f"worker client: {reason}")
            self._process.abort()

    # -- requests ------------------------------------------------------------------------------------------

    def _send(self, msg: dict) -> None:
        self._write(_encode(msg))

    def _write(self, line: bytes) -> None:
        if not self.running:
            raise WorkerCrashed("the model worker is not running")
        self._process.write(line)

    def _next_id(self) -> int:
        self._last_id = next(self._ids)
        return self._last_id

    def _receive(self, line: bytes) -> None:
        if self._fault is not None:
            return  # a process being killed for a fault: nothing more it says is trusted
        try:
            msg = json.loads(line)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):  # a library printing to stdout, say: not a message, and not the answer
            self._process.log(f"worker: output that is not a JSON-RPC message: {line[:200]!r}")
            return
        if (problem := _malformed(msg, self._last_id)) is not None:
            self._process.log(f"worker: malformed message ({problem}): {line[:200]!r}")
            self._kill(f"the model worker sent a malformed message ({problem}) and was stopped")
            return
        self._dispatch(msg)

    def _dispatch(self, msg: dict) -> None:
        """A message _malformed() passed: a notification, or an answer by one of the ids sent (or null)."""
        if "method" in msg:
            if msg["method"] == "progress":
                params = msg["params"]
                req = self._pending.get(params.get("id"))
                if req and req.on_progress:
                    try:
                        req.on_progress(params)
                    except Exception as e:  # a progress sink must not break the reader
                        self._process.log(f"worker client: progress callback failed: {e!r}")
            return
        if (timer := self._abandoned.pop(msg["id"], None)) is not None:  # a cancelled edit, answered in time
            timer.cancel()
            if not self._abandoned and self._fault is None:
                self._quiet.set()
        req = self._pending.pop(msg["id"], None)
        if req is None:
            if msg["id"] is None:
                self._process.log(f"worker: error without a request: {msg.get('error')}")
            return  # answer to a cancel/ping/shutdown, or to a request already given up
        if self._by_key.get(req.key) is req:
            del self._by_key[req.key]
        if req.future.done():
            return
        if "error" in msg:
            err = msg["error"]
            code, message = err["code"], err.get("message", "worker error")
            error = RequestCancelled(message) if code == CANCELLED else WorkerError(message, code, err.get("data"))
            req.future.set_exception(error)
        else:
            req.future.set_result(msg.get("result"))

    async def request(self, method: str, params=None, timeout: float | None = None):
        """A plain request (ping, ...) answered at once by the worker."""
        rid = self._next_id()
        line = _encode({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        await self.start()
        req = _Request(rid, None, None)
        self._write(line)
        self._pending[req.id] = req
        await self._process.drain()
        try:
            return await asyncio.wait_for(asyncio.shield(req.future), timeout)
        finally:
            self._pending.pop(req.id, None)

    async def edit(self, params: dict, on_progress: Callable[[dict], None] | None = None, *, key=None,
                   on_id: Callable[[int], None] | None = None, method: str = "edit") -> dict:
        """Run one edit (or `apply`, a code block merged: the same answer); returns the worker's result
        {"text", "program", "stop", "stats"}.

        Raises WorkerError (engine error, with its code; or a request that cannot be encoded, before
        anything is sent or started), WorkerCrashed (the process died; the next request restarts it),
        RequestCancelled / Superseded. Cancelling the awaiting task cancels the edit in the worker too. `on_id`
        receives the request id (for `cancel`) as soon as it is sent: after the edits cancelled before it are
        answered, or their worker killed (CANCEL_GRACE_S).
        """
        rid = self._next_id()
        line = _encode({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        await self.start()
        req = _Request(rid, key, on_progress)
        if key is not None and (old := self._by_key.get(key)) is not None:
            self._give_up(old, Superseded("superseded by a newer edit of the same document"))
        if key is not None:
            self._by_key[key] = req
        try:
            await self._quiet.wait()
            if req.future.done():  # superseded while it waited
                return req.future.result()  # raises Superseded
            await self.start()  # again: the worker may have been killed meanwhile
            self._write(line)
        except BaseException:
            if self._by_key.get(key) is req:
                del self._by_key[key]
            raise
        self._pending[req.id] = req
        if on_id:
            on_id(req.id)
        try:
            await self._process.drain()
            return await asyncio.shield(req.future)
        except asyncio.CancelledError:
            self._give_up(req, RequestCancelled())
            raise

    def cancel(self, request_id: int) -> bool:
        """Cancel an edit by id: it fails with RequestCancelled now, and the worker stops it before its next
        forward pass. Returns whether it was in flight."""
        req = self._pending.get(request_id)
        if req is None:
            return False
        self._give_up(req, RequestCancelled())
        return True

    def _give_up(self, req: _Request, error: WorkerError) -> None:
        if self._by_key.get(req.key) is req:
            del self._by_key[req.key]
        if not req.future.done():
            req.future.set_exception(error)
            req.future.exception()  # mark retrieved: nobody may be awaiting it any more
        if self._pending.pop(req.id, None) is not None and self.running:
            try:
                self._send({"jsonrpc": "2.0", "id": self._next_id(), "method": "cancel", "params": {"id": req.id}})
            except (OSError, RuntimeError, WorkerError):
                return
            self._quiet.clear()
            self._abandoned[req.id] = asyncio.get_running_loop().call_later(
                CANCEL_GRACE_S, self._kill, f"the model worker did not stop a cancelled edit within "
                                            f"{CANCEL_GRACE_S:g} s and was stopped")


def _malformed(msg: dict, last_id: int) -> str | None:
    """What in a message of the worker breaks docs/worker-protocol.md, in words, or None."""
    def sent(rid) -> bool:
        return type(rid) is int and 1 <= rid <= last_id

    if "method" in msg:
        params = msg.get("params")
        if msg["method"] == "progress" and not isinstance(params, dict):
            return "progress whose params are not an object"
        if msg["method"] == "progress" and not sent(params.get("id")):
            return f"progress of id {params.get('id')!r}, never sent"
        return None
    if "id" not in msg:
        return "neither a method nor an id"
    if msg["id"] is not None and not sent(msg["id"]):
        return f"an answer to id {msg['id']!r}, never sent"
    if "error" in msg:
        err = msg["error"]
        if not (isinstance(err, dict) and type(err.get("code")) is int and isinstance(err.get("message", ""), str)
                and isinstance(err.get("data"), dict | None)):
            return "an error that is not an object with an integer code"
    elif "result" not in msg:
        return "an answer with neither result nor error"
    return None


def _encode(msg: dict) -> bytes:
    try:
        return json.dumps(msg, ensure_ascii=False).encode("utf-8") + b"\n"
    except UnicodeEncodeError as e:  # a lone surrogate: JSON carries it, UTF-8 cannot
        raise WorkerError(f"the request holds text that is not valid Unicode "
                          f"(U+{ord(e.object[e.start]):04X}); nothing was sent") from None
