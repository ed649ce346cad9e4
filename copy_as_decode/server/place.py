"""Where an edit lands, shown before it does: the pick among candidate places, and the place and preview
notifications of a running edit (docs/editors.md, "Where the edit lands").

An edit that names no selection or cursor asks the worker's `locate` first (docs/worker-protocol.md). When its
answer is not decisive, the user picks among the candidates: with the request `copyAsDecode/pick` from a client
that declares it, else with `window/showMessageRequest` (the candidates as actions, the first the default),
else the first is taken. While the edit runs, the worker's `place` and `partial` progress go to a client that
declared them as `copyAsDecode/place` and `copyAsDecode/preview`, for the version of the document the edit was
asked for and only while the buffer is at it. A preview never touches the buffer: the versioned
workspace/applyEdit that ends the edit is the authority; the last preview says `done` with the final text, or
`text: null` when the edit changed nothing (cancelled, failed, stale).

Clients declare the features in initializationOptions: {"copyAsDecode": {"clientFeatures": ["pick",
"preview", "place"]}}.
"""
import difflib
import logging
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from copy_as_decode.core.document import split_lines

from . import positions

PICK, PLACE, PREVIEW = "copyAsDecode/pick", "copyAsDecode/place", "copyAsDecode/preview"
FEATURES = frozenset({"pick", "preview", "place"})

log = logging.getLogger(__name__)


def client_features(options) -> frozenset[str]:
    """The features a client declares in its initializationOptions (the `copyAsDecode` section, or the section
    itself), those the server knows."""
    section = options.get("copyAsDecode", options) if isinstance(options, dict) else None
    named = section.get("clientFeatures") if isinstance(section, dict) else None
    return FEATURES & {f for f in named if isinstance(f, str)} if isinstance(named, list) else frozenset()


def line_range(text: str, index: positions.LineIndex, first: int, last: int) -> types.Range:
    """The LSP range of the core's lines first..last (1-based, inclusive, whole lines with their breaks)."""
    starts = positions.line_starts(text)
    a = starts[max(0, min(first - 1, len(starts) - 1))]
    b = starts[last] if last < len(starts) else len(text)
    return types.Range(start=index.position_at(a), end=index.position_at(max(a, b)))


def label(place: dict) -> str:
    """"lines 40-58 (fib)", "window 2/3: lines 40-58 (fib)", or "the whole file: <why>"."""
    first, last = place["lines"]
    which = f"window {place.get('window')}/{place['of']}: " if (place.get("of") or 1) > 1 else ""
    if place.get("whole"):
        return f"{which}the whole file ({place.get('reason') or f'lines {first}-{last}'})"
    symbols = place.get("symbols") or []
    return f"{which}lines {first}-{last}" + (f" ({', '.join(symbols)})" if symbols else "")


def window_text(old: str, new: str, first: int, last: int) -> str:
    """What lines first..last of `old` became in `new` (a windowed edit changes nothing outside its windows)."""
    a, b = split_lines(old), split_lines(new)
    runs = [(tag, i1, i2, j1) for tag, i1, i2, j1, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()]

    def mapped(i: int) -> int:  # old line index -> new, at the start of a changed run for a line inside one
        return next((j1 + (i - i1 if tag == "equal" else 0) for tag, i1, i2, j1 in runs if i1 <= i < i2 or i == i1),
                    len(b))
    return "".join(b[mapped(first - 1):mapped(last)])


class Live:
    """The place and preview notifications of one edit. `notify(method, params)` sends one; `current()` says
    whether the buffer is still at the edit's version."""

    def __init__(self, notify: Callable[[str, Any], None], features: frozenset[str], uri: str, version: int | None,
                 text: str, index: positions.LineIndex, current: Callable[[], bool]):
        self.notify, self.features, self.uri, self.version = notify, features, uri, version
        self.text, self.index, self.current = text, index, current
        self.places: list[dict] = []
        self.previewed = False

    def relay(self, params: dict) -> None:
        """A progress notification of the worker: its `place` and `partial`, when there are."""
        place, partial = params.get("place"), params.get("partial")
        if isinstance(place, dict) and _lines(place) is not None:
            self.places.append(place)
            if "place" in self.features and self.current():
                self._send(PLACE, {"uri": self.uri, "version": self.version, "ranges": [self._range(place)],
                                   "symbols": list(place.get("symbols") or []), "label": label(place)})
        if isinstance(partial, dict) and _lines(partial) is not None and isinstance(partial.get("text"), str) \
                and "preview" in self.features and self.current():
            self.previewed = True
            self._send(PREVIEW, {"uri": self.uri, "version": self.version, "range": self._range(partial),
                                 "text": partial["text"], "done": False})

    def done(self, new: str) -> None:
        """The edit's final text: each window announced, with what it became (done)."""
        if "preview" not in self.features or not self.places or not self.current():
            return
        for place in self.places:
            first, last = _lines(place)
            self._send(PREVIEW, {"uri": self.uri, "version": self.version, "range": self._range(place),
                                 "text": window_text(self.text, new, first, last), "done": True})

    def clear(self) -> None:
        """The edit changed nothing: a client that was shown a place or a preview clears it."""
        if "preview" not in self.features or not (self.places or self.previewed):
            return
        for place in self.places or [{"lines": [1, 1]}]:
            self._send(PREVIEW, {"uri": self.uri, "version": self.version, "range": self._range(place),
                                 "text": None, "done": True})
        self.places, self.previewed = [], False

    def _range(self, place: dict) -> dict:
        first, last = _lines(place)
        r = line_range(self.text, self.index, first, last)
        return {"start": {"line": r.start.line, "character": r.start.character},
                "end": {"line": r.end.line, "character": r.end.character}}

    def _send(self, method: str, params: dict) -> None:
        try:
            self.notify(method, params)
        except Exception as e:  # a notification that cannot go out must not fail the edit
            log.warning("%s failed: %s", method, e)


def _lines(obj: dict) -> tuple[int, int] | None:
    lines = obj.get("lines")
    if isinstance(lines, list) and len(lines) == 2 and all(type(n) is int and n >= 1 for n in lines) \
            and lines[0] <= lines[1]:
        return lines[0], lines[1]
    return None


def candidates_of(located: dict, text: str, index: positions.LineIndex) -> list[dict]:
    """The pick's candidates from a `locate` answer: {label: symbol, range, detail: "lines a-b: <first line>"}
    (malformed entries left out)."""
    out = []
    for c in located.get("candidates") or []:
        if isinstance(c, dict) and _lines(c) is not None and isinstance(c.get("symbol"), str):
            first, last = _lines(c)
            r = line_range(text, index, first, last)
            out.append({"label": c["symbol"], "lines": [first, last],
                        "range": {"start": {"line": r.start.line, "character": r.start.character},
                                  "end": {"line": r.end.line, "character": r.end.character}},
                        "detail": f"lines {first}-{last}" + (f": {c['first']}" if c.get("first") else "")})
    return out


async def pick(server, features: frozenset[str], uri: str, version: int | None, instruction: str,
               candidates: list[dict]) -> int | None:
    """The user's pick among `candidates` (candidates_of): its index, or None when the user cancelled.
    `copyAsDecode/pick` for a client that declares it, else window/showMessageRequest for a client that declares
    `window.showMessage`, else the first."""
    if "pick" in features:
        answer = await server.protocol.send_request_async(PICK, {
            "uri": uri, "version": version,
            "candidates": [{k: c[k] for k in ("label", "range", "detail")} for c in candidates]})
        index = answer.get("index") if isinstance(answer, dict) else getattr(answer, "index", None)
        return index if type(index) is int and 0 <= index < len(candidates) else None
    window = server.client_capabilities.window
    if window is None or window.show_message is None:
        return 0
    titles = [f"{c['label']} ({c['detail'].split(':', 1)[0]})" for c in candidates]
    said = " ".join(instruction.split())
    answer = await server.window_show_message_request_async(types.ShowMessageRequestParams(
        type=types.MessageType.Info, actions=[types.MessageActionItem(title=t) for t in titles],
        message=f"Copy-as-Decode: where should the edit go? The place is not certain for “{said[:80]}”; "
                f"the first is the likeliest."))
    title = getattr(answer, "title", None) if answer is not None else None
    return titles.index(title) if title in titles else None


class Placing:
    """What an edit needs of the language server to place it: the features the client declared, its pick, and
    the notifications of one edit (Live). `server` is the pygls LanguageServer."""

    def __init__(self, server, features: frozenset[str]):
        self.server, self.features = server, features

    def live(self, uri: str, version: int | None, text: str, index: positions.LineIndex,
             current: Callable[[], bool]) -> Live:
        return Live(self.server.protocol.notify, self.features, uri, version, text, index, current)

    async def pick(self, uri: str, version: int | None, instruction: str, candidates: list[dict]) -> int | None:
        return await pick(self.server, self.features, uri, version, instruction, candidates)


async def placed(worker, placing: Placing, params: dict, uri: str, version: int | None, instruction: str,
                 text: str, index: positions.LineIndex, report: Callable[[dict], None], limit=None) -> dict | None:
    """Where the edit of `params` goes, asked of the worker (`locate`) and, when that is not decided, of the user:
    the `place` to send with the edit (the model's choice, or the candidate the user picked; the edit takes it as
    it is), or None when the edit finds its windows itself (nothing was chosen among: a name decides them, or
    the whole file). Raises the worker client's errors, and RequestCancelled when the user cancelled the pick. A
    worker without `locate` leaves the edit as it was. `limit`: the edit's asyncio.timeout, held while the user
    picks (the timeout counts the model's time)."""
    import asyncio

    from copy_as_decode.core.contract import NO_METHOD

    from .worker_client import RequestCancelled, WorkerError
    ask = {k: params[k] for k in ("document", "instruction", "lines", "at", "language") if k in params}
    try:
        located = await worker.edit(ask, report, key=uri, method="locate")
    except RequestCancelled:
        raise
    except WorkerError as e:
        if e.code != NO_METHOD:
            log.warning("locate failed (%s); the edit finds its place itself", e)
        return None
    if not isinstance(located, dict):
        return None
    candidates = candidates_of(located, text, index)
    if not candidates:
        return None
    if located.get("decisive") is True:
        return _place(candidates[0], str(located.get("reason")))
    loop = asyncio.get_running_loop()
    deadline = limit.when() if limit is not None else None
    paused = loop.time()
    if limit is not None:
        limit.reschedule(None)
    try:
        chosen = await placing.pick(uri, version, instruction, candidates)
    finally:
        if limit is not None and deadline is not None:
            limit.reschedule(deadline + loop.time() - paused)
    if chosen is None:
        raise RequestCancelled("the pick was cancelled")
    return _place(candidates[chosen], f"the user's pick: {candidates[chosen]['label']}")


def _place(candidate: dict, reason: str) -> dict:
    """The `place` of an edit in a candidate (candidates_of), as the worker reads it (docs/worker-protocol.md)."""
    return {"windows": [{"lines": candidate["lines"], "symbols": [candidate["label"]]}], "reason": reason}
