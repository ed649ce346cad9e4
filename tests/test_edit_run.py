"""Running an edit (server/edit_run.py) against a fake worker and fake documents, with no language server:
what the worker is asked, and which Outcome each of its answers becomes."""
import asyncio
import subprocess
import sys
from dataclasses import dataclass

from lsprotocol import types as t

from copy_as_decode.core.contract import INCOMPLETE, SKIPPED, TOO_LONG, UNPARSED
from copy_as_decode.server import positions
from copy_as_decode.server.edit_request import EDIT_TITLE, EditCommand
from copy_as_decode.server.edit_run import EditRunner
from copy_as_decode.server.jobs import Jobs
from copy_as_decode.server.settings import Settings
from copy_as_decode.server.worker_client import WorkerCrashed, WorkerError

URI = "file:///tmp/copy-as-decode-test/a.py"
TEXT = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
REFUSAL = WorkerError("the model's answer deletes lines 2-3 unasked; nothing was changed", INCOMPLETE,
                      {"stop": SKIPPED, "text": "def f():\n    return 1\n", "stats": {"model": "fake"}})


@dataclass
class Doc:
    uri: str
    version: int
    source: str
    language_id: str = "python"


class FakeWorker:
    """Answers every edit with `answer` (a result, or an exception to raise) after `meanwhile` runs."""

    def __init__(self, answer, meanwhile=None):
        self.answer, self.meanwhile = answer, meanwhile
        self.running = True
        self.asked: list[tuple[dict, str]] = []

    async def edit(self, params, on_progress=None, *, key=None, method="edit"):
        self.asked.append((params, key))
        if self.meanwhile:
            await self.meanwhile()
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


class FakeProgress:
    def __init__(self):
        self.begun, self.ended = None, []

    async def begin(self, message):
        self.begun = message

    def report(self, params):
        pass

    def end(self, message):
        self.ended.append(message)


class Run:
    """One edit of the document {URI: TEXT} (version 1); `told` are the messages to the user."""

    def __init__(self, worker, settings=Settings(), can_review=False, asks=False):
        self.docs = {URI: Doc(URI, 1, TEXT)}
        self.worker, self.settings, self.can_review, self.asks = worker, settings, can_review, asks
        self.told: list[tuple[t.MessageType, str]] = []
        self.progress = FakeProgress()
        self.jobs = Jobs()

    async def __call__(self, req: EditCommand):
        runner = EditRunner(self.docs.get, lambda doc: positions.LineIndex(doc.source), self.worker,
                            lambda kind, text: self.told.append((kind, text)))
        with self.jobs.track("request-1", req.uri) as job:
            return await runner.run(req, settings=self.settings, can_review=self.can_review, job=job,
                                    progress=self.progress, asks=self.asks)


def edit(instruction="rename f to h", version=1, **kw) -> EditCommand:
    return EditCommand(URI, instruction, version, **kw)


async def test_the_worker_is_asked_for_the_document_and_its_window():
    worker = FakeWorker({"text": TEXT.replace("def f", "def h"), "stats": {"model": "fake"}})
    run = Run(worker)
    rng = t.Range(start=t.Position(line=4, character=0), end=t.Position(line=5, character=3))
    outcome = await run(edit(range=rng, position=t.Position(line=1, character=4)))
    [(params, key)] = worker.asked
    assert key == URI  # a newer edit of the same document supersedes this one
    assert params == {"document": TEXT, "instruction": "rename f to h", "selector": run.settings.selector,
                      "max_new_tokens": "auto", "lines": [5, 6], "at": 2, "language": "python"}
    assert outcome.status == "ok" and outcome.version == 1 and outcome.stats == {"model": "fake"}
    assert positions.apply_lsp_edits(TEXT, outcome.edits) == TEXT.replace("def f", "def h")
    assert not outcome.reviewed and run.progress.ended == ["1 edit"] and run.told == []


async def test_a_stale_version_is_refused():
    worker = FakeWorker({"text": "x\n"})
    run = Run(worker)
    outcome = await run(edit(version=0))
    assert (outcome.status, outcome.edits, worker.asked, run.progress.begun) == ("stale", [], [], None)
    assert run.told == [(t.MessageType.Warning, "the document changed before the edit started; nothing was applied")]

    async def typing():  # the user edits the document while the model runs
        run.docs[URI] = Doc(URI, 2, TEXT + "# more\n")

    run = Run(FakeWorker({"text": "x\n"}, meanwhile=typing))
    outcome = await run(edit())
    assert (outcome.status, outcome.edits, run.progress.ended) == ("stale", [], ["document changed"])
    assert "changed while the edit ran" in outcome.message


async def test_no_change_is_unchanged():
    run = Run(FakeWorker({"text": TEXT, "stats": {"model": "fake"}}))
    outcome = await run(edit())
    said = "No change: the model answered the text as it was"
    assert (outcome.status, outcome.edits, outcome.stats) == ("unchanged", [], {"model": "fake"})
    assert run.told == [(t.MessageType.Info, said)] and run.progress.ended == ["no change"]
    assert outcome.result() == {"applied": False, "status": "unchanged", "reviewed": False, "edits": 0,
                                "stats": {"model": "fake"}, "message": said}
    # the worker's word and its why (docs/worker-protocol.md): nothing applied, whatever text came with it
    run = Run(FakeWorker({"text": TEXT + "x\n", "status": "unchanged", "message": "the block is already in the file"}))
    outcome = await run(edit())
    assert (outcome.status, outcome.edits, outcome.message) == (
        "unchanged", [], "No change: the block is already in the file")


async def test_a_worker_error_is_an_error_outcome_and_nothing_is_applied():
    run = Run(FakeWorker(WorkerError("the document is too long for the model", TOO_LONG)))
    outcome = await run(edit())
    assert (outcome.status, outcome.edits, run.progress.ended) == ("error", [], ["failed"])
    assert outcome.message == f"the document is too long for the model (select fewer lines and use “{EDIT_TITLE}”)"
    assert run.told == [(t.MessageType.Error, outcome.message)]

    run = Run(FakeWorker(WorkerCrashed("the model worker stopped (exit code 3)")))
    outcome = await run(edit())
    assert (outcome.status, outcome.edits) == ("error", [])
    assert outcome.message == "the model worker stopped (exit code 3); it restarts with the next edit"

    run = Run(FakeWorker({"text": None}))
    assert (await run(edit())).message == "the model worker gave no text"

    run = Run(FakeWorker(KeyError("boom")))  # a fault of the server's own: one line, still an Outcome
    outcome = await run(edit())
    assert (outcome.status, outcome.edits) == ("error", [])
    assert outcome.message == "the edit failed (KeyError: 'boom'); nothing was changed"


async def test_a_refused_result_is_only_ever_offered_for_review():
    """As hunks that need confirmation where the client shows annotations, else as a question where it answers
    one, else refused; a result with new parse errors as a deletion nobody asked for."""
    unparsed = WorkerError("the result has parse errors the document had not: line 2; nothing was changed",
                           INCOMPLETE, {**REFUSAL.data, "stop": UNPARSED})
    for kw in ({"can_review": True}, {"asks": True}, {}):
        outcome = await Run(FakeWorker(unparsed), **kw)(edit())
        assert (outcome.status, outcome.reviewed, outcome.asks) == (
            ("ok", True, False) if kw.get("can_review") else ("ok", False, True) if kw else ("error", False, False))
        # offered, the warning says why it needs review; refused, the message says nothing was changed
        if kw:
            assert outcome.warning == "the result has parse errors the document had not: line 2"
        else:
            assert outcome.warning is None and outcome.message.startswith(str(unparsed))

    run = Run(FakeWorker(REFUSAL), can_review=True)
    outcome = await run(edit())
    assert (outcome.status, outcome.reviewed, outcome.warning) == ("ok", True, "the model's answer deletes lines 2-3 unasked")
    assert positions.apply_lsp_edits(TEXT, outcome.edits) == REFUSAL.data["text"]
    assert outcome.stats == {"model": "fake"} and run.progress.ended == ["1 edit to review"]
    assert run.told == [(t.MessageType.Warning, "the model's answer deletes lines 2-3 unasked; review it")]

    # a client without annotations that answers questions: the user is asked before anything is applied
    run = Run(FakeWorker(REFUSAL), asks=True)
    outcome = await run(edit())
    assert (outcome.status, outcome.reviewed, outcome.asks) == ("ok", False, True)
    assert outcome.warning == "the model's answer deletes lines 2-3 unasked"
    assert outcome.result()["reviewed"] and run.progress.ended == ["1 edit to review"] and run.told == []

    for kw in ({"can_review": False}, {"can_review": True, "settings": Settings(review="never")},
               {"asks": True, "settings": Settings(review="never")}):
        run = Run(FakeWorker(REFUSAL), **kw)
        outcome = await run(edit())
        assert (outcome.status, outcome.edits, outcome.reviewed) == ("error", [], False)
        assert outcome.message.startswith(str(REFUSAL)) and run.progress.ended == ["incomplete"]


async def test_the_worker_s_answer_is_checked_there_not_again_here():
    """Every check a result passes runs in the worker (engine/front.py checked, engine/apply.py's guarantee),
    whose refusals the server offers for review (above): an answer it sends is applied as it is, an apply's
    block is sent once and not merged again here."""
    long = "".join(f"line {k}\n" for k in range(1, 41))
    half = long[:long.index("line 21\n")]
    run = Run(FakeWorker({"text": half, "stats": {"deleted_lines": 20}}))
    run.docs[URI] = Doc(URI, 1, long)
    outcome = await run(edit())
    assert (outcome.status, outcome.warning) == ("ok", None)
    assert positions.apply_lsp_edits(long, outcome.edits) == half
    body = "".join(f"    x{k} = {k}\n" for k in range(12))
    document = f"def f():\n{body}    return 1\n\n\ndef g():\n{body}    return 2\n"
    block = "def f():\n    return 0\n"
    merged = "def f():\n    return 0\n\n\ndef g():\n" + body + "    return 2\n"
    run = Run(FakeWorker({"text": merged}))
    run.docs[URI] = Doc(URI, 1, document)
    outcome = await run(EditCommand(URI, "", 1, block=block))
    assert outcome.status == "ok", outcome.message
    assert [(p["block"], "instruction" in p) for p, *_ in run.worker.asked] == [(block, False)]
    assert positions.apply_lsp_edits(document, outcome.edits) == merged


async def test_a_cancelled_job_ends_as_cancelled():
    started = asyncio.Event()

    async def forever():
        started.set()
        await asyncio.Event().wait()

    run = Run(FakeWorker({"text": "x\n"}, meanwhile=forever))
    running = asyncio.ensure_future(run(edit()))
    await started.wait()
    run.jobs.cancel_request("request-1")
    outcome = await asyncio.wait_for(running, 3)
    assert (outcome.status, outcome.edits, run.told) == ("cancelled", [], [])  # cancelling is silent
    assert run.progress.ended == ["cancelled"] and run.jobs.cancel_edits() == 0  # the job is gone


def test_running_an_edit_needs_no_language_server():
    loaded = subprocess.run([sys.executable, "-c", "import sys, copy_as_decode.server.edit_run; "
                             "print(sorted(m for m in sys.modules if m.startswith(('pygls.lsp', 'pygls.protocol', "
                             "'pygls.server'))))"], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"
