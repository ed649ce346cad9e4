"""Running one edit: from an EditCommand to an Outcome, with no LSP connection in sight.

Both ways an edit starts, a quick fix resolved by codeAction/resolve and the copyAsDecode.edit command, run
it here, so they refuse, fail and report alike. An edit checks that the document is open, at the version the
request names, and valid Unicode; asks the worker for the new text, with the selection or the cursor as the
window; checks that the document did not change meanwhile (what only the server knows: the worker's answer
has passed every check a result passes, engine/front.py `checked` and engine/apply.py's guarantee, and is not
checked again here); and turns the new text into LSP edits, marked for review when the settings and the
client call for it. A result the worker refused but a user may still want (a deletion nobody asked for, a
result with new parse errors: contract.REVIEWABLE) is only ever offered for review: as hunks that need
confirmation where the client shows change annotations, else as a question the server asks before it
applies anything (Outcome.asks, server/lsp.py), else refused.
A result that is the document as it was is UNCHANGED, and says why. Nothing is applied here.

What it needs from the server comes in as narrow collaborators (the open documents, the worker, a way to tell
the user, the settings, the edit's Job and Progress), so tests run it against fakes, without a language
server (tests/test_edit_run.py).
"""
import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

from lsprotocol import types

from copy_as_decode.core.contract import CAP, INCOMPLETE, REVIEWABLE, TOO_LONG, UNCHANGED

from . import positions
from .edit_request import EDIT_TITLE, EditCommand, Outcome, Status
from .jobs import Job, Progress
from .place import Placing, placed
from .settings import SECTION, Settings
from .worker_client import RequestCancelled, Superseded, WorkerCrashed, WorkerError

log = logging.getLogger(__name__)
# the worker request key of a prepare: one at a time, whatever the document, a newer one supersedes it
PREPARE_KEY = ("prepare",)


class Worker(Protocol):
    """What an edit needs of server.worker_client.WorkerClient."""

    running: bool

    async def edit(self, params: dict, on_progress: Callable[[dict], None] | None = None, *, key=None,
                   method: str = "edit") -> dict: ...


class EditRunner:
    """Runs edits of the open documents on the worker; what belongs to one edit comes with `run`.

    `document(uri)` gives the open document (pygls's TextDocument: uri, version, source, language_id) or None,
    `index(doc)` its LineIndex, and `tell(kind, text)` shows the user a message."""

    def __init__(self, document: Callable[[str], Any], index: Callable[[Any], positions.LineIndex], worker: Worker,
                 tell: Callable[[types.MessageType, str], None]):
        self.document, self.index, self.worker, self.tell = document, index, worker, tell

    async def run(self, req: EditCommand, *, settings: Settings, can_review: bool, job: Job,
                  progress: Progress, placing: Placing | None = None, asks: bool = False) -> Outcome:
        """Run the worker on the request's lines and return the LSP edits (_ended).

        `placing`: the client's pick and its place and preview notifications (server/place.py): an edit without
        a selection or a cursor asks the worker where it lands first, and the user when that is not decided;
        the previews end with the final text, or are cleared when the edit changes nothing."""
        shown: dict = {}  # the edit's Live once it runs, and its new text when it has one
        outcome = None
        try:
            outcome = await self._ended(req, settings, can_review, asks, job, progress, placing, shown)
            return outcome
        finally:
            if (live := shown.get("live")) is not None:
                live.done(shown["new"]) if outcome is not None and outcome.status == Status.OK else live.clear()

    async def _ended(self, req: EditCommand, settings: Settings, can_review: bool, asks: bool, job: Job,
                     progress: Progress, placing: Placing | None, shown: dict) -> Outcome:
        """Run the worker on the request's lines and return the LSP edits.

        `can_review`: the client shows change annotations that need confirmation, so an edit can go to review.
        `asks`: the client answers window/showMessageRequest, so a result that may only be reviewed can be put
        to the user as a question where it shows no annotations.
        Failures come back as an Outcome with a status, after telling the user (cancellation is silent);
        whatever happens, the progress ends."""
        try:
            return await self._run(req, settings, can_review, asks, progress, placing, shown)
        except asyncio.CancelledError:
            progress.end("cancelled")
            if not job.cancelled:  # the server is stopping, or pygls cancelled the request's task
                raise
            asyncio.current_task().uncancel()
            return Outcome(Status.CANCELLED, req.uri, req.version)
        except Exception as e:  # a fault of the server itself: still one line, not a traceback in the editor
            log.exception("edit of %s failed", req.uri)
            progress.end("failed")
            return self._fail(req, Status.ERROR, f"the edit failed ({type(e).__name__}: {e}); nothing was changed")

    async def _run(self, req: EditCommand, settings: Settings, can_review: bool, asks: bool, progress: Progress,
                   placing: Placing | None, shown: dict) -> Outcome:
        doc = self.document(req.uri)
        if doc is None:
            return self._fail(req, Status.ERROR, "the document is not open in the editor")
        version = doc.version if req.version is None else req.version
        if doc.version != version:
            return self._fail(req, Status.STALE, "the document changed before the edit started; nothing was applied",
                              types.MessageType.Warning)
        text = doc.source
        index = self.index(doc)
        if (bad := _not_unicode(text)) is not None:
            line = index.position_at(bad).line + 1
            return self._fail(req, Status.ERROR, f"the document holds text that is not valid Unicode (line {line}); "
                                            "nothing was changed")
        what = "instruction" if req.block is None else "block"
        if _not_unicode(req.instruction if req.block is None else req.block) is not None:
            return self._fail(req, Status.ERROR, f"the {what} holds text that is not valid Unicode; nothing was changed")
        params = {**req.worker_params(doc, index), "max_new_tokens": settings.budget}
        # an apply's block may be a chat's whole answer: its blocks for other files are told apart by path
        params.update({"instruction": req.instruction, "selector": settings.selector} if req.block is None
                      else {"block": req.block, "path": _file_path(req.uri)})

        await progress.begin("waiting for the model" if self.worker.running else "starting the model worker")
        warning = None
        report = progress.report
        if placing is not None:
            live = shown["live"] = placing.live(req.uri, version, text, index, lambda: self._current(req.uri, version))
            report = _both(live.relay, progress.report)
        try:
            async with asyncio.timeout(settings.timeout or None) as limit:
                if placing is not None and req.block is None and req.range is None and req.position is None:
                    place = await placed(self.worker, placing, params, req.uri, version, req.instruction, text,
                                         index, report, limit)
                    if not self._current(req.uri, version):  # changed while the user picked
                        progress.end("document changed")
                        return self._fail(req, Status.STALE, "the document changed before the edit started; "
                                          "nothing was applied", types.MessageType.Warning)
                    if place is not None:
                        params["place"] = place
                result = await self.worker.edit(params, report, key=req.uri,
                                                method="edit" if req.block is None else "apply")
        except TimeoutError:
            progress.end("timed out")
            return self._fail(req, Status.TIMEOUT, f"the edit timed out after {settings.timeout:g} s; nothing was applied")
        except Superseded:
            progress.end("superseded")
            return self._fail(req, Status.SUPERSEDED, "a newer edit of this document replaced the running one",
                              types.MessageType.Info)
        except RequestCancelled:
            progress.end("cancelled")
            return Outcome(Status.CANCELLED, req.uri, version)
        except WorkerCrashed as e:
            progress.end("failed")
            return self._fail(req, Status.ERROR, f"{e}; it restarts with the next edit")
        except WorkerError as e:
            data = e.data if isinstance(e.data, dict) else {}
            refused = data.get("text") if e.code == INCOMPLETE and data.get("stop") in REVIEWABLE else None
            if isinstance(refused, str) and (can_review or asks) and settings.review != "never":
                # offered, so not "nothing was changed" (contract.IncompleteEdit's ending): why it needs review
                result, warning = {"text": refused, "stats": data.get("stats")}, str(e).removesuffix("; nothing was changed")
            else:
                progress.end("incomplete" if e.code == INCOMPLETE else "failed")
                return self._fail(req, Status.ERROR, _worker_message(e, settings))
        stats = result.get("stats") if isinstance(result, dict) else None
        new = result.get("text") if isinstance(result, dict) else None
        if not isinstance(new, str):
            progress.end("failed")
            return self._fail(req, Status.ERROR, "the model worker gave no text")
        if not self._current(req.uri, version):
            progress.end("document changed")
            return self._fail(req, Status.STALE, "the document changed while the edit ran; nothing was applied",
                              types.MessageType.Warning, stats)
        from copy_as_decode.core.text_edits import text_edits  # here: it pulls in numpy, slow to import
        # the worker's word (status UNCHANGED, and why: docs/worker-protocol.md) or the text's; a worker that
        # says UNCHANGED gets nothing applied, whatever text it sent
        said = warning is None and result.get("status") == UNCHANGED
        edits = [] if said else positions.to_lsp_edits(text, 0, text_edits(text, new), index)
        if not edits:
            progress.end("no change")
            why = result.get("message") if said and isinstance(result.get("message"), str) else _unchanged(req)
            return self._fail(req, Status.UNCHANGED, f"No change: {why}", types.MessageType.Info, stats)
        shown["new"] = new
        hunks = [positions.hunk(index, e) for e in edits]
        reviewed = can_review and (warning is not None or settings.reviews(sum(h.changed for h in hunks)))
        asked = warning is not None and not reviewed  # only `asks` let a warning through without can_review
        progress.end(f"{len(edits)} edit{'s' if len(edits) != 1 else ''}"
                     f"{' to review' if reviewed or asked else ''}")
        if reviewed and warning is not None:  # a refused result, offered only for review: each hunk says why
            self.tell(types.MessageType.Warning, f"{warning}; review it")
        # an apply's answer held blocks it did not merge (for another file, a usage example): the user sees which,
        # as the command line lists them, so "done" never hides a block that went nowhere
        left = [x for x in result.get("left_out") or [] if isinstance(x, str)]
        if left:
            self.tell(types.MessageType.Warning, "Not merged: " + "; ".join(left))
        return Outcome(Status.OK, req.uri, version, edits, stats, message="Not merged: " + "; ".join(left) if left
                       else "", hunks=hunks, reviewed=reviewed, asks=asked, warning=warning)

    async def prepare(self, req: EditCommand, settings: Settings) -> dict:
        """copyAsDecode.prepare: the worker reads the window at the request's place while the user types the
        instruction (engine/read_ahead.py), silently. -> the worker's answer, or {"reason"} when nothing was read.
        Cancelled (the task) when the document changes; the worker drops it itself when an edit arrives."""
        doc = self.document(req.uri)
        if doc is None or (req.version is not None and doc.version != req.version):
            return {"reason": "the document is not open at that version"}
        if _not_unicode(doc.source) is not None:
            return {"reason": "the document holds text that is not valid Unicode"}
        try:
            async with asyncio.timeout(settings.timeout or None):
                return await self.worker.edit(req.worker_params(doc, self.index(doc)), key=PREPARE_KEY, method="prepare")
        except (TimeoutError, WorkerError) as e:  # Superseded and RequestCancelled are WorkerErrors
            return {"reason": str(e) or type(e).__name__}

    def _current(self, uri: str, version: int) -> bool:
        """Whether the document is still open at `version`."""
        doc = self.document(uri)
        return doc is not None and doc.version == version

    def _fail(self, req: EditCommand, status: Status, message: str, kind=types.MessageType.Error,
              stats=None) -> Outcome:
        self.tell(kind, message)
        return Outcome(status, req.uri, req.version, stats=stats, message=message)


def _file_path(uri: str) -> str | None:
    """The file system path of a file: URI (None for another scheme: an unsaved buffer has no path)."""
    from urllib.parse import unquote, urlparse
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def _unchanged(req: EditCommand) -> str:
    """Why a result that is the document as it was changes nothing, where the worker did not say."""
    return "the block is already in the file" if req.block is not None else "the model answered the text as it was"


def _both(first: Callable[[dict], None], second: Callable[[dict], None]) -> Callable[[dict], None]:
    def both(params: dict) -> None:
        first(params)
        second(params)
    return both


def _worker_message(e: WorkerError, settings: Settings) -> str:
    text = str(e) or "the model worker failed"
    if e.code == TOO_LONG:
        return f"{text} (select fewer lines and use “{EDIT_TITLE}”)"
    if e.code == INCOMPLETE:
        by_budget = settings.max_new_tokens is not None and (e.data or {}).get("stop") == CAP
        return f"{text} (select fewer lines{f', or raise {SECTION}.maxNewTokens' if by_budget else ''})"
    return text


def _not_unicode(text: str) -> int | None:
    """Offset of the first lone surrogate (JSON can carry one, UTF-8 cannot), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return e.start
    return None
