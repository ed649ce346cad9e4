"""The Copy-as-Decode language server (pygls): code actions and an edit command backed by the decoding worker.

    textDocument/codeAction   "Fix with Copy-as-Decode: <message>" per diagnostic (quickfix) and
                              "Edit with Copy-as-Decode…" (refactor.rewrite, client command
                              copyAsDecode.editInteractive, which asks for an instruction)
    codeAction/resolve        runs a quickfix's edit and fills its versioned TextDocumentEdit
    workspace/executeCommand  copyAsDecode.edit {uri, version, instruction, range?, position?}: runs the edit
                              of the whole document (the selection `range` as its window, else the
                              symbol at the cursor `position`, core/windows.py) with work-done progress
                              and applies it with workspace/applyEdit (as hunks that need confirmation
                              when it goes to review; a result the worker refused, which may only be
                              reviewed, goes to a client without annotations as window/showMessageRequest
                              Apply / Discard first, and is applied only on Apply);
                              copyAsDecode.apply {uri, version, block, range?, position?}: the same for a
                              code block merged into the document (engine/apply.py);
                              copyAsDecode.cancel {uri?}: cancels running edits;
                              copyAsDecode.prepare {uri, version, range?, position?}: sent as the
                              instruction prompt opens, the worker reads the window there meanwhile
                              (engine/read_ahead.py); dropped when the document changes
    copyAsDecode/pick         (server -> client) which candidate place an edit goes to, when the worker's
                              `locate` is not decisive; copyAsDecode/place and copyAsDecode/preview
                              (notifications) show where it lands and its new text as it decodes, for clients
                              that declare them (server/place.py)

This file holds one function per LSP feature and the server object they share. What they call on lives
beside it: edit_run.py runs an edit (and knows nothing of LSP connections), workspace_edit.py builds the
WorkspaceEdit that carries it, jobs.py tracks the running edits, their cancellation and progress, place.py
asks where an edit lands and relays its place and preview, and worker_client.py speaks to the model worker,
whose process worker_process.py looks after.

See docs/editors.md for the behaviour users see.
"""
import argparse
import asyncio
import logging
import os
import signal
import sys
from typing import Any
from urllib.parse import unquote

import cattrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from . import positions
from .edit_request import (
    APPLY_COMMAND,
    APPLY_TITLE,
    CANCEL_COMMAND,
    EDIT_COMMAND,
    EDIT_TITLE,
    FIX_TITLE,
    INTERACTIVE_COMMAND,
    PREPARE_COMMAND,
    EditCommand,
    Outcome,
    Status,
    position_json,
    range_json,
    shorten,
)
from .edit_run import EditRunner
from .jobs import Jobs, Progress
from .place import Placing, client_features
from .settings import SECTION, Settings
from .worker_client import ExitInfo, WorkerClient
from .workspace_edit import text_document_edit

NAME = "copy-as-decode"
APPLY, DISCARD = "Apply", "Discard"  # the answers to a result that may only be reviewed (_confirmed)
REVIEW_SHOWN = 5  # hunks named in that question; the rest are counted

log = logging.getLogger(__name__)


class CopyAsDecodeProtocol(LanguageServerProtocol):
    def _handle_cancel_notification(self, msg_id):
        super()._handle_cancel_notification(msg_id)
        # pygls (2.1) answers workspace/executeCommand from a generator that runs the command handler as a
        # second task under an id of its own, so $/cancelRequest cancels the answer but not the command. And it
        # offers no hook for $/cancelRequest: JsonRPCProtocol._handle_notification handles that method itself,
        # before looking up registered features. Hence this override, which cancels the edit the request runs
        # (`_server` is pygls's own link from the protocol to its server; it has no public name).
        self._server.jobs.cancel_request(msg_id)

    def structure_message(self, data):
        # pygls (2.1) reads each message with this as json.loads' object_hook; one that does not fit its type (a
        # negative line, a missing `context`) raises, and pygls logs it and drops it: the client would wait
        # forever. A request is answered with InvalidParams instead; a client's answer that cannot be read fails
        # the server's request it answers.
        try:
            return super().structure_message(data)
        except JsonRpcException as e:
            rid, cause = data.get("id"), e.__cause__
            why = "; ".join(cattrs.transform_error(cause)) if isinstance(cause, cattrs.BaseValidationError) else repr(cause)
            if _is_id(rid) and "method" in data:
                self._send_response(rid, None, JsonRpcInvalidParams(
                    f"invalid params for {data['method']}: {why}").to_response_error())
            elif _is_id(rid):
                self._handle_response(rid, None, JsonRpcInvalidParams(f"unreadable answer: {why}").to_response_error())
            return _UNREADABLE

    def handle_message(self, message):
        if message is _UNREADABLE:
            return  # answered in structure_message
        if not hasattr(message, "jsonrpc"):  # JSON that is no JSON-RPC message: pygls would raise on it
            log.warning("ignored a message that is not JSON-RPC: %.200r", message)
            if isinstance(message, dict) and _is_id(message.get("id")):
                self._send_response(message["id"], None, JsonRpcInvalidRequest().to_response_error())
            return
        super().handle_message(message)


_UNREADABLE = object()  # what structure_message gives for a message it could not read


def _is_id(value) -> bool:
    return isinstance(value, str) or type(value) is int


class _AfterExit:
    """The transport once the client sent `exit`: pygls closes it next, while cancelled edits still wind down
    and report (progress ends, messages), which must go nowhere."""

    def __init__(self, writer):
        self.writer = writer

    def write(self, data: bytes) -> None:
        pass

    def close(self):
        return self.writer.close()


class CopyAsDecodeServer(LanguageServer):
    """pygls's server and what the features share: the settings, the worker, the running edits, the open
    documents' line indexes, and what the client can do."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.settings = Settings()
        self.worker = WorkerClient(self.settings.command(), on_start=self._worker_started,
                                   on_exit=self._worker_exited)
        self.jobs = Jobs()
        self.edits = EditRunner(self.document, self.index, self.worker, self.tell)
        self.shut_down = False  # the client sent `shutdown`: `exit` then ends with code 0, else 1
        self.features: frozenset[str] = frozenset()  # what the client declared it shows (server/place.py)
        self._indexes: dict[str, tuple[int | None, str, positions.LineIndex]] = {}
        self.preparing: tuple[str, asyncio.Task] | None = None  # the prepare in flight: its uri and task

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
            why = info.reason or f"the model worker stopped (exit code {info.returncode}{tail})"
            self.tell(types.MessageType.Warning, f"{why}; it restarts with the next edit")

    # documents

    def document(self, uri: str):
        """The open document, or None (pygls would read unopened files from disk).

        pygls keys documents by the unquoted URI; clients percent-encode non-ASCII names and spaces."""
        return self.workspace.text_documents.get(unquote(uri))

    def index(self, doc) -> positions.LineIndex:
        cached = self._indexes.get(doc.uri)
        if cached and cached[0] == doc.version and cached[1] is doc.source:
            return cached[2]
        index = positions.LineIndex(doc.source, self.workspace.position_encoding or types.PositionEncodingKind.Utf16)
        self._indexes[doc.uri] = (doc.version, doc.source, index)
        return index

    def forget(self, uri: str) -> None:
        self._indexes.pop(uri, None)

    # what the client can do

    def shows_progress(self) -> bool:
        window = self.client_capabilities.window
        return bool(window and window.work_done_progress)

    def shows_annotations(self) -> bool:
        ws = self.client_capabilities.workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.change_annotation_support is not None)

    def asks_questions(self) -> bool:
        """The client answers window/showMessageRequest with one of the actions it was offered."""
        window = self.client_capabilities.window
        return bool(window and window.show_message is not None)

    def declares_document_changes(self) -> bool:
        ws = self.client_capabilities.workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)

    def resolves_edits(self) -> bool:
        ca = self.client_capabilities.text_document and self.client_capabilities.text_document.code_action
        support = ca and ca.resolve_support
        return bool(support and "edit" in (support.properties or []))

    # running edits

    async def run_edit(self, req: EditCommand, title: str = "Copy-as-Decode") -> Outcome:
        """Run the edit as a job of the current request, cancellable until it ends; nothing is applied here."""
        with self.jobs.track(self.protocol.msg_id, req.uri) as job:
            progress = Progress(self.work_done_progress, job, title, self.shows_progress())
            return await self.edits.run(req, settings=self.settings, can_review=self.shows_annotations(), job=job,
                                        progress=progress, placing=Placing(self, self.features),
                                        asks=self.asks_questions())


server = CopyAsDecodeServer(NAME, "0.1.0", protocol_cls=CopyAsDecodeProtocol,
                            text_document_sync_kind=types.TextDocumentSyncKind.Full)


# -- LSP features --------------------------------------------------------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: CopyAsDecodeServer, params: types.InitializeParams):
    _apply_settings(ls, params.initialization_options)
    ls.features = client_features(params.initialization_options)
    ls.worker.command = ls.settings.command()


@server.feature(types.INITIALIZED)
async def initialized(ls: CopyAsDecodeServer, params: types.InitializedParams):
    await _pull_settings(ls)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: CopyAsDecodeServer, params: types.DidChangeConfigurationParams):
    if isinstance(params.settings, dict) and isinstance(params.settings.get(SECTION), dict):
        await _update_settings(ls, params.settings)
    else:
        await _pull_settings(ls)


def _apply_settings(ls: CopyAsDecodeServer, raw) -> bool:
    """Merge client settings; returns whether the worker's command line changed."""
    new, errors = ls.settings.merged(raw)
    for e in errors:
        ls.tell(types.MessageType.Warning, f"ignored setting: {e}")
    changed = ls.settings.restart_needed(new)
    ls.settings = new
    return changed


async def _update_settings(ls: CopyAsDecodeServer, raw) -> None:
    if _apply_settings(ls, raw) and await ls.worker.set_command(ls.settings.command()):
        ls.tell(types.MessageType.Info, "settings changed: the model worker restarts with the next edit")


async def _pull_settings(ls: CopyAsDecodeServer) -> None:
    ws = ls.client_capabilities.workspace
    if not (ws and ws.configuration):
        return
    try:
        got = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)]))
    except Exception as e:  # a client that answers badly keeps the current settings
        log.warning("workspace/configuration failed: %s", e)
        return
    if got and isinstance(got[0], dict):
        await _update_settings(ls, got[0])


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: CopyAsDecodeServer, params: types.DidCloseTextDocumentParams):
    ls.forget(params.text_document.uri)
    ls.jobs.cancel_edits(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite],
    resolve_provider=True))
def code_action(ls: CopyAsDecodeServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    only = params.context.only
    actions = []
    diagnostics = [d for d in params.context.diagnostics if _overlaps(d.range, params.range)]
    if diagnostics and _wanted(types.CodeActionKind.QuickFix, only):
        actions += [_quick_fix(ls, doc, diag) for diag in diagnostics]
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


def _quick_fix(ls: CopyAsDecodeServer, doc, diag: types.Diagnostic) -> types.CodeAction:
    """The whole document, with the diagnostic's start as the cursor: the symbol around it is the window.

    Its edit runs when the client resolves the action; a client that cannot resolve edits gets the
    command instead."""
    line = doc.lines[diag.range.start.line] if diag.range.start.line < len(doc.lines) else ""
    req = EditCommand(doc.uri, diagnostic_instruction(diag, line), doc.version, position=diag.range.start)
    message = diag.message.strip().splitlines()[0] if diag.message.strip() else "problem"
    title = FIX_TITLE + shorten(message)
    action = types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[diag],
                              data=req.to_json())
    if not ls.resolves_edits():
        action.command = types.Command(title=title, command=EDIT_COMMAND, arguments=[req.to_json()])
    return action


def diagnostic_instruction(diag: types.Diagnostic, text: str) -> str:
    """The instruction for a quick fix: the diagnostic's message, code, source and the line it is on, quoted
    (the model sees the function around it, not the file's line numbers)."""
    source = f" reported by {diag.source}" if diag.source else ""
    code = f" ({diag.code})" if diag.code not in (None, "") else ""
    message = " ".join(diag.message.split()) or "a problem"
    where = f" in the line `{text.strip()}`" if text.strip() and "`" not in text else ""
    return f"Fix the problem{source}{code}{where}: {message}"


def _wanted(kind: str, only) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    """Whether the ranges share a line: clients send the diagnostics they consider relevant to the request
    (a cursor anywhere on a diagnostic's line counts)."""
    return a.start.line <= b.end.line and b.start.line <= a.end.line


@server.feature(types.CODE_ACTION_RESOLVE)
async def code_action_resolve(ls: CopyAsDecodeServer, action: types.CodeAction) -> types.CodeAction:
    try:
        req = EditCommand.from_json(action.data)
    except ValueError:
        return action  # not one of ours
    outcome = await ls.run_edit(req, title=action.title)
    if outcome.status == Status.OK and (not outcome.asks or await _confirmed(ls, outcome)):
        action.edit = text_document_edit(outcome, req.instruction, ls.declares_document_changes())
    return action


@server.command(EDIT_COMMAND)
async def edit_command(ls: CopyAsDecodeServer, *args):
    return await _run_command(ls, EDIT_COMMAND, args)


@server.command(APPLY_COMMAND)
async def apply_command(ls: CopyAsDecodeServer, *args):
    return await _run_command(ls, APPLY_COMMAND, args)


async def _run_command(ls: CopyAsDecodeServer, command: str, args) -> dict:
    """copyAsDecode.edit or copyAsDecode.apply: read its one argument, run it, apply the result."""
    try:
        req = EditCommand.from_json(args[0] if len(args) == 1 else None, apply=command == APPLY_COMMAND)
    except ValueError as e:
        ls.tell(types.MessageType.Error, f"bad {command} argument: {e}")
        return {"applied": False, "status": Status.ERROR, "reviewed": False, "message": str(e)}
    outcome = await ls.run_edit(req, title="Copy-as-Decode" if req.block is None else APPLY_TITLE)
    if outcome.status == Status.OK:
        outcome.status = await _apply(ls, outcome, req.instruction or APPLY_TITLE)
    return outcome.result()


async def _apply(ls: CopyAsDecodeServer, outcome: Outcome, instruction: str) -> str:
    """Send the edit with workspace/applyEdit; returns `applied`, `rejected` (the user declined a reviewed
    edit: the client gives no reason, or answered Discard when asked), `stale` (the document changed while the
    user was asked) or `refused`."""
    if outcome.asks:
        if not await _confirmed(ls, outcome):
            return Status.REJECTED
        doc = ls.document(outcome.uri)
        if doc is None or doc.version != outcome.version:
            ls.tell(types.MessageType.Warning, "the document changed while the edit waited for your answer; "
                    "nothing was applied")
            return Status.STALE
    try:
        res = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
            edit=text_document_edit(outcome, instruction, ls.declares_document_changes()), label="Copy-as-Decode"))
    except Exception as e:
        ls.tell(types.MessageType.Error, f"the editor did not apply the edit: {e}")
        return Status.REFUSED
    if res.applied:
        return Status.APPLIED
    if outcome.reviewed and not res.failure_reason:
        return Status.REJECTED
    ls.tell(types.MessageType.Error, f"the editor did not apply the edit: {res.failure_reason or 'no reason given'}")
    return Status.REFUSED


async def _confirmed(ls: CopyAsDecodeServer, outcome: Outcome) -> bool:
    """Whether the user answers Apply to a result that may only be reviewed (a deletion nobody asked for, new
    parse errors: outcome.warning), put to a client that shows no change annotations as a question that names
    its hunks; anything but Apply (Discard, the message closed, a failed request) applies nothing."""
    labels = [h.label for h in outcome.hunks]
    shown = "; ".join(labels[:REVIEW_SHOWN]) + (f"; and {len(labels) - REVIEW_SHOWN} more"
                                                  if len(labels) > REVIEW_SHOWN else "")
    count = f"{len(labels)} change{'s' if len(labels) != 1 else ''}"
    try:
        answer = await ls.window_show_message_request_async(types.ShowMessageRequestParams(
            type=types.MessageType.Warning, actions=[types.MessageActionItem(title=t) for t in (APPLY, DISCARD)],
            message=f"Copy-as-Decode: {outcome.warning}. Apply it anyway? Its {count}: {shown}"))
    except Exception as e:  # a client that cannot answer keeps its document
        log.warning("window/showMessageRequest failed: %s", e)
        return False
    return getattr(answer, "title", None) == APPLY


@server.command(PREPARE_COMMAND)
async def prepare_command(ls: CopyAsDecodeServer, *args):
    try:
        req = EditCommand.from_json(args[0] if len(args) == 1 else None, prepare=True)
    except ValueError as e:
        return {"prepared": False, "reason": f"bad {PREPARE_COMMAND} argument: {e}"}
    task = asyncio.current_task()
    ls.preparing = (req.uri, task)
    try:
        answer = await ls.edits.prepare(req, ls.settings)
    except asyncio.CancelledError:  # the document changed: what it read no longer matches
        if task.cancelling() and ls.preparing and ls.preparing[1] is task:
            task.uncancel()
            return {"prepared": False, "reason": "the document changed"}
        raise
    finally:
        if ls.preparing and ls.preparing[1] is task:
            ls.preparing = None
    return {"prepared": "reason" not in answer, **answer}


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: CopyAsDecodeServer, params: types.DidChangeTextDocumentParams):
    if ls.preparing and unquote(ls.preparing[0]) == unquote(params.text_document.uri):
        ls.preparing[1].cancel()


@server.command(CANCEL_COMMAND)
def cancel_command(ls: CopyAsDecodeServer, *args):
    uri = args[0].get("uri") if args and isinstance(args[0], dict) else None
    return {"cancelled": ls.jobs.cancel_edits(uri)}


@server.feature(types.SHUTDOWN)
async def shutdown(ls: CopyAsDecodeServer, params):
    ls.shut_down = True
    ls.jobs.cancel_edits()
    await ls.worker.shutdown()


@server.feature(types.EXIT)
def exit_(ls: CopyAsDecodeServer, params):
    # Synchronous: pygls then closes the transport and ends the event loop at once (an awaiting handler would
    # let it read stdin again and block there). Without a prior shutdown, edits and the worker may still run.
    ls.protocol.set_writer(_AfterExit(ls.protocol.writer))
    ls.jobs.cancel_edits()
    ls.worker.kill()


# -- command line ------------------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    parser.add_argument("--log-level", default="WARNING", help="server log level on stderr (default WARNING)")


def serve(args: argparse.Namespace) -> int:
    logging.basicConfig(level=getattr(args, "log_level", "WARNING").upper(), stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    signal.signal(signal.SIGTERM, _terminated)
    if getattr(args, "tcp", None):
        host, _, port = args.tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return 0 if server.shut_down else 1  # as LSP asks; pygls swallows the SystemExit that carries it


def _terminated(signum, frame) -> None:
    """SIGTERM: the worker stops as on `exit`, then the server ends at once (unwinding, pygls would wait for
    the thread that reads its stdin)."""
    server.worker.kill()
    os._exit(128 + signum)


run = serve  # the name `copy-as-decode serve` delegates to, like the other subcommands
