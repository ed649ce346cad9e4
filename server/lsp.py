"""The Copy-as-Decode language server (pygls): code actions and an edit command backed by the decoding worker.

    textDocument/codeAction   "Fix with Copy-as-Decode: <message>" per diagnostic (quickfix) and
                              "Edit with Copy-as-Decode…" (refactor.rewrite, client command
                              copyAsDecode.editInteractive, which asks for an instruction)
    codeAction/resolve        runs a quickfix's edit and fills its versioned TextDocumentEdit
    workspace/executeCommand  copyAsDecode.edit {uri, version, instruction, range?, position?}: runs the edit
                              of the whole document (the selection `range` as its window, else the
                              symbol at the cursor `position`, core/windows.py) with work-done progress
                              and applies it with workspace/applyEdit (as hunks that need confirmation
                              when it goes to review);
                              copyAsDecode.cancel {uri?}: cancels running edits

See docs/editors.md for the behaviour users see.
"""
import argparse
import asyncio
import logging
import sys
import uuid
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from copy_as_decode.core import languages
from copy_as_decode.core.contract import CAP, INCOMPLETE, SKIPPED, TOO_LONG

from . import positions
from .edit_request import EditCommand, Outcome, position_json, range_json
from .settings import SECTION, Settings
from .worker_client import ExitInfo, RequestCancelled, Superseded, WorkerClient, WorkerCrashed, WorkerError

NAME = "copy-as-decode"
EDIT_COMMAND = "copyAsDecode.edit"
CANCEL_COMMAND = "copyAsDecode.cancel"
INTERACTIVE_COMMAND = "copyAsDecode.editInteractive"  # implemented by the editor plugins, not here
EDIT_TITLE = "Edit with Copy-as-Decode…"
FIX_TITLE = "Fix with Copy-as-Decode: "
PROGRESS_INTERVAL = 0.1  # seconds between progress reports

log = logging.getLogger(__name__)


class _Job:
    """One running edit: the task that runs it, cancellable from $/cancelRequest, progress or a command."""

    def __init__(self, uri: str):
        self.uri = uri
        self.task = asyncio.current_task()
        self.reason: str | None = None
        self.active = True

    def cancel(self, reason: str) -> None:
        if self.active and self.reason is None:
            self.reason = reason
            self.task.cancel()


# -- the server --------------------------------------------------------------------------------------------


class CopyAsDecodeProtocol(LanguageServerProtocol):
    def _handle_cancel_notification(self, msg_id):
        super()._handle_cancel_notification(msg_id)
        # executeCommand runs its handler as a separate task that pygls does not cancel: do it here
        self._server.cancel_request(msg_id)

    def _send_data(self, data):
        # after `exit` pygls closes stdout while cancelled edits still wind down: they must stay silent
        if not self._server.exiting:
            super()._send_data(data)


class CopyAsDecodeServer(LanguageServer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.settings = Settings()
        self.worker = WorkerClient(self.settings.command(), on_start=self._worker_started,
                                   on_exit=self._worker_exited)
        self.jobs: dict[Any, _Job] = {}  # request id -> job
        self.shut_down = False  # the client sent `shutdown`: `exit` then ends with code 0, else 1
        self.exiting = False  # the client sent `exit`: stdout is closed
        self._indexes: dict[str, tuple[int | None, str, positions.LineIndex]] = {}

    def shutdown(self):
        """pygls calls this when the connection ends (after `exit`, or when the client went away)."""
        self.worker.kill()
        super().shutdown()

    # messages

    def tell(self, kind: types.MessageType, text: str) -> None:
        text = " ".join(text.split())  # one line
        self.window_show_message(types.ShowMessageParams(type=kind, message=f"Copy-as-Decode: {text}"))

    def _worker_started(self, restarted: bool) -> None:
        if restarted:
            self.tell(types.MessageType.Info, "restarted the model worker")

    def _worker_exited(self, info: ExitInfo) -> None:
        if not info.expected and info.pending == 0:  # failed requests report it themselves
            tail = f": {info.stderr_tail}" if info.stderr_tail else ""
            self.tell(types.MessageType.Warning,
                      f"the model worker stopped (exit code {info.returncode}{tail}); it restarts with the next edit")

    # settings

    def apply_settings(self, raw) -> bool:
        """Merge client settings; returns whether the worker's command line changed."""
        new, errors = self.settings.merged(raw)
        for e in errors:
            self.tell(types.MessageType.Warning, f"ignored setting: {e}")
        changed = self.settings.restart_needed(new)
        self.settings = new
        return changed

    async def update_settings(self, raw) -> None:
        if self.apply_settings(raw) and await self.worker.set_command(self.settings.command()):
            self.tell(types.MessageType.Info, "settings changed: the model worker restarts with the next edit")

    async def pull_settings(self) -> None:
        ws = self.client_capabilities.workspace
        if not (ws and ws.configuration):
            return
        try:
            got = await self.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)]))
        except Exception as e:  # a client that answers badly keeps the current settings
            log.warning("workspace/configuration failed: %s", e)
            return
        if got and isinstance(got[0], dict):
            await self.update_settings(got[0])

    # documents and positions

    @property
    def encoding(self):
        return self.workspace.position_encoding or types.PositionEncodingKind.Utf16

    def document(self, uri: str):
        """The open document, or None (pygls would read unopened files from disk).

        pygls keys documents by the unquoted URI; clients percent-encode non-ASCII names and spaces."""
        return self.workspace.text_documents.get(unquote(uri))

    def index(self, doc) -> positions.LineIndex:
        cached = self._indexes.get(doc.uri)
        if cached and cached[0] == doc.version and cached[1] is doc.source:
            return cached[2]
        index = positions.LineIndex(doc.source, self.encoding)
        self._indexes[doc.uri] = (doc.version, doc.source, index)
        return index

    def forget(self, uri: str) -> None:
        self._indexes.pop(uri, None)

    # code actions

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        doc = self.document(params.text_document.uri)
        if doc is None:
            return None
        only = params.context.only
        actions = []
        diagnostics = [d for d in params.context.diagnostics if _overlaps(d.range, params.range)]
        if diagnostics and _wanted(types.CodeActionKind.QuickFix, only):
            actions += [self._quick_fix(doc, diag) for diag in diagnostics]
        if _wanted(types.CodeActionKind.RefactorRewrite, only):
            args: dict[str, Any] = {"uri": doc.uri, "version": doc.version}
            if params.range.start != params.range.end:
                args["range"] = range_json(params.range)
            else:
                args["position"] = position_json(params.range.start)
            actions.append(types.CodeAction(
                title=EDIT_TITLE, kind=types.CodeActionKind.RefactorRewrite,
                command=types.Command(title=EDIT_TITLE, command=INTERACTIVE_COMMAND, arguments=[args])))
        return actions

    def _quick_fix(self, doc, diag: types.Diagnostic) -> types.CodeAction:
        """The whole document, with the diagnostic's start as the cursor: the symbol around it is the window."""
        line = doc.lines[diag.range.start.line] if diag.range.start.line < len(doc.lines) else ""
        req = EditCommand(doc.uri, diagnostic_instruction(diag, line), doc.version, position=diag.range.start)
        message = diag.message.strip().splitlines()[0] if diag.message.strip() else "problem"
        title = FIX_TITLE + _shorten(message)
        action = types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                                  data=req.to_json())
        if not self.resolves_edits():
            action.command = types.Command(title=title, command=EDIT_COMMAND, arguments=[req.to_json()])
        return action

    def shows_annotations(self) -> bool:
        ws = self.client_capabilities.workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.change_annotation_support is not None)

    def resolves_edits(self) -> bool:
        ca = self.client_capabilities.text_document and self.client_capabilities.text_document.code_action
        support = ca and ca.resolve_support
        return bool(support and "edit" in (support.properties or []))

    # running edits

    def cancel_request(self, msg_id) -> None:
        if (job := self.jobs.get(msg_id)) is not None:
            job.cancel("cancelled")

    def cancel_edits(self, uri: str | None = None) -> int:
        jobs = [j for j in self.jobs.values() if j.active and (uri is None or j.uri == uri)]
        for job in jobs:
            job.cancel("cancelled")
        return len(jobs)

    async def run_edit(self, req: EditCommand, title: str = "Copy-as-Decode") -> Outcome:
        """Run the worker on the request's lines and return the LSP edits (nothing applied here).

        Failures come back as an Outcome with a status, after telling the user (cancellation is silent);
        whatever happens, the progress ends and the edit leaves nothing behind.
        """
        msg_id = self.protocol.msg_id
        job = _Job(req.uri)
        if msg_id is not None:
            self.jobs[msg_id] = job
        progress = _Progress(self)
        try:
            return await self._run_edit(req, title, job, progress)
        except asyncio.CancelledError:
            progress.end("cancelled")
            if job.reason is None:  # the server is stopping, or pygls cancelled the request's task
                raise
            asyncio.current_task().uncancel()
            return Outcome("cancelled", req.uri, req.version)
        except Exception as e:  # a fault of the server itself: still one line, not a traceback in the editor
            log.exception("edit of %s failed", req.uri)
            progress.end("failed")
            return self._fail(req, "error", f"the edit failed ({type(e).__name__}: {e}); nothing was changed")
        finally:
            job.active = False
            if msg_id is not None and self.jobs.get(msg_id) is job:
                del self.jobs[msg_id]

    async def _run_edit(self, req: EditCommand, title: str, job: _Job, progress: "_Progress") -> Outcome:
        doc = self.document(req.uri)
        if doc is None:
            return self._fail(req, "error", "the document is not open in the editor")
        version = doc.version if req.version is None else req.version
        if doc.version != version:
            return self._fail(req, "stale", "the document changed before the edit started; nothing was applied",
                              types.MessageType.Warning)
        text = doc.source
        index = self.index(doc)
        if (bad := _not_unicode(text)) is not None:
            line = index.position_at(bad).line + 1
            return self._fail(req, "error", f"the document holds text that is not valid Unicode (line {line}); "
                                            "nothing was changed")
        if _not_unicode(req.instruction) is not None:
            return self._fail(req, "error", "the instruction holds text that is not valid Unicode; nothing was changed")
        settings = self.settings
        params = {"document": text, "instruction": req.instruction, "selector": settings.selector,
                  "max_new_tokens": settings.budget}
        if req.range is not None:
            params["lines"] = positions.selected_lines(text, index, req.range)
        if req.position is not None:
            params["at"] = positions.line_of(text, index, req.position)
        if (language := languages.outline_name(languages.of_language_id(doc.language_id))) is not None:
            params["language"] = language  # how a windowed edit reads the outline

        await progress.begin(title, job,
                             "waiting for the model" if self.worker.running else "starting the model worker")
        warning = None
        try:
            async with asyncio.timeout(settings.timeout or None):
                result = await self.worker.edit(params, progress.report, key=req.uri)
        except TimeoutError:
            progress.end("timed out")
            return self._fail(req, "timeout", f"the edit timed out after {settings.timeout:g} s; nothing was applied")
        except Superseded:
            progress.end("superseded")
            return self._fail(req, "superseded", "a newer edit of this document replaced the running one",
                              types.MessageType.Info)
        except RequestCancelled:
            progress.end("cancelled")
            return Outcome("cancelled", req.uri, version)
        except WorkerCrashed as e:
            progress.end("failed")
            return self._fail(req, "error", f"{e}; it restarts with the next edit")
        except WorkerError as e:
            refused = (e.data or {}).get("text") if e.code == INCOMPLETE and (e.data or {}).get("stop") == SKIPPED else None
            if isinstance(refused, str) and self.shows_annotations() and settings.review != "never":
                result, warning = {"text": refused, "stats": (e.data or {}).get("stats")}, str(e)
            else:
                progress.end("incomplete" if e.code == INCOMPLETE else "failed")
                return self._fail(req, "error", _worker_message(e, settings))
        stats = result.get("stats") if isinstance(result, dict) else None
        new = result.get("text") if isinstance(result, dict) else None
        if not isinstance(new, str):
            progress.end("failed")
            return self._fail(req, "error", "the model worker gave no text")
        doc = self.document(req.uri)
        if doc is None or doc.version != version:
            progress.end("document changed")
            return self._fail(req, "stale", "the document changed while the edit ran; nothing was applied",
                              types.MessageType.Warning, stats)
        from copy_as_decode.core.text_edits import text_edits  # here: it pulls in numpy, slow to import
        edits = positions.to_lsp_edits(text, 0, text_edits(text, new), index)
        if not edits:
            progress.end("no change")
            return self._fail(req, "unchanged", "the model made no change", types.MessageType.Info, stats)
        hunks = [positions.hunk(index, e) for e in edits]
        reviewed = self.shows_annotations() and (warning is not None or settings.reviews(sum(h.changed for h in hunks)))
        progress.end(f"{len(edits)} edit{'s' if len(edits) != 1 else ''}{' to review' if reviewed else ''}")
        if warning is not None:  # a refused deletion, offered only for review: each hunk says why
            self.tell(types.MessageType.Warning, f"{warning.replace('nothing was changed', 'review it')}")
        return Outcome("ok", req.uri, version, edits, stats, hunks=hunks, reviewed=reviewed, warning=warning)

    def _fail(self, req: EditCommand, status: str, message: str, kind=types.MessageType.Error,
              stats=None) -> Outcome:
        self.tell(kind, message)
        return Outcome(status, req.uri, req.version, stats=stats, message=message)

    def text_document_edit(self, outcome: Outcome, instruction: str) -> types.WorkspaceEdit:
        """A versioned TextDocumentEdit. Clients that do not declare documentChanges (Neovim 0.11 handles
        them without saying so) also get the same edits as plain `changes`, which they fall back to.

        An edit that goes to review carries one change annotation per hunk, which needs confirmation: the
        client shows the hunks (VS Code's Refactor Preview, the Neovim plugin's diff) and applies those
        the user accepts."""
        edits, annotations = outcome.edits, None
        if outcome.reviewed:
            ids = [f"hunk-{k}" for k in range(1, len(edits) + 1)]
            edits = [types.AnnotatedTextEdit(range=e.range, new_text=e.new_text, annotation_id=i)
                     for e, i in zip(edits, ids)]
            about = outcome.warning or _shorten(" ".join(instruction.split()))
            annotations = {i: types.ChangeAnnotation(label=h.label, needs_confirmation=True, description=about)
                           for h, i in zip(outcome.hunks, ids)}
        edit = types.WorkspaceEdit(change_annotations=annotations, document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=outcome.uri, version=outcome.version),
            edits=edits)])
        ws = self.client_capabilities.workspace
        if not (ws and ws.workspace_edit and ws.workspace_edit.document_changes):
            edit.changes = {outcome.uri: outcome.edits}
        return edit

    async def apply(self, outcome: Outcome, instruction: str) -> str:
        """Send the edit with workspace/applyEdit; returns `applied`, `rejected` (the user declined a reviewed
        edit: the client gives no reason) or `refused`."""
        try:
            res = await self.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
                edit=self.text_document_edit(outcome, instruction), label="Copy-as-Decode"))
        except Exception as e:
            self.tell(types.MessageType.Error, f"the editor did not apply the edit: {e}")
            return "refused"
        if res.applied:
            return "applied"
        if outcome.reviewed and not res.failure_reason:
            return "rejected"
        self.tell(types.MessageType.Error,
                  f"the editor did not apply the edit: {res.failure_reason or 'no reason given'}")
        return "refused"


class _Progress:
    """Work-done progress for one edit; without client support (or before `begin`) it does nothing."""

    def __init__(self, ls: CopyAsDecodeServer):
        self.ls, self.token, self.last = ls, None, 0.0
        self.done = False

    async def begin(self, title: str, job: _Job, message: str) -> None:
        window = self.ls.client_capabilities.window
        if not (window and window.work_done_progress):
            return
        token = f"copyAsDecode/{uuid.uuid4()}"
        try:
            await self.ls.work_done_progress.create_async(token)
        except Exception as e:
            log.warning("window/workDoneProgress/create failed: %s", e)
            return
        self.token = token
        self.ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=title, cancellable=True, message=message))
        loop = asyncio.get_running_loop()
        cancel_future = self.ls.work_done_progress.tokens.get(token)
        if cancel_future is not None:
            cancel_future.add_done_callback(
                lambda f: f.cancelled() and loop.call_soon_threadsafe(job.cancel, "cancelled"))

    def report(self, params: dict) -> None:
        if self.token is None or self.done:
            return
        now = asyncio.get_running_loop().time()
        if now - self.last < PROGRESS_INTERVAL:
            return
        self.last = now
        sampled, spliced, window = params.get("sampled", 0), params.get("spliced", 0), params.get("window")
        self.ls.work_done_progress.report(self.token, types.WorkDoneProgressReport(
            message=f"{window + ': ' if window else ''}{sampled} tokens generated, {spliced} copied"))

    def end(self, message: str) -> None:
        if self.token is None or self.done:
            return
        self.done = True
        self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
        self.ls.work_done_progress.tokens.pop(self.token, None)


def diagnostic_instruction(diag: types.Diagnostic, text: str) -> str:
    """The instruction for a quick fix: the diagnostic's message, code, source and the line it is on, quoted
    (the model sees the function around it, not the file's line numbers)."""
    source = f" reported by {diag.source}" if diag.source else ""
    code = f" ({diag.code})" if diag.code not in (None, "") else ""
    message = " ".join(diag.message.split()) or "a problem"
    where = f" in the line `{text.strip()}`" if text.strip() and "`" not in text else ""
    return f"Fix the problem{source}{code}{where}: {message}"


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


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _wanted(kind: str, only) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    """Whether the ranges share a line: clients send the diagnostics they consider relevant to the request
    (a cursor anywhere on a diagnostic's line counts)."""
    return a.start.line <= b.end.line and b.start.line <= a.end.line


# -- LSP features --------------------------------------------------------------------------------------------

server = CopyAsDecodeServer(NAME, "0.1.0", protocol_cls=CopyAsDecodeProtocol,
                            text_document_sync_kind=types.TextDocumentSyncKind.Full)


@server.feature(types.INITIALIZE)
def initialize(ls: CopyAsDecodeServer, params: types.InitializeParams):
    ls.apply_settings(params.initialization_options)
    ls.worker.command = ls.settings.command()


@server.feature(types.INITIALIZED)
async def initialized(ls: CopyAsDecodeServer, params: types.InitializedParams):
    await ls.pull_settings()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: CopyAsDecodeServer, params: types.DidChangeConfigurationParams):
    if isinstance(params.settings, dict) and isinstance(params.settings.get(SECTION), dict):
        await ls.update_settings(params.settings)
    else:
        await ls.pull_settings()


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CopyAsDecodeServer, params: types.DidCloseTextDocumentParams):
    ls.forget(params.text_document.uri)
    ls.cancel_edits(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite],
    resolve_provider=True))
def code_action(ls: CopyAsDecodeServer, params: types.CodeActionParams):
    return ls.code_actions(params)


@server.feature(types.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: CopyAsDecodeServer, action: types.CodeAction) -> types.CodeAction:
    try:
        req = EditCommand.from_json(action.data)
    except ValueError:
        return action  # not one of ours
    outcome = await ls.run_edit(req, title=action.title)
    if outcome.status == "ok":
        action.edit = ls.text_document_edit(outcome, req.instruction)
    return action


@server.command(EDIT_COMMAND)
async def edit_command(ls: CopyAsDecodeServer, *args):
    try:
        req = EditCommand.from_json(args[0] if len(args) == 1 else None)
    except ValueError as e:
        ls.tell(types.MessageType.Error, f"bad {EDIT_COMMAND} argument: {e}")
        return {"applied": False, "status": "error", "reviewed": False, "message": str(e)}
    outcome = await ls.run_edit(req)
    if outcome.status == "ok":
        outcome.status = await ls.apply(outcome, req.instruction)
    return outcome.result()


@server.command(CANCEL_COMMAND)
def cancel_command(ls: CopyAsDecodeServer, *args):
    uri = args[0].get("uri") if args and isinstance(args[0], dict) else None
    return {"cancelled": ls.cancel_edits(uri)}


@server.feature(types.SHUTDOWN)
async def shutdown(ls: CopyAsDecodeServer, params):
    ls.shut_down = True
    ls.cancel_edits()
    await ls.worker.shutdown()


@server.feature(types.EXIT)
def exit_(ls: CopyAsDecodeServer, params):
    # Synchronous: pygls then closes stdout and ends the event loop at once (an awaiting handler would let
    # it read stdin again and block there). Without a prior shutdown, edits and the worker may still run.
    ls.exiting = True
    ls.cancel_edits()
    ls.worker.kill()


# -- command line ------------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    parser.add_argument("--log-level", default="WARNING", help="server log level on stderr (default WARNING)")


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=getattr(args, "log_level", "WARNING").upper(), stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    if getattr(args, "tcp", None):
        host, _, port = args.tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return 0 if server.shut_down else 1  # as LSP asks; pygls swallows the SystemExit that carries it


run = serve  # the name `copy-as-decode serve` delegates to, like the other subcommands
