"""The edit contract, defined once: what an edit may be asked, how it may end, and what a client is told.

The CLI, the language server and its settings, the worker and its client, both engines and training all
import these names, so a stop reason or an error code has one spelling. The engine's own settings (the model,
how its weights run, where it runs) are engine/options.py's.
Nothing here imports torch: the text tools and the server start without it.
"""
from typing import Protocol

AUTO = "auto"  # as a selector: chosen per model (engine.front); as a budget: derived from the document (`budget`)
# the selectors themselves are a registry: engine/selectors/
DEFAULT_SELECTOR = AUTO

# Why a decode stopped. Only the first two are a finished edit; any other stop changes nothing. PARTIAL: a
# rewrite that ended with a part of the file (under half of its lines, or ended by end of sequence inside its
# block short of the file's last line): small models answer with the edited function alone. SKIPPED: a
# finished edit that drops a run of lines or a statement unasked, anywhere in the document (core/deletions.py).
# UNPARSED: a finished edit whose result has parse errors its original had not (core/syntax_check.py). Both
# carry the refused result (IncompleteEdit.text), which editors offer for review and never apply unreviewed.
# PROSE: a chat model's answer that holds no code (engine/remote/chat.py). OUTSIDE: a window's rewrite that holds
# the lines around its window, a rewrite of more than the window (core/outside_window.py); never offered.
EOS, FENCE, CAP, CANCELLED, CONTEXT, PARTIAL = "eos", "fence", "cap", "cancelled", "context", "partial"
SKIPPED, UNPARSED, PROSE, OUTSIDE = "skipped", "unparsed", "prose", "outside"
REVIEWABLE = (SKIPPED, UNPARSED)
NORMAL_STOPS = (EOS, FENCE)

# Worker error codes (docs/worker-protocol.md); JSON-RPC's own below -32000.
PARSE_ERROR, INVALID_REQUEST, NO_METHOD, BAD_PARAMS = -32700, -32600, -32601, -32602
E_CANCELLED = -32800
ENGINE_ERROR, TOO_LONG, OUT_OF_MEMORY, BAD_PROGRAM, INCOMPLETE = 1000, 1001, 1002, 1003, 1004

# CLI exit codes (README "Command line"). EXIT_UNCHANGED: the edit or apply finished and its result is the
# file as it was (the model answered the window as it was; the block is already in the file): nothing written.
EXIT_ERROR, EXIT_INCOMPLETE, EXIT_UNCHANGED, EXIT_INTERRUPTED = 2, 3, 4, 130
# The status a worker and the language server answer for such a result, beside "applied"
UNCHANGED = "unchanged"


class EditError(Exception):
    """A failure the user is told about in one line; nothing was changed."""


class ModelError(EditError, RuntimeError):
    """A model that cannot be found, verified or loaded; the message says how to fix it."""


class ContextError(EditError, ValueError):
    """The prompt plus the least output an edit needs does not fit the model's context."""


class IncompleteEdit(EditError):
    """The decode stopped before the edit was finished (stop reason `cap`, `context` or `partial`)."""

    def __init__(self, stop: str, limit: int, stats=None, why: str | None = None, text: str | None = None):
        # text: a SKIPPED edit's refused result, which an editor may offer for review with the warning
        self.stop, self.limit, self.stats, self.text = stop, limit, stats, text
        if why is None and stop == CONTEXT:
            why = f"the edit did not fit the model's context ({limit} tokens left for it)"
        elif why is None and stop == PARTIAL:
            why = "the model rewrote only part of the file (it stopped before the file's end)"
        elif why is None:
            why = f"the edit did not finish within {limit} tokens"
        super().__init__(f"{why}; nothing was changed")


class Cancelled(EditError):
    """The edit was cancelled between two forward passes."""

    def __init__(self, message: str = "cancelled"):
        super().__init__(message)


class Hooks:
    """Called between forward passes: `check` may raise Cancelled, `progress` sees the running stats. A windowed
    edit also tells where it lands before each window's decode (`place`: {"lines": [first, last], "symbols",
    "window": k, "of": n, "reason"}) and, while a rewrite decodes, the window's new text so far in whole lines,
    indented as it will be written (`partial`: {"lines": [first, last], "text"}); the final answer stays the
    authority."""

    def check(self) -> None: ...
    def progress(self, stats, text: str) -> None: ...
    def place(self, place: dict) -> None: ...
    def partial(self, partial: dict) -> None: ...


class EditEngine(Protocol):
    """What runs edits, an edit engine: engine.local.LocalEngine (a local model), engine.remote.client.RemoteEngine
    (an inference server).
    server.worker_client.WorkerClient speaks the same parameters to a worker process, asynchronously."""

    model_name: str
    device: str
    dtype: str
    context: int | None

    def edit(self, *fields, **named):
        """The edit engine.request.EditRequest's fields ask for -> engine.result.EditResult; raises ContextError,
        IncompleteEdit, Cancelled or ValueError (engine/front.py EditFront.edit)."""
        ...

    def resolve(self, request):
        """The request (engine.request.EditRequest) with the selector it runs; ValueError for an unknown one."""
        ...

    def run(self, request):
        """A resolved request's edit, as `edit`."""
        ...
