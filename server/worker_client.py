"""asyncio client for the decoding worker (`copy-as-decode worker`, see docs/worker-protocol.md).

One worker process serves edits one at a time; the client writes requests as they come and the worker
queues them. The process starts on the first request, and again on the next request after it died, so a
crash costs the requests that were in flight and nothing else. `on_exit` and `on_start` tell the owner
when that happens.

Requests carry an optional key (the LSP server uses the document URI): a new request with the key of one
still in flight supersedes it. The older one is cancelled in the worker and raises `Superseded`, because
its result would be applied to a document the newer edit is about to change.
"""
import asyncio
import collections
import contextlib
import itertools
import json
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass

from copy_as_decode.core.contract import E_CANCELLED as CANCELLED

STREAM_LIMIT = 1 << 30  # one line per message; documents can be large


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


class _Request:
    def __init__(self, rid: int, key, on_progress):
        self.id, self.key, self.on_progress = rid, key, on_progress
        self.future: asyncio.Future = asyncio.get_running_loop().create_future()


class WorkerClient:
    def __init__(self, command: list[str], *, env: dict | None = None,
                 on_start: Callable[[bool], None] | None = None,
                 on_exit: Callable[[ExitInfo], None] | None = None,
                 stderr_sink=None):
        self.command = list(command)
        self.env = env
        self.on_start, self.on_exit = on_start, on_exit
        self.stderr_sink = stderr_sink if stderr_sink is not None else sys.stderr
        self.starts = 0  # processes started so far
        self.crashes = 0  # processes that ended without being asked to
        self._proc: asyncio.subprocess.Process | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, _Request] = {}
        self._by_key: dict = {}
        self._stderr_tail = collections.deque(maxlen=20)
        self._start_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task] = []
        self._expected_exit = False
        self._crashed_last = False

    # -- process -------------------------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self.running else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    async def start(self) -> None:
        """Start the process unless it runs; raise WorkerError if it cannot be started."""
        async with self._start_lock:
            if self.running:
                return
            await self._reap()
            try:
                self._proc = await asyncio.create_subprocess_exec(
                    *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, env=self.env, limit=STREAM_LIMIT)
            except OSError as e:
                raise WorkerError(f"cannot start the model worker ({self.command[0]}): {e.strerror or e}") from e
            restarted = self._crashed_last
            self.starts += 1
            self._expected_exit = False
            self._crashed_last = False
            self._stderr_tail.clear()
            proc = self._proc
            stderr_task = asyncio.create_task(self._read_stderr(proc))
            self._tasks = [asyncio.create_task(self._read_stdout(proc, stderr_task)), stderr_task]
            if self.on_start:
                self.on_start(restarted)

    async def _reap(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
            self._tasks = []

    async def _read_stdout(self, proc, stderr_task) -> None:
        try:
            while line := await proc.stdout.readline():
                try:
                    msg = json.loads(line)
                except ValueError:
                    self._log(f"worker: unparsable output: {line[:200]!r}")
                    continue
                if isinstance(msg, dict):
                    self._dispatch(msg)
        except (ValueError, ConnectionError) as e:  # line over the limit, broken pipe
            self._log(f"worker: output stream failed: {e}")
            proc.kill()
        except asyncio.CancelledError:
            if self._expected_exit:  # killed as the event loop ends: reap it while the loop still can
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(proc.wait(), 2.0)
            raise
        rc = await proc.wait()
        try:  # its last stderr lines say why it stopped
            await asyncio.wait_for(asyncio.shield(stderr_task), 1.0)
        except (TimeoutError, Exception):
            pass
        self._exited(proc, rc)

    async def _read_stderr(self, proc) -> None:
        while line := await proc.stderr.readline():
            text = line.decode("utf-8", "replace").rstrip()
            if text:
                self._stderr_tail.append(text)
            self._log(text)

    def _log(self, text: str) -> None:
        try:
            print(text, file=self.stderr_sink, flush=True)
        except (OSError, ValueError):
            pass

    def _exited(self, proc, rc) -> None:
        if proc is not self._proc:
            return
        expected = self._expected_exit
        tail = self._stderr_tail[-1] if self._stderr_tail else ""
        pending = list(self._pending.values())
        self._pending.clear()
        self._by_key.clear()
        if not expected:
            self.crashes += 1
            self._crashed_last = True
        why = (f"the model worker stopped (exit code {rc}{': ' + tail if tail else ''})"
               if not expected else "the model worker was stopped")
        for req in pending:
            if not req.future.done():
                req.future.set_exception(WorkerCrashed(why) if not expected else WorkerError(why))
        if self.on_exit:
            self.on_exit(ExitInfo(rc, tail, expected, len(pending)))

    async def shutdown(self, timeout: float = 3.0) -> None:
        """Ask the worker to exit, then terminate and kill it if it does not; pending requests fail.
        A request made meanwhile waits and starts a new process."""
        async with self._start_lock:
            proc = self._proc
            if proc is not None and proc.returncode is None:
                self._expected_exit = True
                for req in list(self._pending.values()):  # `cancel` first: the running edit stops, not finishes
                    self._give_up(req, WorkerError("the model worker was stopped"))
                try:
                    self._send({"jsonrpc": "2.0", "id": next(self._ids), "method": "shutdown", "params": None})
                    proc.stdin.close()
                except (OSError, RuntimeError, WorkerError):
                    pass
                for stop in (None, proc.terminate, proc.kill):
                    if stop is not None:
                        try:
                            stop()
                        except ProcessLookupError:
                            pass
                    try:
                        await asyncio.wait_for(proc.wait(), timeout)
                        break
                    except TimeoutError:
                        continue
            await self._reap()

    def kill(self) -> None:
        """Stop the process now, without waiting (for when the event loop is ending)."""
        self._expected_exit = True
        if self.running:
            try:
                os.kill(self._proc.pid, signal.SIGTERM)
            except OSError:
                pass

    async def set_command(self, command: list[str]) -> bool:
        """Use a new command line; a running worker with another one is stopped (the next request starts
        the new one). Returns whether a running worker was stopped."""
        if list(command) == self.command:
            return False
        self.command = list(command)
        was_running = self.running
        await self.shutdown()
        self._crashed_last = False
        return was_running

    # -- requests ------------------------------------------------------------------------------------------

    def _send(self, msg: dict) -> None:
        self._write(_encode(msg))

    def _write(self, line: bytes) -> None:
        if not self.running:
            raise WorkerCrashed("the model worker is not running")
        self._proc.stdin.write(line)

    def _dispatch(self, msg: dict) -> None:
        if "id" not in msg or msg.get("method") is not None:
            if msg.get("method") == "progress":
                params = msg.get("params") or {}
                req = self._pending.get(params.get("id"))
                if req and req.on_progress:
                    try:
                        req.on_progress(params)
                    except Exception as e:  # a progress sink must not break the reader
                        self._log(f"worker client: progress callback failed: {e!r}")
            return
        req = self._pending.pop(msg["id"], None)
        if req is None:
            return  # answer to a cancel/ping/shutdown, or to a request already given up
        if self._by_key.get(req.key) is req:
            del self._by_key[req.key]
        if req.future.done():
            return
        if "error" in msg:
            err = msg["error"] or {}
            code, message = err.get("code", 1000), err.get("message", "worker error")
            error = RequestCancelled(message) if code == CANCELLED else WorkerError(message, code, err.get("data"))
            req.future.set_exception(error)
        else:
            req.future.set_result(msg.get("result"))

    async def request(self, method: str, params=None, timeout: float | None = None):
        """A plain request (ping, ...) answered at once by the worker."""
        rid = next(self._ids)
        line = _encode({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        await self.start()
        req = _Request(rid, None, None)
        self._write(line)
        self._pending[req.id] = req
        await self._drain()
        try:
            return await asyncio.wait_for(asyncio.shield(req.future), timeout)
        finally:
            self._pending.pop(req.id, None)

    async def edit(self, params: dict, on_progress: Callable[[dict], None] | None = None, *, key=None,
                   on_id: Callable[[int], None] | None = None) -> dict:
        """Run one edit; returns the worker's result {"text", "program", "stop", "stats"}.

        Raises WorkerError (engine error, with its code; or a request that cannot be encoded, before
        anything is sent or started), WorkerCrashed (the process died; the next request restarts it),
        RequestCancelled / Superseded. Cancelling the awaiting task cancels the edit in the worker too. `on_id`
        receives the request id (for `cancel`) as soon as it is sent.
        """
        rid = next(self._ids)
        line = _encode({"jsonrpc": "2.0", "id": rid, "method": "edit", "params": params})
        await self.start()
        req = _Request(rid, key, on_progress)
        if key is not None and (old := self._by_key.get(key)) is not None:
            self._give_up(old, Superseded("superseded by a newer edit of the same document"))
        self._pending[req.id] = req
        if key is not None:
            self._by_key[key] = req
        try:
            self._write(line)
        except WorkerError:
            self._pending.pop(req.id, None)
            if self._by_key.get(key) is req:
                del self._by_key[key]
            raise
        if on_id:
            on_id(req.id)
        try:
            await self._drain()
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
                self._send({"jsonrpc": "2.0", "id": next(self._ids), "method": "cancel", "params": {"id": req.id}})
            except (OSError, RuntimeError, WorkerError):
                pass

    async def _drain(self) -> None:
        try:
            await self._proc.stdin.drain()
        except (ConnectionError, AttributeError):
            pass  # the stdout reader reports the exit


def _encode(msg: dict) -> bytes:
    try:
        return json.dumps(msg, ensure_ascii=False).encode("utf-8") + b"\n"
    except UnicodeEncodeError as e:  # a lone surrogate: JSON carries it, UTF-8 cannot
        raise WorkerError(f"the request holds text that is not valid Unicode "
                          f"(U+{ord(e.object[e.start]):04X}); nothing was sent") from None
