"""HTTP to an inference server over the standard library's client: JSON calls repeated on what a retry can
mend, streamed answers (server-sent events) that the caller can stop at any moment, and failures as one-line
errors that name the server. engine/remote/wire.py speaks the completion routes over it, engine/remote/chat.py
the chat route.
"""
import http.client
import json
import os
import queue
import random
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator

from copy_as_decode.core.contract import ContextError, EditError
from copy_as_decode.engine.options import REQUEST_TIMEOUT

API_KEY_ENV = "COPY_AS_DECODE_API_KEY"
RETRY_STATUS = (429, 502, 503, 504)
POLL_S = 0.1  # how often a streamed call checks for a cancel while the server is silent (a long prefill)


class RemoteError(EditError, RuntimeError):
    """The inference engine failed or answered something unusable; the message says what and where."""


class EngineUnreachable(RemoteError):
    pass


class EngineTimeout(RemoteError):
    pass


class ModelMismatch(RemoteError):
    """The engine's tokenizer differs from the local one the prompts are built with."""


class GrammarRefused(RemoteError):
    """The engine rejected the program grammar, or produced text the grammar does not allow."""


class Http:
    """The routes under `base` (a server's root, or an API's root such as `.../v1`). The API key defaults to
    $COPY_AS_DECODE_API_KEY and goes as `Authorization: Bearer`; `timeout`: seconds a call may wait for the
    server's next bytes; `retries`: repeats of a call that failed before it was answered."""

    def __init__(self, base: str, *, api_key: str | None = None, timeout: float = REQUEST_TIMEOUT, retries: int = 2):
        self.base = base
        self.api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        self.timeout, self.retries = timeout, retries

    def _headers(self) -> dict:
        h = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            h["Authorization"] = f"Bearer {self.api_key}"
        return h

    def request(self, method: str, path: str, body: dict | None = None):
        """One HTTP call's JSON answer, repeated on connection failures, time-outs and RETRY_STATUS with
        exponential back-off."""
        return self._send(method, path, body, lambda resp: json.loads(resp.read() or b"{}"))

    def _send(self, method: str, path: str, body: dict | None, read: Callable):
        """`read(response)` of one HTTP call, repeated as `request` says; `read` raising a RemoteError ends it."""
        url = self.base + path
        data = json.dumps(body).encode() if body is not None else None
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(min(0.5 * 2 ** (attempt - 1), 8.0) * (1 + random.random() / 4))
            req = urllib.request.Request(url, data=data, method=method, headers=self._headers())
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return read(resp)
            except urllib.error.HTTPError as e:
                detail = _error_message(e)
                if e.code in RETRY_STATUS:
                    last = RemoteError(f"{url}: HTTP {e.code}: {detail}")
                    continue
                raise _classify(url, e.code, detail) from None
            except TimeoutError as e:
                last = EngineTimeout(f"{url}: no answer within {self.timeout:g} s ({e or 'timed out'}); "
                                     f"raise the time-out or check the engine's load")
            except urllib.error.URLError as e:
                if isinstance(e.reason, (TimeoutError, socket.timeout)):
                    last = EngineTimeout(f"{url}: no answer within {self.timeout:g} s")
                else:
                    last = EngineUnreachable(f"cannot reach the inference engine at {self.base}: {e.reason}")
            except (ConnectionError, http.client.HTTPException) as e:
                last = EngineUnreachable(f"connection to {self.base} failed: {type(e).__name__}: {e}")
            except json.JSONDecodeError as e:
                raise RemoteError(f"{url}: the answer is not JSON ({e})") from None
        raise last

    def events(self, path: str, body: dict, check: Callable[[], None]) -> Iterator[dict]:
        """The server-sent events of a streamed POST, each `data:` line as JSON, until `[DONE]` or the end of the
        answer. `check()` runs between events and every POLL_S while the server is silent; when it raises, or the
        caller stops iterating, the connection is shut, which ends the request on the server too. A call that
        fails before its first event is repeated as `request` says, never one that has begun to answer."""
        lines: queue.Queue = queue.Queue()
        done, opened = threading.Event(), {}
        url = self.base + path

        def pump(resp) -> None:
            opened["resp"] = resp
            if done.is_set():
                return
            try:
                for line in resp:
                    if done.is_set():
                        return
                    lines.put(line)
            except TimeoutError:
                raise EngineTimeout(f"{url}: the answer stopped for {self.timeout:g} s; raise the time-out or "
                                    f"check the engine's load") from None
            except (OSError, http.client.HTTPException) as e:
                if not done.is_set():
                    raise EngineUnreachable(f"connection to {self.base} broke: {type(e).__name__}: {e}") from None

        def run() -> None:
            try:
                self._send("POST", path, body, pump)
                lines.put(None)
            except BaseException as e:  # raised where the caller waits
                lines.put(e)

        threading.Thread(target=run, daemon=True, name="copy-as-decode-stream").start()
        try:
            while True:
                try:
                    line = lines.get(timeout=POLL_S)
                except queue.Empty:
                    check()
                    continue
                if line is None:
                    return
                if isinstance(line, BaseException):
                    raise line
                check()
                data = line.decode("utf-8", "replace").strip()
                if not data.startswith("data:"):  # comments, event names, the blank line between events
                    continue
                data = data[5:].strip()
                if data == "[DONE]":
                    return
                try:
                    event = json.loads(data)
                except json.JSONDecodeError as e:
                    raise RemoteError(f"{url}: an event of the answer is not JSON ({e}): {data[:200]}") from None
                if isinstance(event, dict) and event.get("error"):  # a failure after the answer began
                    err = event["error"]
                    raise RemoteError(f"{url}: {err.get('message', err) if isinstance(err, dict) else err}")
                yield event
        finally:
            done.set()
            _shut(opened.get("resp"))


def _shut(resp) -> None:
    """End a response's connection now, also while another thread waits on it (a close alone would not wake it)."""
    if resp is None:
        return
    try:
        with socket.socket(fileno=os.dup(resp.fileno())) as s:
            s.shutdown(socket.SHUT_RDWR)
    except (OSError, ValueError, AttributeError):  # already closed
        pass


def _error_message(e: urllib.error.HTTPError) -> str:
    try:
        raw = e.read().decode("utf-8", "replace")
    except Exception:
        return str(e.reason)
    try:
        err = json.loads(raw).get("error", raw)
        return err.get("message", str(err)) if isinstance(err, dict) else str(err)
    except (ValueError, AttributeError):
        return raw[:500]


def _classify(url: str, code: int, detail: str) -> RemoteError:
    low = detail.lower()
    if code in (401, 403):
        return RemoteError(f"{url}: HTTP {code}: {detail} (set ${API_KEY_ENV} to the engine's API key)")
    if "grammar" in low or "ebnf" in low or "structured" in low or "guided" in low:
        return GrammarRefused(f"{url}: the engine refused the program grammar: HTTP {code}: {detail}")
    if "context" in low and ("exceed" in low or "length" in low or "size" in low):
        return ContextError(f"{url}: {detail}")
    return RemoteError(f"{url}: HTTP {code}: {detail}")
