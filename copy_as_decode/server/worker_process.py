"""The model worker's process: started on demand, stopped on request, and started again after it died.

server/worker_client.py speaks JSON-RPC to the worker; this module only moves its lines. It starts the
process (`copy-as-decode worker`, or the command the settings give), writes lines to its stdin, hands each
line of its stdout to `on_line`, and copies its stderr to a sink, keeping the last lines to say why it
stopped. When the process ends, `on_exit` hears the exit code, that stderr tail, and whether the exit was
asked for; a process that ended unasked counts as a crash, and the next start is reported as a restart.
"""
import asyncio
import collections
import contextlib
import os
import signal
import sys
from collections.abc import Callable

STREAM_LIMIT = 1 << 30  # one line per message; documents can be large


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
        its stdin closes; it is terminated, then killed, if it does not exit within `timeout` seconds.
        A start meanwhile waits, and starts a new process."""
        async with self._start_lock:
            proc = self._proc
            if proc is not None and proc.returncode is None:
                self._expected_exit = True
                farewell()
                with contextlib.suppress(OSError, RuntimeError):
                    proc.stdin.close()
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
                self.on_line(line)
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
