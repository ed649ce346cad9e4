"""The running edits, how each is stopped, and the progress the editor shows for it.

An edit can run for minutes, and the user can stop it from four places: the client's $/cancelRequest for
the request that started it, the cancel button of its work-done progress, the copyAsDecode.cancel command,
and closing the document (shutdown and exit stop them all). Each of these finds the edit here, as a Job
registered under its LSP request id, and cancels the asyncio task that runs it. Job.cancelled then lets the
edit tell a stop that someone asked for from its task being cancelled by pygls or by the server stopping.
"""
import asyncio
import contextlib
import logging
import uuid
from collections.abc import Iterator
from typing import Any

from lsprotocol import types

PROGRESS_INTERVAL = 0.1  # seconds between progress reports

log = logging.getLogger(__name__)


class Job:
    """One running edit: the task that runs it, and whether someone asked to stop it."""

    def __init__(self, uri: str):
        self.uri = uri
        self.task = asyncio.current_task()
        self.cancelled = False
        self.active = True

    def cancel(self) -> None:
        if self.active and not self.cancelled:
            self.cancelled = True
            self.task.cancel()


class Jobs:
    """The running edits by the id of the LSP request that started them."""

    def __init__(self):
        self._by_request: dict[Any, Job] = {}

    @contextlib.contextmanager
    def track(self, msg_id, uri: str) -> Iterator[Job]:
        """A Job for the edit the current task runs, findable by `msg_id` until the block ends.

        Without a request id (the server's own calls) the job can still be cancelled from its progress."""
        job = Job(uri)
        if msg_id is not None:
            self._by_request[msg_id] = job
        try:
            yield job
        finally:
            job.active = False
            if msg_id is not None and self._by_request.get(msg_id) is job:
                del self._by_request[msg_id]

    def cancel_request(self, msg_id) -> None:
        if (job := self._by_request.get(msg_id)) is not None:
            job.cancel()

    def cancel_edits(self, uri: str | None = None) -> int:
        """Cancel the running edits of one document, or all; returns how many."""
        jobs = [j for j in self._by_request.values() if j.active and (uri is None or j.uri == uri)]
        for job in jobs:
            job.cancel()
        return len(jobs)


class Progress:
    """Work-done progress for one edit, whose cancel button cancels the job; when the client cannot show
    progress (or before `begin`) it does nothing.

    `work_done_progress` is pygls's LanguageServer.work_done_progress."""

    def __init__(self, work_done_progress, job: Job, title: str, enabled: bool):
        self.work_done_progress, self.job, self.title, self.enabled = work_done_progress, job, title, enabled
        self.token: str | None = None
        self.last = 0.0
        self.done = False

    async def begin(self, message: str) -> None:
        if not self.enabled:
            return
        token = f"copyAsDecode/{uuid.uuid4()}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception as e:
            log.warning("window/workDoneProgress/create failed: %s", e)
            return
        self.token = token
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(
            title=self.title, cancellable=True, message=message))
        loop = asyncio.get_running_loop()
        cancel_future = self.work_done_progress.tokens.get(token)
        if cancel_future is not None:
            cancel_future.add_done_callback(lambda f: f.cancelled() and loop.call_soon_threadsafe(self.job.cancel))

    def report(self, params: dict) -> None:
        """A progress notification of the worker (docs/worker-protocol.md), at most one per PROGRESS_INTERVAL."""
        if self.token is None or self.done:
            return
        now = asyncio.get_running_loop().time()
        if isinstance(params.get("place"), dict):  # where the edit lands, before its decode: at once
            from .place import label
            try:
                message = f"editing {label(params['place'])}"
            except (KeyError, TypeError, ValueError):
                return
            self.last = now
            self.work_done_progress.report(self.token, types.WorkDoneProgressReport(message=message))
            return
        if now - self.last < PROGRESS_INTERVAL:
            return
        self.last = now
        sampled, spliced, window = params.get("sampled", 0), params.get("spliced", 0), params.get("window")
        self.work_done_progress.report(self.token, types.WorkDoneProgressReport(
            message=f"{window + ': ' if window else ''}{sampled} tokens generated, {spliced} copied"))

    def end(self, message: str) -> None:
        if self.token is None or self.done:
            return
        self.done = True
        self.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
        self.work_done_progress.tokens.pop(self.token, None)
