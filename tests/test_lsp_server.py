"""The language server end to end over stdio, driven by pytest-lsp's client, with tests/fake_worker.py as the
model worker (the instruction is the copy/gen program, so every expected result is exact).

The test client plays the editor: it keeps its own copy of each document, applies workspace/applyEdit with
its own position arithmetic (independent of server/positions.py) and sends didChange like a real editor.
"""
import asyncio
import contextlib
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Union

import pytest
import pytest_asyncio
from lsprotocol import types as t
from pygls.exceptions import JsonRpcRequestCancelled
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import register_lsp_features

TESTS = Path(__file__).resolve().parent
FAKE_WORKER = [sys.executable, str(TESTS / "fake_worker.py")]
SERVER = [sys.executable, "-m", "copy_as_decode.server"]
# the server with core.text_edits broken, as a stand-in for any fault of the server's own code
BROKEN_SERVER = [sys.executable, "-c", "import runpy; from copy_as_decode.core import text_edits; "
                 "text_edits.text_edits = lambda old, new: 1 / 0; "
                 "runpy.run_module('copy_as_decode.server', run_name='__main__')"]
UTF8, UTF16 = t.PositionEncodingKind.Utf8, t.PositionEncodingKind.Utf16
URI = "file:///tmp/copy-as-decode-test/a.py"
URI2 = "file:///tmp/copy-as-decode-test/b.py"
SCRATCH = "file:///tmp/copy-as-decode-test/scratch.py"


# -- the test editor ---------------------------------------------------------------------------------------


def _lsp_lines(text: str) -> list[str]:
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _units(ch: str, encoding) -> int:
    return len(ch.encode("utf-8")) if encoding == UTF8 else len(ch.encode("utf-16-le")) // 2


def editor_offset(text: str, pos: t.Position, encoding) -> int:
    lines = _lsp_lines(text)
    if pos.line >= len(lines):
        assert pos.line == len(lines) and pos.character == 0, f"position {pos} past the end"
        return len(text)
    base = sum(len(x) for x in lines[:pos.line])
    content = lines[pos.line].rstrip("\r\n")
    units = 0
    for k, ch in enumerate(content):
        if units == pos.character:
            return base + k
        assert units < pos.character, f"position {pos} inside a character"
        units += _units(ch, encoding)
    assert units == pos.character, f"position {pos} past the end of line {content!r}"
    return base + len(content)


def editor_apply(text: str, edits, encoding) -> str:
    spans = sorted((editor_offset(text, e.range.start, encoding), editor_offset(text, e.range.end, encoding),
                    e.new_text) for e in edits)
    out, pos = [], 0
    for a, b, new in spans:
        assert pos <= a <= b, "edits overlap or are inverted"
        out += [text[pos:a], new]
        pos = b
    return "".join(out + [text[pos:]])


class Editor:
    def __init__(self, client: LanguageClient, encoding):
        self.client, self.encoding = client, encoding
        self.docs: dict[str, list] = {}  # uri -> [version, text]
        self.applied: list[t.ApplyWorkspaceEditParams] = []
        self.accept = True
        self.accept_hunks = None  # in a review: the annotation ids the user keeps ticked (None: all)
        self.questions: list[t.ShowMessageRequestParams] = []
        self.answer = "Apply"  # the action the user picks when asked (window/showMessageRequest); None: closes it

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.docs[uri] = [version, text]
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(
            t.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)))

    def change(self, uri: str, text: str) -> None:
        doc = self.docs[uri]
        doc[0] += 1
        doc[1] = text
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=doc[0]),
            [t.TextDocumentContentChangeWholeDocument(text=text)]))

    def text(self, uri: str) -> str:
        return self.docs[uri][1]

    def version(self, uri: str) -> int:
        return self.docs[uri][0]

    def apply_workspace_edit(self, edit: t.WorkspaceEdit) -> t.ApplyWorkspaceEditResult:
        """Like Neovim and VS Code: documentChanges when present (checking versions), else changes.
        Edits whose annotation needs confirmation are kept only if the user ticks them (accept_hunks);
        untick them all and nothing is applied, as when the user discards VS Code's preview."""
        def kept(e) -> bool:
            note = (edit.change_annotations or {}).get(getattr(e, "annotation_id", None))
            asks = note is not None and note.needs_confirmation
            return not asks or self.accept_hunks is None or e.annotation_id in self.accept_hunks

        for change in edit.document_changes or []:
            doc = self.docs[change.text_document.uri]
            if change.text_document.version is not None and change.text_document.version != doc[0]:
                return t.ApplyWorkspaceEditResult(applied=False, failure_reason="version mismatch")
            edits = [e for e in change.edits if kept(e)]
            if not edits:
                return t.ApplyWorkspaceEditResult(applied=False)
            self.change(change.text_document.uri, editor_apply(doc[1], edits, self.encoding))
        if edit.document_changes:
            return t.ApplyWorkspaceEditResult(applied=True)
        for uri, edits in (edit.changes or {}).items():
            self.change(uri, editor_apply(self.docs[uri][1], edits, self.encoding))
        return t.ApplyWorkspaceEditResult(applied=True)

    def on_question(self, params: t.ShowMessageRequestParams) -> t.MessageActionItem | None:
        self.questions.append(params)
        return next((a for a in params.actions or [] if a.title == self.answer), None)

    def on_apply_edit(self, params: t.ApplyWorkspaceEditParams) -> t.ApplyWorkspaceEditResult:
        self.applied.append(params)
        if not self.accept:
            return t.ApplyWorkspaceEditResult(applied=False, failure_reason="refused by the test")
        return self.apply_workspace_edit(params.edit)


def converter():
    """lsprotocol 2025 builds a CodeAction that carries a `command` object as a Command: tell them apart."""
    conv = default_converter()

    def command_or_action(obj, _):
        is_command = isinstance(obj, dict) and isinstance(obj.get("command"), str)
        return conv.structure(obj, t.Command if is_command else t.CodeAction)

    # the hook is looked up by the typing.Union object lsprotocol's converter builds, not by `A | B`
    conv.register_structure_hook(Union[t.Command, t.CodeAction], command_or_action)  # noqa: UP007
    return conv


def capabilities(encoding=UTF16, resolve=True, progress=True, configuration=True,
                 annotations=False) -> t.ClientCapabilities:
    return t.ClientCapabilities(
        general=t.GeneralClientCapabilities(position_encodings=[UTF8, UTF16] if encoding == UTF8 else [UTF16]),
        window=t.WindowClientCapabilities(work_done_progress=progress),
        workspace=t.WorkspaceClientCapabilities(
            apply_edit=True, configuration=configuration,
            workspace_edit=t.WorkspaceEditClientCapabilities(
                document_changes=True,
                change_annotation_support=t.ChangeAnnotationsSupportOptions() if annotations else None)),
        text_document=t.TextDocumentClientCapabilities(code_action=t.CodeActionClientCapabilities(
            code_action_literal_support=t.ClientCodeActionLiteralOptions(
                code_action_kind=t.ClientCodeActionKindOptions(value_set=["quickfix", "refactor.rewrite"])),
            data_support=True,
            resolve_support=t.ClientCodeActionResolveOptions(properties=["edit"]) if resolve else None)))


@contextlib.asynccontextmanager
async def session(encoding=UTF16, resolve=True, progress=True, worker=None, caps=None, server=SERVER, **settings):
    """A server with the fake worker (or `worker`), initialized; yields (client, editor)."""
    editor_box = {}

    def factory():
        client = LanguageClient(converter_factory=converter)
        register_lsp_features(client)

        @client.feature(t.WORKSPACE_APPLY_EDIT)
        def apply_edit(ls: LanguageClient, params: t.ApplyWorkspaceEditParams):
            return editor_box["editor"].on_apply_edit(params)

        @client.feature(t.WINDOW_SHOW_MESSAGE_REQUEST)
        def question(ls: LanguageClient, params: t.ShowMessageRequestParams):
            return editor_box["editor"].on_question(params)

        return client

    client = await ClientServerConfig(server_command=server, client_factory=factory).start()
    editor = editor_box["editor"] = Editor(client, encoding)
    options = {"workerCommand": worker or FAKE_WORKER, "model": "fake-model", **settings}
    result = await client.initialize_session(t.InitializeParams(
        capabilities=caps or capabilities(encoding, resolve, progress),
        initialization_options={"copyAsDecode": options}))
    assert result.capabilities.position_encoding == encoding
    editor.server_capabilities = result.capabilities
    try:
        yield client, editor
    finally:
        await client.shutdown_session()
        await client.stop()


async def edit(client, uri, instruction, version=None, rng=None, msg_id=None, editor=None, position=None):
    arg = {"uri": uri, "instruction": instruction, "version": version}
    if position is not None:
        arg["position"] = {"line": position[0], "character": position[1]}
    if editor is not None and version is None:
        arg["version"] = editor.version(uri)
    if rng is not None:
        arg["range"] = {"start": {"line": rng[0][0], "character": rng[0][1]},
                        "end": {"line": rng[1][0], "character": rng[1][1]}}
    params = t.ExecuteCommandParams(command="copyAsDecode.edit", arguments=[arg])
    return await client.protocol.send_request_async(t.WORKSPACE_EXECUTE_COMMAND, params, msg_id=msg_id)


async def until(cond, timeout=10.0, what="condition"):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


def messages(client, kind=None) -> list[str]:
    return [m.message for m in client.messages if kind is None or m.type == kind]


async def cancel_all(client) -> dict:
    """copyAsDecode.cancel for every document: its count says how many edits the server still runs."""
    return await client.workspace_execute_command_async(
        t.ExecuteCommandParams(command="copyAsDecode.cancel", arguments=[{}]))


def progress_ended(client) -> bool:
    return all(isinstance(r[-1], t.WorkDoneProgressEnd) for r in client.progress_reports.values())


# -- tests ----------------------------------------------------------------------------------------------------

# Most tests share one server (starting one costs a second of CPU); each gets its own documents and a clean
# slate: no running edit, no recorded messages, progress or applied edits.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_session():
    async with session() as (client, editor):
        editor.open(SCRATCH, "x\n")
        yield client, editor


@pytest_asyncio.fixture(loop_scope="module")
async def shared(shared_session, request):
    client, editor = shared_session
    await cancel_all(client)
    # an edit queued behind whatever the worker still does: when it is answered, all earlier edits are over
    await edit(client, SCRATCH, '<copy lines="1-1"/>', editor=editor)
    client.messages.clear()
    client.progress_reports.clear()
    editor.applied.clear()
    editor.accept = True
    base = f"file:///tmp/copy-as-decode-test/{re.sub(r'[^A-Za-z0-9_-]', '_', request.node.name)}"
    return client, editor, f"{base}/a.py", f"{base}/b.py"


async def test_initialize_advertises_features(shared):
    client, editor, uri, uri2 = shared
    caps = editor.server_capabilities
    assert caps.text_document_sync.change == t.TextDocumentSyncKind.Full
    assert caps.code_action_provider.resolve_provider is True
    assert set(caps.code_action_provider.code_action_kinds) == {"quickfix", "refactor.rewrite"}
    assert "copyAsDecode.edit" in caps.execute_command_provider.commands
    assert "copyAsDecode.editInteractive" not in caps.execute_command_provider.commands


async def test_edit_whole_document_with_progress(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "def f():\n    return 1\n")
    res = await edit(client, uri, '#slow 0.03 12\n<copy lines="1-1"/><gen>    return 2\n</gen>', editor=editor)
    assert res["applied"] is True and res["status"] == "applied"
    assert editor.text(uri) == "def f():\n    return 2\n"
    [applied] = editor.applied
    [change] = applied.edit.document_changes
    assert change.text_document.version == 1
    assert len(change.edits) == 1 and change.edits[0].range.start.line == 1  # minimal, not a rewrite
    assert res["stats"]["model"] == "fake-model" and res["stats"]["selector"] == "auto"
    assert res["stats"]["max_new_tokens"] == "auto"
    [reports] = client.progress_reports.values()
    kinds = [type(r).__name__ for r in reports]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"
    assert reports[0].cancellable is True
    middle = [r.message for r in reports[1:-1]]
    assert middle and all(re.fullmatch(r"\d+ tokens generated, \d+ copied", m) for m in middle)
    assert reports[-1].message == "1 edit"


async def test_a_selection_is_a_window_of_the_whole_document(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\nb\nc\nd\ne\n")
    # a selection ending at column 0 does not take that line: the window is line 2 of the whole document
    res = await edit(client, uri, '<gen>B\n</gen>', rng=((1, 1), (2, 0)), editor=editor)
    assert res["applied"], res
    assert editor.text(uri) == "a\nB\nc\nd\ne\n"
    assert res["stats"]["lines"] == [2, 2] and res["stats"]["prompt_tokens"] == len("a\nb\nc\nd\ne\n")
    # from inside line 3 to inside line 4: both lines
    res = await edit(client, uri, '<copy lines="1-1"/><gen>C2\n</gen>', rng=((2, 0), (3, 1)), editor=editor)
    assert res["applied"], res
    assert editor.text(uri) == "a\nB\nc\nC2\ne\n" and res["stats"]["lines"] == [3, 4]


async def test_the_cursor_goes_with_the_whole_document(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\nb\nc\n")
    res = await edit(client, uri, '<copy lines="1-3"/>', editor=editor, position=(1, 1))
    assert res["stats"]["at"] == 2 and res["stats"]["lines"] is None
    res = await edit(client, uri, '<copy lines="1-3"/>', editor=editor, position=(3, 0))  # the empty last line
    assert res["stats"]["at"] == 3


async def test_a_refused_deletion_is_offered_only_for_review():
    """A deletion nobody asked for reaches the document only through review, each hunk saying why; a client
    that cannot review gets the refusal and an unchanged document."""
    async with session(caps=capabilities(UTF16, True, True, annotations=True)) as (client, editor):
        editor.open(URI, "a\nb\nc\n")
        res = await edit(client, URI, '#refuse\n<copy lines="1-1"/>', editor=editor)
        assert res["status"] == "applied" and res["reviewed"] and "deletes lines 2-3 unasked" in res["warning"]
        [note] = editor.applied[-1].edit.change_annotations.values()
        assert note.needs_confirmation and "deletes lines 2-3 unasked" in note.description
        assert editor.text(URI) == "a\n"  # this test editor ticks every hunk it is shown
        assert "deletes lines 2-3 unasked; review it" in messages(client, t.MessageType.Warning)[-1]
    async with session() as (client, editor):
        editor.open(URI, "a\nb\nc\n")
        res = await edit(client, URI, '#refuse\n<copy lines="1-1"/>', editor=editor)
        assert res["status"] == "error" and "nothing was changed" in res["message"]
        assert editor.text(URI) == "a\nb\nc\n" and not editor.applied


@pytest.mark.parametrize("preset,encoding", [("neovim@v0.11.0", UTF8), ("visual-studio-code", UTF16)])
async def test_a_refused_result_reaches_the_buffer_only_through_review(preset, encoding):
    """A result the worker refused as one with new parse errors (stop `unparsed`), in the clients we drive:
    Neovim 0.11 shows no change annotations, so it is asked first (Apply / Discard, naming the hunks) and is
    sent, at the buffer's version, on Apply only; VS Code gets hunks that need confirmation. A quick fix
    resolved for Neovim is asked about the same way."""
    broken = '#refuse unparsed\n<copy lines="1-1"/><gen>b = (2\n</gen>'
    asks = preset.startswith("neovim")
    async with session(encoding=encoding, caps=client_capabilities(preset)) as (client, editor):
        for k, yes in enumerate((False, True)):
            uri = f"file:///tmp/copy-as-decode-test/refused-{k}.py"
            editor.open(uri, "a = 1\nb = 2\n")
            editor.answer, editor.accept_hunks = ("Apply", None) if yes else ("Discard", set())
            editor.applied.clear()
            res = await edit(client, uri, broken, editor=editor)
            assert (res["status"], res["reviewed"]) == ("applied" if yes else "rejected", True), res
            assert "the result no longer parses where the document did: line 2" in res["warning"]
            assert editor.text(uri) == ("a = 1\nb = (2\n" if yes else "a = 1\nb = 2\n")
            if asks:
                question = editor.questions.pop()
                assert [a.title for a in question.actions] == ["Apply", "Discard"] and not editor.questions
                assert "no longer parses where the document did: line 2. Apply it anyway? Its 1 change: line 2: " \
                       "replace 1 line" in question.message
                assert len(editor.applied) == yes  # nothing sent before the yes
                assert not editor.applied or (review_of(editor.applied[0]) is None and
                                              editor.applied[0].edit.document_changes[0].text_document.version == 1)
            else:
                [applied] = editor.applied
                assert review_of(applied) == ["line 2: replace 1 line"] and not editor.questions
        if asks:  # six hunks: the question names five and counts the rest
            uri = "file:///tmp/copy-as-decode-test/refused-six.py"
            editor.open(uri, "".join(f"l{k}\n" for k in range(1, 13)))
            program = "".join(f'<copy lines="{k}-{k}"/><gen>L{k + 1}\n</gen>' for k in range(1, 12, 2))
            editor.answer = "Discard"
            res = await edit(client, uri, "#refuse unparsed\n" + program, editor=editor)
            assert res["status"] == "rejected" and editor.questions[-1].message.endswith(
                "Its 6 changes: line 2: replace 1 line; line 4: replace 1 line; line 6: replace 1 line; "
                "line 8: replace 1 line; line 10: replace 1 line; and 1 more")
            editor.questions.clear()
            editor.open(SCRATCH, "a = 1\nb = 2\n")
            action = t.CodeAction(title="Fix with Copy-as-Decode: x", kind="quickfix",
                                  data={"uri": SCRATCH, "version": 1, "instruction": broken})
            for answer in ("Discard", "Apply"):
                editor.answer = answer
                resolved = await client.code_action_resolve_async(action)
                assert editor.questions.pop() and (resolved.edit is None) == (answer == "Discard")
            assert review_of(t.ApplyWorkspaceEditParams(edit=resolved.edit)) is None


@pytest.mark.parametrize("encoding", [UTF16, UTF8])
async def test_positions_with_emoji_and_cjk(encoding):
    text = "s = '😀😀 中文' # 🎉\nt = '𝔘𝔫𝔦' + '漢字'\nu = 1\n"
    async with session(encoding=encoding) as (client, editor):
        editor.open(URI, text)
        # change the end of line 1 (after astral and CJK characters) and the middle of line 2
        program = "<gen>s = '😀😀 中文' # 🎉✨\nt = '𝔘𝔫𝔦' + '字漢'\n</gen><copy lines=\"3-3\"/>"
        res = await edit(client, URI, program, editor=editor)
        assert res["applied"], res
        assert editor.text(URI) == "s = '😀😀 中文' # 🎉✨\nt = '𝔘𝔫𝔦' + '字漢'\nu = 1\n"
        edits = editor.applied[0].edit.document_changes[0].edits
        first = min(edits, key=lambda e: (e.range.start.line, e.range.start.character))
        prefix = "s = '😀😀 中文' # 🎉"
        assert first.range.start.line == 0
        assert first.range.start.character == sum(_units(c, encoding) for c in prefix)
        # a range given in the client's units selects the right line
        res = await edit(client, URI, "<gen>v = 2\n</gen>", rng=((2, 0), (2, 5)), editor=editor)
        assert editor.text(URI).endswith("\nv = 2\n")


async def test_crlf_document(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\r\nb\r\nc\r\n")
    res = await edit(client, uri, '<copy lines="1-1"/><gen>B\nB2\n</gen><copy lines="3-3"/>', editor=editor)
    assert res["applied"], res
    assert editor.text(uri) == "a\r\nB\r\nB2\r\nc\r\n"  # generated lines take the document's CRLF
    for e in editor.applied[0].edit.document_changes[0].edits:
        assert not e.new_text.startswith("\n") and not e.new_text.endswith("\r")
    res = await edit(client, uri, '<copy lines="1-1"/><gen>X\n</gen>', rng=((1, 0), (2, 3)),
                     editor=editor)
    assert res["applied"], res
    assert editor.text(uri) == "a\r\nB\r\nX\r\nc\r\n"


async def test_document_without_final_newline(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\nb")
    res = await edit(client, uri, '<copy lines="1-1"/><gen>b2</gen>', editor=editor)
    assert res["applied"], res
    assert editor.text(uri) == "a\nb2"
    res = await edit(client, uri, "<gen>last\n</gen>", rng=((1, 0), (1, 2)), editor=editor)
    assert res["applied"], res
    assert editor.text(uri) == "a\nlast\n"


async def test_unchanged_result_applies_nothing(shared):
    """The worker answers the document as it was (status `unchanged`, docs/worker-protocol.md): nothing is sent to
    the editor, the user is told why, and the command's result says `unchanged`."""
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    res = await edit(client, uri, '<copy lines="1-1"/>', editor=editor)
    said = "No change: the model answered the text as it was"
    assert res == {"applied": False, "status": "unchanged", "reviewed": False, "edits": 0, "stats": res["stats"],
                   "message": said}
    assert not editor.applied and messages(client, t.MessageType.Info) == [f"Copy-as-Decode: {said}"]


async def test_stale_version_between_request_and_result(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\nb\n")
    task = asyncio.ensure_future(edit(client, uri, '#slow 0.02 25\n<gen>x\n</gen>', editor=editor))
    await until(lambda: client.progress_reports, what="progress")
    editor.change(uri, "a\nb\nc\n")
    res = await task
    assert res["applied"] is False and res["status"] == "stale"
    assert not editor.applied and editor.text(uri) == "a\nb\nc\n"
    assert any("changed" in m for m in messages(client, t.MessageType.Warning))
    # a request made for an old version is refused at once
    res = await edit(client, uri, "<gen>y\n</gen>", version=1)
    assert res["status"] == "stale" and not editor.applied


async def test_cancel_request_stops_the_worker(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    editor.open(uri2, "b\n")
    slow = asyncio.ensure_future(
        edit(client, uri, "#slow 0.05 400\n<gen>x\n</gen>", msg_id="slow-1", editor=editor))
    await until(lambda: client.progress_reports, what="progress")
    started = time.monotonic()
    client.protocol.notify(t.CANCEL_REQUEST, t.CancelParams(id="slow-1"))
    with pytest.raises(JsonRpcRequestCancelled):
        await slow
    # the worker stopped the cancelled edit: the next one (queued behind it) runs at once
    res = await edit(client, uri2, '<gen>B\n</gen>', editor=editor)
    assert res["applied"] and time.monotonic() - started < 3
    await until(lambda: any(isinstance(r[-1], t.WorkDoneProgressEnd) and r[-1].message == "cancelled"
                            for r in client.progress_reports.values()), what="progress end")
    assert editor.text(uri) == "a\n" and not messages(client, t.MessageType.Error)


async def test_progress_cancellation(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    task = asyncio.ensure_future(edit(client, uri, "#slow 0.05 400\n<gen>x\n</gen>", editor=editor))
    await until(lambda: client.progress_reports, what="progress")
    [token] = client.progress_reports
    client.window_work_done_progress_cancel(t.WorkDoneProgressCancelParams(token=token))
    res = await asyncio.wait_for(task, 3)
    assert res["applied"] is False and res["status"] == "cancelled"
    assert client.progress_reports[token][-1].message == "cancelled"
    assert not editor.applied and not messages(client)


async def test_closing_the_document_cancels_its_edit(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    task = asyncio.ensure_future(edit(client, uri, "#slow 0.05 400\n<gen>x\n</gen>", editor=editor))
    await until(lambda: client.progress_reports, what="progress")
    client.text_document_did_close(t.DidCloseTextDocumentParams(t.TextDocumentIdentifier(uri=uri)))
    assert (await asyncio.wait_for(task, 3))["status"] == "cancelled"


@pytest.mark.parametrize("preset,encoding", [("neovim@v0.11.0", UTF8), ("visual-studio-code", UTF16)])
async def test_real_client_capabilities(preset, encoding):
    async with session(encoding=encoding, caps=client_capabilities(preset)) as (client, editor):
        text = "# 😀 中文\nx = '🎉'\n"
        editor.open(URI, text)
        [fix, rewrite] = await code_actions(client, URI, ((1, 0), (1, 2)), [diagnostic(1)])
        assert rewrite.command.command == "copyAsDecode.editInteractive"
        res = await edit(client, URI, "<copy lines=\"1-1\"/><gen>x = '🎉✨'\n</gen>", editor=editor,
                         rng=((0, 2), (1, 3)))
        assert res["applied"] and editor.text(URI) == "# 😀 中文\nx = '🎉✨'\n"
        [applied] = editor.applied
        [change] = applied.edit.document_changes
        assert change.text_document.version == 1
        # Neovim 0.11 handles documentChanges without declaring them: it also gets plain changes
        assert (applied.edit.changes is None) == (preset == "visual-studio-code")
        assert res["reviewed"] is False and applied.edit.change_annotations is None  # one line: no review


async def test_cancel_command(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    task = asyncio.ensure_future(edit(client, uri, "#slow 0.05 400\n<gen>x\n</gen>", editor=editor))
    await until(lambda: client.progress_reports, what="progress")
    res = await client.workspace_execute_command_async(
        t.ExecuteCommandParams(command="copyAsDecode.cancel", arguments=[{"uri": uri}]))
    assert res == {"cancelled": 1}
    assert (await asyncio.wait_for(task, 3))["status"] == "cancelled"


async def test_same_document_supersedes_other_documents_queue(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    editor.open(uri2, "b\n")
    first = asyncio.ensure_future(edit(client, uri, "#slow 0.05 400\n<gen>first\n</gen>", editor=editor))
    await until(lambda: client.progress_reports, what="progress")
    other = asyncio.ensure_future(edit(client, uri2, "#slow 0.02 5\n<gen>other\n</gen>", editor=editor))
    second = await asyncio.wait_for(edit(client, uri, "<gen>second\n</gen>", editor=editor), 5)
    assert (await first)["status"] == "superseded"
    assert second["applied"] and editor.text(uri) == "second\n"
    assert (await other)["applied"] and editor.text(uri2) == "other\n"
    assert any("newer edit" in m for m in messages(client, t.MessageType.Info))


async def test_worker_errors_leave_the_buffer_alone(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    res = await edit(client, uri, "#error 1001 document and prompt longer than the context\n", editor=editor)
    assert res["applied"] is False and res["status"] == "error"
    res = await edit(client, uri, '<copy lines="5-6"/>', editor=editor)  # does not resolve: error 1003
    assert res["status"] == "error"
    errors = messages(client, t.MessageType.Error)
    assert len(errors) == 2 and all("\n" not in m for m in errors)
    assert "longer than the context" in errors[0] and "select fewer lines" in errors[0]
    assert not editor.applied and editor.text(uri) == "a\n"
    res = await edit(client, "file:///not/open.py", "<gen>x</gen>")
    assert res["status"] == "error" and "not open" in messages(client)[-1]


async def test_text_that_is_not_unicode(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n\ud800b\n")  # JSON carries a lone surrogate; UTF-8 (and so the worker) cannot
    res = await edit(client, uri, "<gen>x\n</gen>", editor=editor, rng=((0, 0), (0, 1)))
    assert res["status"] == "error"
    editor.open(uri2, "a\n")
    res = await edit(client, uri2, "<gen>\udfff\n</gen>", editor=editor)
    assert res["status"] == "error"
    assert messages(client, t.MessageType.Error) == [
        "Copy-as-Decode: the document holds text that is not valid Unicode (line 2); nothing was changed",
        "Copy-as-Decode: the instruction holds text that is not valid Unicode; nothing was changed"]
    assert not editor.applied and progress_ended(client) and await cancel_all(client) == {"cancelled": 0}


async def test_an_unexpected_failure_is_one_message():
    async with session(server=BROKEN_SERVER) as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "<gen>b\n</gen>", editor=editor)
        assert res["status"] == "error" and not editor.applied and editor.text(URI) == "a\n"
        [error] = messages(client)
        assert error == "Copy-as-Decode: the edit failed (ZeroDivisionError: division by zero); nothing was changed"
        [reports] = client.progress_reports.values()
        assert reports[-1].message == "failed"
        assert await cancel_all(client) == {"cancelled": 0}


async def test_an_edit_that_does_not_finish_changes_nothing():
    async with session(maxNewTokens=3) as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "<gen>hello\n</gen>", editor=editor)  # 6 tokens to the fake worker
        assert res["applied"] is False and res["status"] == "error"
        assert messages(client) == ["Copy-as-Decode: the edit did not finish within 3 tokens; nothing was changed "
                                    "(select fewer lines, or raise copyAsDecode.maxNewTokens)"]
        [reports] = client.progress_reports.values()
        assert reports[-1].message == "incomplete"
        # stopped by the context: a larger budget would not help
        client.messages.clear()
        res = await edit(client, URI, "#error 1004 the edit did not fit the model's context (2 tokens left for it); "
                                      "nothing was changed\n", editor=editor)
        assert res["status"] == "error" and messages(client) == [
            "Copy-as-Decode: the edit did not fit the model's context (2 tokens left for it); nothing was changed "
            "(select fewer lines)"]
        assert not editor.applied and editor.text(URI) == "a\n"
        res = await edit(client, URI, "<gen>ab\n</gen>", editor=editor)  # within the budget
        assert res["applied"] and res["stats"]["max_new_tokens"] == 3 and editor.text(URI) == "ab\n"


async def test_a_budget_beyond_the_context_is_refused():
    async with session(model="tiny", maxNewTokens=100000) as (client, editor):
        [warning] = messages(client, t.MessageType.Warning)
        assert "ignored setting: copyAsDecode.maxNewTokens must be at most 32768" in warning
        editor.open(URI, "a\n")
        res = await edit(client, URI, "<gen>b\n</gen>", editor=editor)
        assert res["applied"] and res["stats"]["max_new_tokens"] == "auto"
        client.workspace_did_change_configuration(t.DidChangeConfigurationParams(
            settings={"copyAsDecode": {"maxNewTokens": 50}}))
        client.workspace_did_change_configuration(t.DidChangeConfigurationParams(
            settings={"copyAsDecode": {"maxNewTokens": 100000}}))
        await until(lambda: len(messages(client, t.MessageType.Warning)) == 2, what="second warning")
        assert "copyAsDecode.maxNewTokens" in messages(client, t.MessageType.Warning)[1]
        res = await edit(client, URI, "<gen>c\n</gen>", editor=editor)
        assert res["applied"] and res["stats"]["max_new_tokens"] == 50 and editor.text(URI) == "c\n"


async def test_bad_arguments(shared):
    client, editor, uri, uri2 = shared
    res = await client.workspace_execute_command_async(
        t.ExecuteCommandParams(command="copyAsDecode.edit", arguments=[{"uri": uri}]))
    assert res["applied"] is False and "instruction" in messages(client, t.MessageType.Error)[-1]


async def test_client_refuses_edit(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\n")
    editor.accept = False
    res = await edit(client, uri, "<gen>b\n</gen>", editor=editor)
    assert res["applied"] is False and res["status"] == "refused"
    assert "refused by the test" in messages(client, t.MessageType.Error)[-1]


async def test_timeout():
    async with session(timeout=0.3) as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "#slow 0.05 400\n<gen>x\n</gen>", editor=editor)
        assert res["status"] == "timeout" and "timed out after 0.3 s" in messages(client, t.MessageType.Error)[-1]
        res = await edit(client, URI, "<gen>y\n</gen>", editor=editor)  # the worker is free again
        assert res["applied"]


async def test_worker_killed_while_idle_restarts():
    async with session() as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "<gen>b\n</gen>", editor=editor)
        pid = res["stats"]["pid"]
        os.kill(pid, signal.SIGKILL)
        await until(lambda: any("stopped" in m for m in messages(client, t.MessageType.Warning)), what="warning")
        res = await edit(client, URI, "<gen>c\n</gen>", editor=editor)
        assert res["applied"] and res["stats"]["pid"] != pid and editor.text(URI) == "c\n"
        assert any("restarted" in m for m in messages(client, t.MessageType.Info))


async def test_worker_crash_during_edit():
    async with session() as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "#crash\n<gen>b\n</gen>", editor=editor)
        assert res["status"] == "error"
        [error] = messages(client, t.MessageType.Error)
        assert "stopped (exit code 3: fake worker: crashing as asked)" in error and "restarts" in error
        res = await edit(client, URI, "<gen>c\n</gen>", editor=editor)
        assert res["applied"] and editor.text(URI) == "c\n"
        assert any("restarted" in m for m in messages(client, t.MessageType.Info))


async def test_worker_that_cannot_start():
    async with session(worker=["/nonexistent/copy-as-decode-worker"]) as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "<gen>b\n</gen>", editor=editor)
        assert res["status"] == "error" and "cannot start the model worker" in messages(client)[-1]


# -- code actions ----------------------------------------------------------------------------------------------


def diagnostic(line, message="undefined name 'x'", code="F821", source="pyflakes"):
    return t.Diagnostic(range=t.Range(start=t.Position(line=line, character=4), end=t.Position(line=line, character=5)),
                        message=message, code=code, source=source)


async def code_actions(client, uri, rng, diagnostics=(), only=None):
    return await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri),
        range=t.Range(start=t.Position(*rng[0]), end=t.Position(*rng[1])),
        context=t.CodeActionContext(diagnostics=list(diagnostics), only=only)))


async def test_code_actions_with_resolve_support(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "def f():\n    x\n    return 1\n")
    diags = [diagnostic(1), diagnostic(2, "unused", None, None)]
    actions = await code_actions(client, uri, ((1, 0), (1, 0)), diags[:1])
    assert [type(a) for a in actions] == [t.CodeAction, t.CodeAction]
    fix, rewrite = actions
    assert fix.title == "Fix with Copy-as-Decode: undefined name 'x'" and fix.kind == "quickfix"
    assert fix.command is None and list(fix.diagnostics) == diags[:1]
    assert fix.data == {"uri": uri, "version": 1, "position": {"line": 1, "character": 4},
                        "instruction": "Fix the problem reported by pyflakes (F821) in the line `x`: undefined name 'x'"}
    assert rewrite.title == "Edit with Copy-as-Decode…" and rewrite.kind == "refactor.rewrite"
    assert rewrite.command.command == "copyAsDecode.editInteractive"
    # no selection: the cursor, whose symbol is the window
    assert list(rewrite.command.arguments) == [{"uri": uri, "version": 1, "position": {"line": 1, "character": 0}}]
    # a selection: the rewrite covers it; only diagnostics in range give fixes
    actions = await code_actions(client, uri, ((0, 0), (2, 3)), diags)
    assert [a.kind for a in actions] == ["quickfix", "quickfix", "refactor.rewrite"]
    assert actions[1].data["instruction"] == "Fix the problem in the line `return 1`: unused"
    assert actions[2].command.arguments[0]["range"] == {"start": {"line": 0, "character": 0},
                                                        "end": {"line": 2, "character": 3}}
    assert [a.kind for a in await code_actions(client, uri, ((1, 0), (1, 0)), diags, ["quickfix"])] == ["quickfix"]
    assert [a.kind for a in await code_actions(client, uri, ((1, 0), (1, 0)), diags, ["refactor"])] == [
        "refactor.rewrite"]
    assert await code_actions(client, "file:///not/open.py", ((0, 0), (0, 0))) is None


async def test_code_actions_without_resolve_support_carry_the_command():
    async with session(resolve=False) as (client, editor):
        editor.open(URI, "x\n")
        [fix, _] = await code_actions(client, URI, ((0, 0), (0, 0)), [diagnostic(0)])
        assert fix.command.command == "copyAsDecode.edit"
        assert list(fix.command.arguments) == [fix.data]


async def test_a_quick_fix_sends_the_whole_document_with_the_diagnostic_as_the_cursor(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "".join(f"line {k}\n" for k in range(1, 1001)))
    [fix, _] = await code_actions(client, uri, ((600, 0), (600, 0)), [diagnostic(600)])
    assert "range" not in fix.data and fix.data["position"] == {"line": 600, "character": 4}
    assert "in the line `line 601`:" in fix.data["instruction"]


async def test_resolve_fills_a_versioned_edit(shared):
    client, editor, uri, uri2 = shared
    editor.open(uri, "a\nb\n")
    action = t.CodeAction(title="Fix with Copy-as-Decode: x", kind="quickfix",
                          data={"uri": uri, "version": 1, "instruction": '<copy lines="1-1"/><gen>B\n</gen>'})
    resolved = await client.code_action_resolve_async(action)
    [change] = resolved.edit.document_changes
    assert change.text_document.version == 1
    assert editor_apply("a\nb\n", change.edits, UTF16) == "a\nB\n"
    assert not editor.applied  # resolve previews; the client applies
    editor.apply_workspace_edit(resolved.edit)
    assert editor.text(uri) == "a\nB\n"
    # a real quick fix's instruction is words, which the fake worker cannot resolve: no edit, one message
    [fix, _] = await code_actions(client, uri, ((0, 0), (0, 0)), [diagnostic(0)])
    resolved = await client.code_action_resolve_async(fix)
    assert resolved.edit is None and len(messages(client, t.MessageType.Error)) == 1


# -- settings ------------------------------------------------------------------------------------------------------


async def test_settings_changes_restart_the_worker_when_needed():
    async with session(selector="grammar", maxNewTokens=77) as (client, editor):
        editor.open(URI, "a\n")
        first = (await edit(client, URI, "<gen>1\n</gen>", editor=editor))["stats"]
        assert (first["model"], first["selector"], first["max_new_tokens"]) == ("fake-model", "grammar", 77)
        client.workspace_did_change_configuration(t.DidChangeConfigurationParams(
            settings={"copyAsDecode": {"selector": "full", "maxNewTokens": 5}}))
        second = (await edit(client, URI, "<gen>2\n</gen>", editor=editor))["stats"]
        assert second["pid"] == first["pid"] and (second["selector"], second["max_new_tokens"]) == ("full", 5)
        client.workspace_did_change_configuration(t.DidChangeConfigurationParams(
            settings={"copyAsDecode": {"model": "other-model", "dtype": "bfloat16", "selector": "bogus"}}))
        third = (await edit(client, URI, "<gen>3\n</gen>", editor=editor))["stats"]
        assert third["pid"] != first["pid"] and (third["model"], third["dtype"]) == ("other-model", "bfloat16")
        assert third["selector"] == "full"
        assert any("selector" in m for m in messages(client, t.MessageType.Warning))
        # pull model: a change without settings makes the server ask for the section
        client.set_configuration({"model": "pulled-model"}, section="copyAsDecode")
        client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings=None))
        notices = sum("settings changed" in m for m in messages(client))
        await until(lambda: sum("settings changed" in m for m in messages(client)) > notices, what="restart notice")
        fourth = (await edit(client, URI, "<gen>4\n</gen>", editor=editor))["stats"]
        assert fourth["model"] == "pulled-model"


async def raw_server():
    """`copy-as-decode serve` as a bare process, for what pytest-lsp's client hides: exit code and stderr.
    Returns (process, send, receive, stderr task); stderr is drained all along, so a flood cannot block it."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "copy_as_decode.cli", "serve", stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    stderr = asyncio.ensure_future(proc.stderr.read())

    def send(msg: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))

    async def receive() -> dict:
        length = 0
        while (line := await proc.stdout.readline()).strip():
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        assert length, "the server closed its output"
        return json.loads(await proc.stdout.readexactly(length))

    return proc, send, receive, stderr


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("shutdown_first", [False, True])
async def test_exit_while_an_edit_runs(shutdown_first):
    """LSP: `exit` ends the server with code 0 after `shutdown`, else 1; either way the running edit and the
    worker stop, and nothing is written to the closed output."""
    proc, send, receive, stderr = await raw_server()
    try:
        send({"id": 1, "method": "initialize", "params": {
            "capabilities": {"window": {"workDoneProgress": True}},
            "initializationOptions": {"copyAsDecode": {"workerCommand": FAKE_WORKER}}}})
        while (await receive()).get("id") != 1:
            pass
        send({"method": "initialized", "params": {}})
        send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": URI, "languageId": "python", "version": 1, "text": "a\n"}}})
        send({"id": 2, "method": "workspace/executeCommand", "params": {"command": "copyAsDecode.edit", "arguments": [
            {"uri": URI, "instruction": "#slow 0.05 200\n<gen>x\n</gen>"}]}})
        while (msg := await receive()).get("method") != "$/progress" or msg["params"]["value"]["kind"] != "report":
            if msg.get("method") == "window/workDoneProgress/create":
                send({"id": msg["id"], "result": None})
        if shutdown_first:
            started = time.monotonic()
            send({"id": 3, "method": "shutdown"})
            answers = {}
            while 3 not in answers:
                if "id" in (msg := await receive()) and "method" not in msg:
                    answers[msg["id"]] = msg
            assert time.monotonic() - started < 1.5  # the edit was cancelled, not waited for
            assert answers[2]["result"]["status"] == "cancelled"
        send({"method": "exit"})
        _, rc = await asyncio.wait_for(asyncio.gather(proc.stdout.read(), proc.wait()), 10)
    finally:
        if proc.returncode is None:
            proc.kill()
    err = await stderr
    assert rc == (0 if shutdown_first else 1)
    assert len(err) < 20_000 and b"I/O operation on closed file" not in err and b"Traceback" not in err, err[-3000:]
    pid = int(re.search(rb"fake worker (\d+): model", err).group(1))
    await until(lambda: not alive(pid), what="the worker to stop")


async def test_without_progress_support():
    async with session(progress=False) as (client, editor):
        editor.open(URI, "a\n")
        res = await edit(client, URI, "#slow 0.01 3\n<gen>b\n</gen>", editor=editor)
        assert res["applied"] and not client.progress_reports


# -- review ------------------------------------------------------------------------------------------------------

TEN = "".join(f"l{k}\n" for k in range(1, 11))
# line 2 replaced, two lines inserted before line 5, lines 7-8 deleted: 1 + 2 + 2 changed lines
THREE_HUNKS = ('<copy lines="1-1"/><gen>L2\n</gen><copy lines="3-4"/><gen>n1\nn2\n</gen><copy lines="5-6"/>'
               '<copy lines="9-10"/>')
THREE_HUNKS_TEXT = "l1\nL2\nl3\nl4\nn1\nn2\nl5\nl6\nl9\nl10\n"
LABELS = ["line 2: replace 1 line", "line 5: insert 2 lines", "lines 7–8: delete 2 lines"]


def review_of(params: t.ApplyWorkspaceEditParams) -> list[str] | None:
    """The labels of the hunks to confirm, in edit order, checking that every edit carries its own; None
    when the edit is not for review (plain TextEdits, no annotations)."""
    [change] = params.edit.document_changes
    notes = params.edit.change_annotations
    if notes is None:
        assert all(type(e) is t.TextEdit for e in change.edits)
        return None
    assert [type(e) for e in change.edits] == [t.AnnotatedTextEdit] * len(change.edits)
    ids = [e.annotation_id for e in change.edits]
    assert sorted(ids) == sorted(notes) and len(set(ids)) == len(ids)
    assert all(notes[i].needs_confirmation for i in ids)
    return [notes[i].label for i in ids]


def configure(client, **settings) -> None:
    client.workspace_did_change_configuration(t.DidChangeConfigurationParams(settings={"copyAsDecode": settings}))


async def test_review_only_for_clients_that_show_annotations(shared):
    client, editor, uri, uri2 = shared
    configure(client, review="always")
    try:
        editor.open(uri, TEN)
        res = await edit(client, uri, THREE_HUNKS, editor=editor)
        assert res["applied"] and res["reviewed"] is False and editor.text(uri) == THREE_HUNKS_TEXT
        assert review_of(editor.applied[0]) is None
    finally:
        configure(client, review="large")


async def test_review_annotates_each_hunk():
    async with session(caps=capabilities(annotations=True), review="always") as (client, editor):
        editor.open(URI, TEN)
        res = await edit(client, URI, THREE_HUNKS, editor=editor)
        assert res["applied"] and res["reviewed"] and res["status"] == "applied" and res["edits"] == 3
        assert editor.text(URI) == THREE_HUNKS_TEXT
        [applied] = editor.applied
        assert review_of(applied) == LABELS
        assert applied.edit.document_changes[0].text_document.version == 1
        note = next(iter(applied.edit.change_annotations.values()))
        assert note.description == " ".join(THREE_HUNKS.split())[:79] + "…"
        [reports] = client.progress_reports.values()
        assert reports[-1].message == "3 edits to review"
        # the user keeps hunks 1 and 3
        editor.open(URI2, TEN)
        editor.accept_hunks = {"hunk-1", "hunk-3"}
        res = await edit(client, URI2, THREE_HUNKS, editor=editor)
        assert (res["applied"], res["reviewed"]) == (True, True)
        assert editor.text(URI2) == "l1\nL2\nl3\nl4\nl5\nl6\nl9\nl10\n"
        # the user discards the review: nothing changes and no error is shown
        editor.accept_hunks = set()
        res = await edit(client, URI2, '<copy lines="1-7"/><gen>x\n</gen>', editor=editor)
        assert (res["applied"], res["status"], res["reviewed"]) == (False, "rejected", True)
        assert editor.text(URI2) == "l1\nL2\nl3\nl4\nl5\nl6\nl9\nl10\n" and not messages(client, t.MessageType.Error)
        # a client that says why it did not apply: refused, with that reason
        editor.accept, editor.accept_hunks = False, None
        res = await edit(client, URI2, '<copy lines="1-7"/><gen>x\n</gen>', editor=editor)
        assert res["status"] == "refused" and "refused by the test" in messages(client, t.MessageType.Error)[-1]
        # a range: labels count the document's lines, not the lines sent
        editor.accept = True
        editor.applied.clear()
        res = await edit(client, URI, '<copy lines="1-1"/><gen>L7\n</gen><copy lines="3-3"/>', rng=((5, 0), (8, 0)),
                         editor=editor)
        assert res["reviewed"] and review_of(editor.applied[0]) == ["line 7: replace 1 line"]
        # a quick fix resolved for a client that shows annotations previews the same way
        editor.open(SCRATCH, TEN)
        action = t.CodeAction(title="Fix with Copy-as-Decode: x", kind="quickfix",
                              data={"uri": SCRATCH, "version": 1, "instruction": THREE_HUNKS})
        resolved = await client.code_action_resolve_async(action)
        assert review_of(t.ApplyWorkspaceEditParams(edit=resolved.edit)) == LABELS


async def test_review_setting():
    async with session(caps=capabilities(annotations=True)) as (client, editor):
        async def reviewed(text: str, program: str) -> bool:
            uri = f"file:///tmp/copy-as-decode-test/review-{len(editor.docs)}.py"
            editor.open(uri, text)
            res = await edit(client, uri, program, editor=editor)
            assert res["applied"], res
            return res["reviewed"]

        # "large" (the default): more than 20 changed lines
        assert await reviewed("a\n", "<gen>" + "x\n" * 21 + "</gen>")
        assert not await reviewed("a\n", "<gen>" + "x\n" * 20 + "</gen>")  # 20 lines replace 1: 20
        assert not await reviewed(TEN, THREE_HUNKS)
        configure(client, reviewLines=4)
        assert await reviewed(TEN, THREE_HUNKS)  # 5 changed lines
        configure(client, reviewLines=5)
        assert not await reviewed(TEN, THREE_HUNKS)
        configure(client, review="never", reviewLines=0)
        assert not await reviewed(TEN, THREE_HUNKS)
        configure(client, review="always", reviewLines=100)
        assert await reviewed(TEN, '<copy lines="1-9"/><gen>x\n</gen>')
        configure(client, review="sometimes", reviewLines=-1)
        await until(lambda: len(messages(client, t.MessageType.Warning)) == 2, what="warnings")
        assert "copyAsDecode.review must be one of always, never, large" in messages(client)[-2]
        assert await reviewed(TEN, '<copy lines="1-9"/><gen>x\n</gen>')  # still "always"
