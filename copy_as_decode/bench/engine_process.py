"""An inference server as a child process on a loopback port: start, wait until `/health` answers 200, stop.
bench/llama_server.py and bench/vllm_server.py say how to launch each engine; the tests and benchmarks use
them as context managers, and start() after stop() brings one back on the same port (a restarted engine)."""
import ctypes
import http.client
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from copy_as_decode.engine.remote.wire import EngineTimeout, RemoteError


class EngineProcess:
    name = "engine"

    def __init__(self, args: list[str], *, port: int, env: dict | None = None, log: str | Path | None = None,
                 ready_timeout: float = 180.0):
        self.args, self.port, self.env, self.log, self.ready_timeout = args, port, env, log, ready_timeout
        self.url = f"http://127.0.0.1:{port}"
        self.proc, self._out = None, None

    def start(self):
        return self.launch().wait()

    def launch(self):
        """Start the process without waiting (several engines load side by side); wait() until it serves."""
        self._out = open(self.log, "ab") if self.log else None
        self.proc = subprocess.Popen(self.args, stdout=self._out or subprocess.DEVNULL, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, env=self.env, preexec_fn=_die_with_parent)
        return self

    def wait(self):
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                raise RemoteError(f"{self.name} exited with code {self.proc.returncode}: {' '.join(self.args)}"
                                  + (f" (log: {self.log})" if self.log else ""))
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (OSError, http.client.HTTPException):  # refused while it binds, 503 while it loads
                pass
            time.sleep(0.25)
        self.stop()
        raise EngineTimeout(f"{self.name} not ready after {self.ready_timeout:g} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._out:
            self._out.close()
            self._out = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _die_with_parent() -> None:
    """Linux: the server gets SIGTERM when the thread that started it ends (a crashed run leaves none behind;
    start servers from a thread that outlives them)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
