"""`copy-as-decode worker`: the model stays loaded; edit requests arrive as JSON-RPC lines on stdin.

The protocol is documented in docs/worker-protocol.md. A reader thread answers `cancel` and `ping` at once;
the main thread runs edits, `apply`, `locate` and `prepare` one at a time, so the model is never shared between
requests. Whatever comes in, the reader answers it and reads on (a malformed request gets an error, never takes
the reader down), and a client gone (its output closed) stops the edits: the worker never hangs.
"""
import json
import queue
import sys
import threading
import time

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.core.contract import (
    BAD_PARAMS,
    BAD_PROGRAM,
    E_CANCELLED,
    ENGINE_ERROR,
    INCOMPLETE,
    INVALID_REQUEST,
    NO_METHOD,
    OUT_OF_MEMORY,
    PARSE_ERROR,
    TOO_LONG,
    UNCHANGED,
    Cancelled,
    ContextError,
    EditEngine,
    Hooks,
    IncompleteEdit,
)
from copy_as_decode.core.program import ProgramSyntaxError
from copy_as_decode.core.resolver import ResolveError
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest

PROGRESS_EVERY_S = 0.2


class Worker:
    def __init__(self, engine: EditEngine, out=sys.stdout):
        self.engine, self.out = engine, out
        self.lock = threading.Lock()
        self.edits: queue.Queue = queue.Queue()
        self.cancelled: set = set()
        self.stopping = False  # after `shutdown` the running edit stops too, and queued ones are cancelled
        self.state = threading.Lock()  # guards `queued` and `current`, which the reader and the runner share
        self.queued: set = set()  # ids of the edits waiting; one cancelled there is answered at once and dropped
        self.current = None  # id of the running edit

    def send(self, msg: dict) -> None:
        with self.lock:
            try:
                self.out.write(json.dumps({"jsonrpc": "2.0", **msg}) + "\n")
                self.out.flush()
            except (OSError, ValueError):  # the client closed our output: no answer can reach it
                self.stopping = True

    def error(self, rid, code: int, message: str) -> None:
        self.send({"id": rid, "error": {"code": code, "message": message}})

    def read(self, stream) -> None:
        """Reader thread: route each line; edits queue up, everything else is answered here."""
        for line in stream:
            if not line.strip():
                continue
            try:
                msg = json.loads(line)
            except json.JSONDecodeError as e:
                self.error(None, PARSE_ERROR, f"invalid JSON: {e}")
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get("method"), str) or not _is_id(msg.get("id")):
                rid = msg.get("id") if isinstance(msg, dict) and _is_id(msg.get("id")) else None
                self.error(rid, INVALID_REQUEST, "not a JSON-RPC request (a `method` string, an `id` number or string)")
                continue
            rid, method, params = msg.get("id"), msg["method"], msg.get("params") or {}
            if not isinstance(params, dict):
                self.error(rid, BAD_PARAMS, "bad params: `params` must be an object")
                continue
            try:
                if self.route(rid, method, params) == "shutdown":
                    break
            except Exception as e:  # a request must never take the reader down: the worker would hang
                self.error(rid, ENGINE_ERROR, f"{type(e).__name__}: {e}")
        self.edits.put(None)

    def route(self, rid, method: str, params: dict) -> str:
        """One request: an edit queues up, anything else is answered here. Returns the method."""
        if method in ("edit", "apply", "locate", "prepare"):  # on the model, one at a time
            with self.state:
                in_use = rid in self.queued or (self.current is not None and rid == self.current)
                if not in_use:
                    self.queued.add(rid)
            if in_use:
                self.error(None, INVALID_REQUEST, f"id {rid!r} is already in use by an edit in flight")
            else:
                self.edits.put((rid, method, params))
        elif method == "cancel":
            self.cancel(rid, params.get("id"))
        elif method == "ping":
            e = self.engine
            self.send({"id": rid, "result": {"model": e.model_name, "device": e.device, "dtype": e.dtype,
                                             "context": e.context}})
        elif method == "shutdown":
            self.stopping = True
            self.send({"id": rid, "result": None})
        else:
            self.error(rid, NO_METHOD, f"unknown method {method!r}")
        return method

    def cancel(self, rid, target) -> None:
        """`cancel` of the edit `target`: a waiting one is answered now, the running one stops at its next
        check (_RequestHooks), any other id is already answered; the cancel itself is answered null."""
        if target is None or not _is_id(target):
            return self.error(rid, BAD_PARAMS, "bad params: `id` must be the id of an edit")
        with self.state:
            waiting = target in self.queued
            self.queued.discard(target)
            if target == self.current:
                self.cancelled.add(target)
        if waiting:
            self.error(target, E_CANCELLED, "cancelled")
        if rid is not None:
            self.send({"id": rid, "result": None})

    def serve(self, stream=sys.stdin) -> None:
        threading.Thread(target=self.read, args=(stream,), daemon=True).start()
        while (job := self.edits.get()) is not None:
            with self.state:
                if job[0] not in self.queued:
                    continue  # cancelled while it waited: answered then
                self.queued.discard(job[0])
                self.current = job[0]
            try:
                self.run(*job)
            finally:
                with self.state:
                    self.current = None

    def run(self, rid, method: str, params: dict) -> None:
        if rid in self.cancelled or self.stopping:
            return self.error(rid, E_CANCELLED, "cancelled")
        hooks = _PrepareHooks(self, rid) if method == "prepare" else _RequestHooks(self, rid)
        try:  # each method's params read once, here (engine/request.py EditRequest.from_wire)
            request = EditRequest.from_wire(params, hooks, apply=method == "apply")
            if method == "edit":
                request = self.engine.resolve(request)
        except (KeyError, TypeError, ValueError) as e:
            return self.error(rid, BAD_PARAMS, f"bad params: {e}")
        try:
            if method == "locate":  # where an edit would land, without decoding it (engine/locate.py)
                from copy_as_decode.engine.locate import locate
                place = locate(self.engine, request.lf, request.instruction, request.lines, request.at,
                               request.language, hooks)
                return self.send({"id": rid, "result": place.as_dict()})
            if method == "prepare":  # the window read while the instruction is typed (engine/read_ahead.py)
                from copy_as_decode.engine.read_ahead import prepare
                read = prepare(self.engine, request.document, request.lines, request.at, request.language, hooks)
                return self.send({"id": rid, "result": read})
            if method == "edit":
                result = self.engine.run(request)
            else:  # the engine is already loaded; engine/apply.py runs it only for parts the parser cannot place
                result = apply(request, lambda: self.engine)
            answer = {"text": result.text, "stop": result.stats.stop, "stats": result.stats.as_dict()}
            if result.text == request.document:  # nothing to apply: the client says so instead of applying
                answer.update(status=UNCHANGED, message=_unchanged(method, result.stats))
            if params.get("return_program"):  # a rewrite's program is a diff of the two texts: made when asked
                answer["program"] = result.program
            if method == "apply":  # the answer's blocks not merged, and the places a tied part might have gone
                answer.update(left_out=result.left_out, candidates=result.candidates)
            self.send({"id": rid, "result": answer})
        except Cancelled:
            self.error(rid, E_CANCELLED, "cancelled")
        except IncompleteEdit as e:
            data = {"stop": e.stop, "limit": e.limit, "stats": e.stats.as_dict() if e.stats else None}
            if e.text is not None:  # a refused result (contract.REVIEWABLE): an editor may offer it for review
                data["text"] = e.text
            self.send({"id": rid, "error": {"code": INCOMPLETE, "message": str(e), "data": data}})
        except ContextError as e:
            self.error(rid, TOO_LONG, str(e))
        except _out_of_memory():
            self.error(rid, OUT_OF_MEMORY, "out of memory: try a smaller model, a shorter document or the CPU")
        except _rejected_program() as e:
            self.error(rid, BAD_PROGRAM, f"program rejected: {e}")
        except MergeError as e:
            self.error(rid, ENGINE_ERROR, str(e))
        except Exception as e:  # a bad request must never take the worker down
            self.error(rid, ENGINE_ERROR, f"{type(e).__name__}: {e}")
        finally:
            self.cancelled.discard(rid)


class _RequestHooks(Hooks):
    def __init__(self, worker: Worker, rid):
        self.worker, self.rid, self.last = worker, rid, 0.0
        self.counts = {"sampled": 0, "spliced": 0, "budget": 0, "text_chars": 0, "window": ""}
        self.streamed: float | None = None  # when the last `partial` went

    def check(self) -> None:
        if self.rid in self.worker.cancelled or self.worker.stopping:
            raise Cancelled()

    def progress(self, stats, text: str) -> None:
        self.counts = {"sampled": stats.sampled, "spliced": stats.spliced, "budget": stats.budget,
                       "text_chars": len(text), "window": stats.windows}
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY_S:
            self.last = now
            self.worker.send({"method": "progress", "params": {"id": self.rid, **self.counts}})

    def place(self, place: dict) -> None:
        """Where a window lands, before its decode: at once."""
        self.worker.send({"method": "progress", "params": {"id": self.rid, **self.counts, "place": place}})

    def partial(self, partial: dict) -> None:
        """A window's new text so far: the first at once, then at most every PROGRESS_EVERY_S."""
        now = time.monotonic()
        if self.streamed is None or now - self.streamed >= PROGRESS_EVERY_S:
            self.streamed = now
            self.worker.send({"method": "progress", "params": {"id": self.rid, **self.counts, "partial": partial}})


class _PrepareHooks(_RequestHooks):
    """A prepare gives way to any request that waits for the model: it never delays an edit."""

    def check(self) -> None:
        super().check()
        if not self.worker.edits.empty():
            raise Cancelled()


def _unchanged(method: str, stats) -> str:
    """Why a finished edit or apply changes nothing, in words for the user."""
    if method == "apply":
        return "the block is already in the file"
    where = getattr(stats, "windows", "") or ""
    return "the model answered " + (f"lines {where}" if where[:1].isdigit() else "the text") + " as it was"


def _is_id(value) -> bool:
    """A JSON-RPC id: a number, a string, or null (absent)."""
    return value is None or isinstance(value, str) or (isinstance(value, int | float) and not isinstance(value, bool))


def _out_of_memory() -> tuple:
    """MemoryError, and torch's where an engine has loaded torch: looked up, not imported, since a remote
    worker runs without torch."""
    torch = sys.modules.get("torch")
    return (MemoryError, torch.OutOfMemoryError) if torch else (MemoryError,)


def _rejected_program() -> tuple:
    """A program that does not parse or resolve, or that the local grammar refuses (engine/decoding/constraint.py,
    which only the local engine loads: looked up, not imported, so that a remote worker does not load llguidance's
    tokenizer index)."""
    constraint = sys.modules.get("copy_as_decode.engine.decoding.constraint")
    return (ProgramSyntaxError, ResolveError) + ((constraint.GrammarError,) if constraint else ())
