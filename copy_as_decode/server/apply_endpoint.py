"""`copy-as-decode serve-apply`: the apply merge (engine/apply.py) behind an OpenAI-compatible fast-apply door.

Fast-apply clients (Continue's `apply` role, Morph-compatible tools) send one chat completion whose user message
is `<instruction>…</instruction>\\n<code>{the file}</code>\\n<update>{the block}</update>` and take the answer's
content as the merged file. This server answers that request with engine/apply.py's merge:

    POST /v1/chat/completions   the merged file as `choices[0].message.content` (`stream: true`: server-sent
                                events in OpenAI's chunk format, ending with `data: [DONE]`); any model name,
                                echoed. Header `x-copy-as-decode-status`: `applied`, or `unchanged` when the
                                block is already in the file (the file is answered as it was). Header
                                `x-copy-as-decode-language`: the language the file was merged as.
    GET  /v1/models             the one model this server offers

No client sends a file name, so the language is the request's own `language` or `path` field when a tool sends
one, else the one the update's fence names, else the one whose parser reads the file best
(core/detect_language.py). An empty `<code>` (a new file) with an update that has no lazy markers is answered
with the update.

A merge that cannot be made with its guarantees (engine/apply.py: a result that would not parse, a marker
that would land, a line lost; the model's edit unfinished) is an OpenAI error object with status 422 and no
content, so a client shows the error instead of writing a wrong file. Malformed requests are 400, a body over
`--max-request-mb` 413, a body that stops coming for BODY_TIMEOUT_S 408. The server opens no file: text in,
text out. The model is loaded on the first request that needs it (a part whose place the block does not say),
once, and runs one request at a time under a lock; `--no-model` never loads one and answers such requests 422
`model_disabled`.
"""
import argparse
import json
import re
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from copy_as_decode.core.chat_answer import language_of_answer
from copy_as_decode.core.contract import REVIEWABLE, UNCHANGED, ContextError, EditError, IncompleteEdit, ModelError
from copy_as_decode.core.detect_language import detect, of_file
from copy_as_decode.core.languages import LANGUAGES, named

MODEL_ID = "copy-as-decode-apply"
STATUS_HEADER = "x-copy-as-decode-status"
LANGUAGE_HEADER = "x-copy-as-decode-language"
APPLIED = "applied"
MAX_REQUEST_MB = 8
IDLE_TIMEOUT_S = 60      # a keep-alive connection with no request for this long is closed (its thread ends)
BODY_TIMEOUT_S = 10      # a body that stops arriving for this long is answered 408 (its client is gone or stuck)
SHUTDOWN_WAIT_S = 30     # on Ctrl-C, requests in flight get this long to finish
# The file ends at the first `</code>` the update's tag follows (a file may hold `</code>` itself, an HTML one);
# the block runs to the last `</update>`. Apart (the two as messages of their own, or in another order), each tag
# is taken alone.
_PAIR = re.compile(r"<code>(?P<code>.*?)</code>\s*<update>(?P<update>.*)</update>", re.S)
_CODE = re.compile(r"<code>(?P<code>.*)</code>", re.S)
_UPDATE = re.compile(r"<update>(?P<update>.*)</update>", re.S)
# the instruction is taken out first (it may quote a tag); it does not change the merge: the block says what changes
_INSTRUCTION = re.compile(r"<instructions?>.*?</instructions?>", re.S)  # Morph's spelling, and avante.nvim's


class ApiError(Exception):
    """An answer in OpenAI's error format: {"error": {"message", "type", "code"}} with an HTTP status."""

    def __init__(self, status: HTTPStatus, message: str, code: str, kind: str = "invalid_request_error"):
        super().__init__(message)
        self.status, self.code, self.kind = status, code, kind

    def body(self) -> dict:
        return {"error": {"message": str(self), "type": self.kind, "param": None, "code": self.code}}



class Apply:
    """One request's parts: the file, the block, and how to answer."""

    def __init__(self, body: dict):
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise ApiError(HTTPStatus.BAD_REQUEST, "`messages` must be a non-empty list", "invalid_messages")
        # Morph's format is one user message; the file and the block may also come as messages of their own
        self.prompt = "\n".join(_text(m) for m in messages if isinstance(m, dict) and m.get("role") != "system")
        said = _INSTRUCTION.search(self.prompt)  # what the edit does, in words: where a new definition goes
        self.instruction = re.sub(r"</?instructions?>", "", said.group(0)).strip() if said else ""
        parts = _INSTRUCTION.sub("", self.prompt, count=1)
        pair = _PAIR.search(parts)
        code, update = (pair, pair) if pair else (_CODE.search(parts), _UPDATE.search(parts))
        if code is None or update is None:
            raise ApiError(HTTPStatus.BAD_REQUEST, "the request needs the file as <code>…</code> and the edit as "
                           "<update>…</update> in its messages (Morph's fast-apply format)", "missing_code_or_update")
        self.code, self.update = _unwrapped(code["code"]), update["update"]
        # optional fields for tools that know the file: its language, or its path (Morph's format has neither)
        self.language, self.path = (_optional(body, "language"), _optional(body, "path"))
        if self.language is not None and named(self.language) is None:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"unknown `language` {self.language!r}; one of "
                           + ", ".join(lang.name for lang in LANGUAGES), "invalid_language")
        self.model = body.get("model") if isinstance(body.get("model"), str) else MODEL_ID
        self.stream = body.get("stream") is True
        options = body.get("stream_options")
        self.stream_usage = self.stream and isinstance(options, dict) and options.get("include_usage") is True


def _optional(body: dict, field: str) -> str | None:
    value = body.get(field)
    if value is not None and not isinstance(value, str):
        raise ApiError(HTTPStatus.BAD_REQUEST, f"`{field}` must be a string", f"invalid_{field}")
    return value or None


def language_of(request: Apply) -> str | None:
    """The language to merge the request as: its `language`, its `path`'s, the update's fence's, else the one
    the file (a new file: the update) reads as best."""
    return (request.language or (of_file(request.path, request.code or request.update) if request.path else None)
            or language_of_answer(request.update) or detect(request.code or request.update))


def _unwrapped(code: str) -> str:
    """The file as sent, less the line breaks a client put around it (`<code>\\n…\\n</code>`, seen as a line break
    first and a blank line last). A file of its own may start with blank lines: those stay, the file ends as sent."""
    for eol in ("\r\n", "\n"):
        if code.startswith(eol) and code.endswith(eol * 2):
            return code[len(eol):-len(eol)]
    return code


def _text(message: dict) -> str:
    """A message's content as text: a string, or the text parts of a list of content parts."""
    content = message.get("content")
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return content if isinstance(content, str) else ""


def _tokenish(text: str) -> int:
    """Four characters a token, the usual rule of thumb: an order of magnitude for clients that show `usage`, at
    no cost (no tokenizer is loaded to answer a merge, and counting words would cost more than the HTTP)."""
    return (len(text) + 3) // 4


class Merger:
    """engine/apply.py's apply for the requests of every connection. The model, when a part needs it, is made
    once by `make_engine` and then runs one edit at a time: an engine holds one decode's state."""

    def __init__(self, make_engine: Callable[[], object] | None):
        self.make_engine = make_engine
        self.lock = threading.Lock()
        self.engine = None

    def edit(self, *fields, **named):
        """The model's edit of a pending part (engine/front.py EditFront.edit), serialized."""
        with self.lock:
            if self.engine is None:
                self.engine = self.make_engine()
            return self.engine.edit(*fields, **named)

    def merge(self, request: Apply) -> tuple[str, str, str | None]:
        """(the merged file, APPLIED or UNCHANGED, the language it was merged as); ApiError for a merge that is
        refused."""
        from copy_as_decode.core.block_merge import MergeError
        from copy_as_decode.engine.apply import NO_MODEL, apply
        from copy_as_decode.engine.request import EditRequest
        language = language_of(request)
        if not request.code.strip():
            return new_file(request.update), APPLIED, language
        try:
            result = apply(EditRequest(request.code, request.instruction, block=request.update, language=language,
                                       path=request.path), self.make_engine and (lambda: self))
        except MergeError as e:
            if NO_MODEL not in str(e):
                raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(e), "merge_refused") from None
            raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(e).replace(  # the part and why, for the user to say
                NO_MODEL, "and only the model could place it, which this server runs without (--no-model); nothing "
                          "was changed"), "model_disabled") from None
        except ContextError as e:
            raise ApiError(HTTPStatus.BAD_REQUEST, str(e), "context_length_exceeded") from None
        except ModelError as e:
            raise ApiError(HTTPStatus.SERVICE_UNAVAILABLE, str(e), "model_unavailable", "server_error") from None
        except IncompleteEdit as e:  # a result that breaks the guarantee (a reviewable stop), or a model's unfinished edit
            code = "merge_refused" if e.stop in REVIEWABLE else "edit_incomplete"
            raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(e), code) from None
        except EditError as e:
            raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, str(e), "merge_refused") from None
        return result.text, UNCHANGED if result.unchanged else APPLIED, language


def new_file(update: str) -> str:
    """The file an update to an empty file makes: its code (its one block's, when fenced); ApiError when a lazy
    marker says it stands for lines a file that is empty does not have."""
    from copy_as_decode.core import chat_answer, lazy_block
    changes = chat_answer.read(update).changes
    if len(changes) != 1 or lazy_block.read(changes[0].text).markers:
        raise ApiError(HTTPStatus.UNPROCESSABLE_ENTITY, "the file is empty, and the update is not one whole block "
                       "(it has lazy markers for lines that are not there, or several blocks)", "merge_refused")
    return changes[0].text


def completion(request: Apply, text: str) -> dict:
    return {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "created": int(time.time()),
            "model": request.model, "system_fingerprint": None,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text, "refusal": None},
                         "logprobs": None, "finish_reason": "stop"}],
            "usage": _usage(request, text)}


def _usage(request: Apply, text: str) -> dict:
    prompt, answer = _tokenish(request.prompt), _tokenish(text)
    return {"prompt_tokens": prompt, "completion_tokens": answer, "total_tokens": prompt + answer}


def events(request: Apply, text: str) -> bytes:
    """The answer as OpenAI's stream: the role, the file, the stop (then the usage when asked), `[DONE]`. The
    merge is whole before the first byte, so the stream is one body with its length."""
    head = {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": request.model, "system_fingerprint": None}

    def chunk(delta: dict, finish: str | None = None) -> dict:
        return {**head, "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}]}

    chunks = [chunk({"role": "assistant", "content": ""}), chunk({"content": text}), chunk({}, "stop")]
    if request.stream_usage:
        chunks.append({**head, "choices": [], "usage": _usage(request, text)})
    lines = [f"data: {json.dumps(c, ensure_ascii=False)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]
    return "".join(lines).encode("utf-8")


class Handler(BaseHTTPRequestHandler):
    """One connection: HTTP/1.1, keep-alive, every answer with its Content-Length."""

    protocol_version = "HTTP/1.1"
    server_version = "copy-as-decode"
    timeout = IDLE_TIMEOUT_S
    disable_nagle_algorithm = True  # headers and body go in two writes: Nagle would hold the body for the client's ACK
    server: "ApplyServer"

    def do_GET(self):
        if self.path.rstrip("/") == "/v1/models":
            self._json(HTTPStatus.OK, {"object": "list", "data": [self.server.model_card()]})
        elif self.path.rstrip("/") == f"/v1/models/{MODEL_ID}":
            self._json(HTTPStatus.OK, self.server.model_card())
        else:
            self._error(ApiError(HTTPStatus.NOT_FOUND, f"no route GET {self.path}", "not_found"))

    def do_POST(self):
        with self.server.in_flight():
            try:
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._drain()
                    raise ApiError(HTTPStatus.NOT_FOUND, f"no route POST {self.path}", "not_found")
                request = Apply(self._body())
                start = time.perf_counter()
                text, status, language = self.server.merger.merge(request)
                # the merge's own time (Server-Timing, as browsers and HTTP tools read it): what the door adds is the rest
                headers = {STATUS_HEADER: status, LANGUAGE_HEADER: language or "none",
                           "Server-Timing": f"merge;dur={1e3 * (time.perf_counter() - start):.1f}"}
            except ApiError as e:
                self._error(e)
                return
            except ConnectionError:
                return
            except Exception as e:  # a bug: the client is told, the server goes on
                self.log_error("apply failed: %r", e)
                self._error(ApiError(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {e}", "internal_error",
                                     "server_error"))
                return
            if request.stream:
                self._send(HTTPStatus.OK, events(request, text), "text/event-stream; charset=utf-8",
                           {**headers, "Cache-Control": "no-cache"})
            else:
                self._json(HTTPStatus.OK, completion(request, text), headers)

    def handle_expect_100(self):
        """A client that waits for `100 Continue` is told 413 before it sends an oversized body."""
        if self._length() > self.server.max_bytes:
            self.close_connection = True  # the body it holds back must not be read as the next request
            self._error(self._too_large())
            return False
        return super().handle_expect_100()

    def _length(self) -> int:
        try:
            return int(self.headers.get("Content-Length", ""))
        except ValueError:
            return -1

    def _too_large(self) -> ApiError:
        return ApiError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the request is over the server's limit of "
                        f"{self.server.max_bytes} bytes (--max-request-mb)", "request_too_large")

    def _drain(self) -> None:
        """The body read and dropped, so the connection can answer and go on; a huge one is not read: the
        connection closes after the answer."""
        length = self._length()
        if length > 16 * self.server.max_bytes or length < 0:
            self.close_connection = True
            return
        while length > 0:
            read = len(self.rfile.read(min(length, 1 << 20)))
            if not read:  # the client stopped sending
                self.close_connection = True
                return
            length -= read

    def _body(self) -> dict:
        length = self._length()
        if length < 0:
            self.close_connection = True
            raise ApiError(HTTPStatus.LENGTH_REQUIRED, "the request needs a Content-Length", "length_required")
        if length > self.server.max_bytes:
            self._drain()
            raise self._too_large()
        self.connection.settimeout(BODY_TIMEOUT_S)
        try:
            data = self.rfile.read(length)
        except TimeoutError:
            self.close_connection = True  # the rest of the body, if it comes, must not be read as a request
            raise ApiError(HTTPStatus.REQUEST_TIMEOUT, f"the body stopped arriving for {BODY_TIMEOUT_S} s",
                           "request_timeout") from None
        finally:
            self.connection.settimeout(self.timeout)
        if len(data) < length:  # the client closed the connection mid-body: no one to answer
            self.close_connection = True
            raise ConnectionAbortedError("the client closed the connection mid-body")
        try:
            body = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"the body is not JSON in UTF-8 ({e})", "invalid_json") from None
        if not isinstance(body, dict):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object", "invalid_json")
        return body

    def _error(self, e: ApiError) -> None:
        self._json(e.status, e.body())

    def _json(self, status: HTTPStatus, body: dict, headers: dict | None = None) -> None:
        self._send(status, json.dumps(body, ensure_ascii=False).encode("utf-8"), "application/json", headers)

    def _send(self, status: HTTPStatus, data: bytes, content_type: str, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        try:
            self.end_headers()
            self.wfile.write(data)
        except ConnectionError:  # the client went away before its answer: nothing to tell anyone
            self.close_connection = True

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class ApplyServer(ThreadingHTTPServer):
    """A thread per connection; shutdown waits for the requests in flight (`drain`), not for idle connections."""

    daemon_threads = True
    request_queue_size = 128  # the listen backlog: socketserver's 5 resets clients that connect together

    def __init__(self, address: tuple[str, int], merger: Merger, max_bytes: int = MAX_REQUEST_MB << 20,
                 verbose: bool = False):
        super().__init__(address, Handler)
        self.merger, self.max_bytes, self.verbose = merger, max_bytes, verbose
        self.created = int(time.time())
        self._busy = 0
        self._idle = threading.Condition()

    def handle_error(self, request, client_address):
        """A client that closed its connection is no error of the server's (no traceback); anything else is."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def model_card(self) -> dict:
        return {"id": MODEL_ID, "object": "model", "created": self.created, "owned_by": "copy-as-decode"}

    @contextmanager
    def in_flight(self):
        with self._idle:
            self._busy += 1
        try:
            yield
        finally:
            with self._idle:
                self._busy -= 1
                self._idle.notify_all()

    def drain(self, timeout: float) -> bool:
        """Waits until no request is in flight (True) or `timeout` passes (False)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._busy == 0, timeout)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/v1"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from copy_as_decode.engine.options import WORKER
    from copy_as_decode.engine.options import add_arguments as engine_arguments
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any free one, printed)")
    p.add_argument("--no-model", action="store_true",
                   help="never load a model: a block whose place is not certain is refused (422 model_disabled)")
    p.add_argument("--max-request-mb", type=float, default=MAX_REQUEST_MB,
                   help=f"largest request body accepted, in MB (default {MAX_REQUEST_MB}); larger ones get 413")
    p.add_argument("--verbose", action="store_true", help="log every request on stderr")
    engine_arguments(p, WORKER)


def run(args: argparse.Namespace) -> int:
    from copy_as_decode.engine.make import make_engine
    merger = Merger(None if args.no_model else lambda: make_engine(args))
    try:
        server = ApplyServer((args.host, args.port), merger, int(args.max_request_mb * (1 << 20)), args.verbose)
    except OSError as e:
        raise EditError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    signal.signal(signal.SIGTERM, _interrupt)
    print(f"copy-as-decode serve-apply: listening on {server.url} (model loaded on demand: "
          f"{'never, --no-model' if args.no_model else args.model}); Ctrl-C stops", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()  # no new connections; the ones open finish the request they are in
        if not server.drain(SHUTDOWN_WAIT_S):
            print("copy-as-decode serve-apply: requests still running were cut off", file=sys.stderr)
    print("copy-as-decode serve-apply: stopped", file=sys.stderr)
    return 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
