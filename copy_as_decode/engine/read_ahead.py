"""Reading the window before the instruction is typed: the prompt an edit at the cursor (or of the selection)
will decode after, up to where the instruction goes, prefilled into the engine's cache while the user types.

The edit that follows builds the same prompt with its instruction and finds that head in the cache
(engine/backends/decode_backend.py `start` reuses the longest common prefix), so only the instruction and what follows
it are read once it arrives. The head is what a windowed edit's first window shows (engine/selectors/windowed.py
`shown_text`, in a rewrite prompt), and how much of the prompt it is depends on where the layout puts the
instruction: engine/prompts/prompt.py PREPARED_LAYOUT puts the file first, and the rewrite of exactly the prepared text
uses that layout (engine/front.py `prepared`), every other the default.

A prepare is read in pieces, with a check between them, so an edit that arrives meanwhile waits at most one
piece; what was read by then stays in the cache and still counts.
"""
import time

from copy_as_decode.core import windows
from copy_as_decode.core.budget import rewrite_bound
from copy_as_decode.core.contract import Hooks
from copy_as_decode.core.document import split_lines
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.selectors import windowed

PIECE = 48  # tokens prefilled between two checks: an edit that arrives waits at most about one such forward
ROOM = 256  # positions kept free after the head for the instruction, beyond the rewrite's own bound


def prepare(front, document: str, lines: tuple[int, int] | None = None, at: int | None = None,
            language: str | None = None, hooks: Hooks = Hooks()) -> dict:
    """Prefill the head of the first window's rewrite prompt. -> {"lines", "symbols", "tokens" (the head's),
    "cached" (of which the cache held already), "seconds"}, or {"reason"} when nothing was read: a long document
    without a selection or cursor (the instruction decides the place), or an engine that keeps no cache."""
    if not hasattr(front, "prefill"):
        return {"reason": "this engine keeps no prompt cache of its own"}
    # the request the edit will be, but for its instruction: the document as its prompts see it (`lf`)
    request = EditRequest(document, "", lines=lines, language=language, at=at)
    every = split_lines(request.lf)
    if lines is None and at is None and len(every) >= windows.MIN_LINES:
        return {"reason": "no selection or cursor: the instruction will say where the edit goes"}
    plan = windows.find(request.lf, "", request.lines, request.language, at=request.at)
    # no window: the edit will rewrite the whole file (a short one, or one without an outline)
    w = plan.windows[0] if plan.windows else windows.Window(1, len(every), ())
    shown = windowed.shown_text(every, w) if plan.windows else request.lf
    with front.tok_lock:
        head = prompt.rewrite_head(front.tok, shown, prompt.PREPARED_LAYOUT)
    positions = rewrite_bound(len(front.encode(shown))) + ROOM
    front.prepared = shown
    start, cached = time.perf_counter(), front.held(head)
    for end in range(cached + PIECE, len(head) + PIECE, PIECE):
        hooks.check()
        front.prefill(head[:end] + [0], positions)  # prefill reads all but the last id it is given
    return {"lines": [w.start, w.end], "symbols": list(w.names), "tokens": len(head), "cached": cached,
            "seconds": time.perf_counter() - start}
