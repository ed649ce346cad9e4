"""A scripted stand-in for `copy-as-decode serve` that plays what the editors show while an edit decodes:
where it lands (`copyAsDecode/place`), a pick between places (`copyAsDecode/pick`), the window's new text as it
streams (`copyAsDecode/preview`), then the edit by `workspace/applyEdit` (as hunks that need confirmation with
"review"). No model and no worker: the timeline is the script's, so the editors' tests do not depend on a
decoder's timing.

    python tests/e2e/standin_server.py      (stdio; configured by environment variables)
      CAD_STANDIN       JSON file: the script
        candidates      [{label, detail, first, last, new}]: the places (0-based first..last lines, whole) and
                        each one's new text; more than one: the client is asked to pick (when it declared "pick")
        steps, step_s   the new text arrives in `steps` previews, `step_s` seconds apart
        review          true: the edit goes to review (change annotations that need confirmation)
        sync            a folder: the script waits (up to `sync_s`, default 120 s) for a file there named
                        `placed` after the place, and `streaming` after the middle preview
        log             a file: each event as one JSON line (initialize's clientFeatures, the pick's answer,
                        applyEdit's answer, a cancel)

`copyAsDecode.edit {uri, version, instruction, ...}` plays the script on the document and answers as the real
server does: {applied, status, reviewed, edits, stats: {windows}}.
"""
import asyncio
import difflib
import json
import os
import uuid
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from copy_as_decode.server.positions import Hunk

server = LanguageServer("copy-as-decode-stand-in", "0.1.0", text_document_sync_kind=types.TextDocumentSyncKind.Full)
features: list[str] = []


def script() -> dict:
    return json.loads(Path(os.environ["CAD_STANDIN"]).read_text(encoding="utf-8"))


def event(**fields) -> None:
    path = script().get("log")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(fields) + "\n")


def lines_range(first: int, last: int) -> dict:
    """Whole lines first..last (0-based, inclusive): from the first's start to the start of the line after."""
    return {"start": {"line": first, "character": 0}, "end": {"line": last + 1, "character": 0}}


async def wait_for(name: str, cancelled) -> None:
    folder = script().get("sync")
    if not folder:
        return
    deadline = asyncio.get_running_loop().time() + script().get("sync_s", 120)
    while not (Path(folder) / name).exists() and not cancelled() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)


def hunks(first: int, old: list[str], new: list[str]) -> list[tuple[Hunk, types.TextEdit]]:
    """The changed runs of lines of window `old` (from line `first`) as whole-line TextEdits with their Hunk."""
    out = []
    for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        rng = types.Range(start=types.Position(line=first + a1, character=0),
                          end=types.Position(line=first + a2, character=0))
        out.append((Hunk(first + a1, a2 - a1, b2 - b1), types.TextEdit(range=rng, new_text="".join(new[b1:b2]))))
    return out


@server.feature(types.INITIALIZE)
def initialize(ls: LanguageServer, params: types.InitializeParams):
    opts = params.initialization_options or {}
    section = opts.get("copyAsDecode", opts) if isinstance(opts, dict) else {}
    features[:] = section.get("clientFeatures") or []
    event(event="initialize", clientFeatures=features)


@server.command("copyAsDecode.edit")
async def edit(ls: LanguageServer, *args):
    arg = args[0] if args else {}
    uri = arg["uri"]
    doc = ls.workspace.text_documents.get(unquote(uri))
    plan = script()
    version = doc.version
    old_lines = doc.source.splitlines(keepends=True)

    token = f"copyAsDecode/{uuid.uuid4()}"
    await ls.work_done_progress.create_async(token)
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(title="Copy-as-Decode", cancellable=True,
                                                                   message="waiting for the model"))
    cancel = ls.work_done_progress.tokens.get(token)

    def cancelled() -> bool:
        return cancel is not None and cancel.cancelled()

    def end(message: str, status: str, **extra) -> dict:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        if status == "cancelled":
            event(event="cancelled")
        return {"applied": status == "applied", "status": status, "reviewed": bool(plan.get("review")),
                "edits": extra.pop("edits", 0), **extra}

    candidates = plan["candidates"]
    chosen = candidates[0]
    if len(candidates) > 1 and "pick" in features:
        answer = await ls.protocol.send_request_async("copyAsDecode/pick", {
            "uri": uri, "version": version,
            "candidates": [{"label": c["label"], "detail": c["detail"], "range": lines_range(c["first"], c["last"])}
                           for c in candidates]})
        index = answer.get("index") if isinstance(answer, dict) else getattr(answer, "index", None)
        event(event="pick", index=index)
        if index is None:
            return end("no place picked", "cancelled")
        chosen = candidates[index]
    first, last = chosen["first"], chosen["last"]
    where = f"{first + 1}-{last + 1} ({chosen['label']})"
    window = lines_range(first, last)
    if "place" in features:
        ls.protocol.notify("copyAsDecode/place", {"uri": uri, "version": version, "ranges": [window],
                                                  "symbols": [chosen["label"]], "label": f"editing {where}"})
    ls.work_done_progress.report(token, types.WorkDoneProgressReport(message=f"window 1/1: lines {where}"))
    await wait_for("placed", cancelled)

    new_lines = chosen["new"].splitlines(keepends=True)
    steps, step_s = plan.get("steps", 4), plan.get("step_s", 0.3)
    for step in range(1, steps + 1):
        if cancelled():
            if "preview" in features:
                ls.protocol.notify("copyAsDecode/preview", {"uri": uri, "version": version, "range": window,
                                                            "text": None, "done": True})
            return end("cancelled", "cancelled")
        shown = new_lines[:-(-len(new_lines) * step // steps)]
        if "preview" in features:
            ls.protocol.notify("copyAsDecode/preview", {"uri": uri, "version": version, "range": window,
                                                        "text": "".join(shown), "done": step == steps})
        ls.work_done_progress.report(token, types.WorkDoneProgressReport(
            message=f"window 1/1: lines {where}: {sum(len(x) for x in shown)} tokens generated, 0 copied"))
        if step == steps // 2:
            await wait_for("streaming", cancelled)
        await asyncio.sleep(step_s)

    changes = hunks(first, old_lines[first:last + 1], new_lines)
    edits: list = [e for _, e in changes]
    annotations = None
    if plan.get("review"):
        ids = [f"hunk-{k}" for k in range(1, len(changes) + 1)]
        edits = [types.AnnotatedTextEdit(range=e.range, new_text=e.new_text, annotation_id=i)
                 for (_, e), i in zip(changes, ids)]
        annotations = {i: types.ChangeAnnotation(label=h.label, needs_confirmation=True,
                                                 description=arg.get("instruction", ""))
                       for (h, _), i in zip(changes, ids)}
    message = f"{len(edits)} edits to review" if plan.get("review") else f"{len(edits)} edits"
    ls.work_done_progress.report(token, types.WorkDoneProgressReport(message=message))
    res = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(label="Copy-as-Decode", edit=types.WorkspaceEdit(
        change_annotations=annotations, document_changes=[types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=edits)])))
    event(event="applyEdit", applied=res.applied, failureReason=res.failure_reason)
    status = "applied" if res.applied else "rejected" if plan.get("review") and not res.failure_reason else "refused"
    return end(message, status, edits=len(edits), stats={"windows": where})


if __name__ == "__main__":
    server.start_io()
