"""The model worker's process: started on demand, stopped on request, and started again after it died.

server/worker_client.py speaks JSON-RPC to the worker; this module only moves its lines. It starts the
process (`copy-as-decode worker`, or the command the settings give), writes lines to its stdin, hands each
line of its stdout to `on_line`, and copies its stderr to a sink, keeping the last lines to say why it
stopped. When the process ends, `on_exit` hears the exit code, that stderr tail, and whether the exit was
asked for; a process that ended unasked counts as a crash, and the next start is reported as a restart.
No way out of the server leaves the process behind: `stop` (shutdown), `kill` (exit, end of input, the
interpreter's exit) and `abort` (a worker that broke the protocol) each end with SIGKILL if need be.
"""
import asyncio
import atexit
import collections
import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Callable

STREAM_LIMIT = 1 << 30  # one line per message; documents can be large
# Seconds a worker gets to exit on SIGTERM before SIGKILL. A worker that reads its input exits at once; one
# that ignores SIGTERM (a hung native call, a handler of its own) must not outlive the server.
KILL_GRACE_S = 1.0


class CannotStart(Exception):
    """The worker's program could not be run; the message says which and why."""


class WorkerProcess:
    def __init__(self, command: list[str], *, on_line: Callable[[bytes], None],
                 on_exit: Callable[[int | None, str, bool], None], env: dict | None = None,
                 on_start: Callable[[bool], None] | None = None, stderr_sink=None):
        """`on_line(line)` gets each line of stdout; `on_exit(returncode, stderr_tail, expected)` each exit;
        `on_start(restarted)` each start, `restarted` when the process before it crashed."""
        self.command = list(command)
        self.env = env
        self.on_line, self.on_exit, self.on_start = on_line, on_exit, on_start
        self.stderr_sink = stderr_sink if stderr_sink is not None else sys.stderr
        self.starts = 0  # processes started so far
        self.crashes = 0  # processes that ended without being asked to
        self._proc: asyncio.subprocess.Process | None = None
        self._stderr_tail = collections.deque(maxlen=20)
        self._start_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task] = []
        self._expected_exit = False
        self._crashed_last = False
        self._killed: asyncio.subprocess.Process | None = None  # signalled by kill(): never signalled again
        atexit.register(self.kill)  # an interpreter that ends any other way takes the worker with it

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    def use(self, command: list[str]) -> None:
        """Start this command line from now on; its first start is not a restart after a crash."""
        self.command = list(command)
        self._crashed_last = False

    async def start(self) -> None:
        """Start the process unless it runs; raise CannotStart if it cannot be started."""
        async with self._start_lock:
            if self.running:
                return
            await self._reap()
            try:
                self._proc = await asyncio.create_subprocess_exec(
                    *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE, env=self.env, limit=STREAM_LIMIT)
            except OSError as e:
                raise CannotStart(f"cannot start the model worker ({self.command[0]}): {e.strerror or e}") from e
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

    def write(self, line: bytes) -> None:
        self._proc.stdin.write(line)

    async def drain(self) -> None:
        try:
            await self._proc.stdin.drain()
        except (ConnectionError, AttributeError):
            pass  # the stdout reader reports the exit

    async def stop(self, timeout: float, farewell: Callable[[], None]) -> None:
        """Stop the process: `farewell` first, while it still reads its input (the last requests to it), then
        its stdin closes; it is terminated if it does not exit within `timeout` seconds, and killed if it
        ignores that for KILL_GRACE_S. A start meanwhile waits, and starts a new process."""
        async with self._start_lock:
            proc = self._proc
            if proc is not None and proc.returncode is None:
                self._expected_exit = True
                farewell()
                with contextlib.suppress(OSError, RuntimeError):
                    proc.stdin.close()
                for stop, wait in ((None, timeout), (proc.terminate, KILL_GRACE_S), (proc.kill, None)):
                    if stop is not None:
                        with contextlib.suppress(ProcessLookupError):
                            stop()
                    try:
                        await asyncio.wait_for(proc.wait(), wait)
                        break
                    except TimeoutError:
                        continue
            await self._reap()

    def kill(self) -> None:
        """Stop the process now, without the event loop (it is ending, or has ended): SIGTERM, then SIGKILL if
        it has not exited within KILL_GRACE_S."""
        self._expected_exit = True
        proc = self._proc
        if proc is None or proc.returncode is not None or proc is self._killed:
            return  # once only: the pid of a process reaped meanwhile may already be another's
        self._killed = proc
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.kill(proc.pid, sig)
            except OSError:
                return
            if sig == signal.SIGTERM and _exits_within(proc.pid, KILL_GRACE_S):
                return

    def abort(self) -> None:
        """Kill the process at once: it stopped keeping the protocol (a malformed message, a cancel it did not
        honour), so it is not asked to exit. Counts as a crash: the next start is a restart."""
        if self.running:
            with contextlib.suppress(ProcessLookupError):
                self._proc.kill()

    def log(self, text: str) -> None:
        """A line to the stderr sink, where the worker's own stderr goes."""
        try:
            print(text, file=self.stderr_sink, flush=True)
        except (OSError, ValueError):
            pass

    async def _reap(self) -> None:
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
            self._tasks = []

    async def _read_stdout(self, proc, stderr_task) -> None:
        try:
            while line := await proc.stdout.readline():
                try:
                    self.on_line(line)
                except Exception as e:  # a message that cannot be handled must not stop the reading
                    self.log(f"worker: cannot handle its output {line[:200]!r}: {e!r}")
        except (ValueError, ConnectionError) as e:  # line over the limit, broken pipe
            self.log(f"worker: output stream failed: {e}")
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
            self.log(text)

    def _exited(self, proc, rc) -> None:
        if proc is not self._proc:
            return
        expected = self._expected_exit
        if not expected:
            self.crashes += 1
            self._crashed_last = True
        self.on_exit(rc, self._stderr_tail[-1] if self._stderr_tail else "", expected)


def _exits_within(pid: int, seconds: float) -> bool:
    """Whether the process `pid` ends within `seconds`, waited for without reaping it (the event loop's child
    watcher does that): a pidfd turns readable when the process ends (Linux); without one, a plain wait."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except (AttributeError, OSError):
        time.sleep(seconds)
        return False
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)
