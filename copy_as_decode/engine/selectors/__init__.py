"""The selectors: how an edit's program is chosen. One module each (or per idea), one entry in SELECTORS.

The CLI's `--selector`, the worker, the language server's `selector` setting, the VS Code setting
(extension-vscode/package.json, kept in step by scripts/sync-vscode-settings.py) and `bench edit` all read
this registry, so a new selector is a new module here and its entry below.
"""
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from copy_as_decode.core.contract import AUTO, Hooks
from copy_as_decode.core.program import Item
from copy_as_decode.engine.request import EditRequest
from copy_as_decode.engine.result import EditResult


@runtime_checkable
class Front(Protocol):
    """What a selector asks of the engine (engine/front.py EditFront implements it): a program's decode (the
    model's choice, or `forced` items fed), a rewrite's (drafted from the document or not), a constrained choice
    of the place an instruction is about among `options` (None where the engine cannot constrain one), and the
    tokenizer with its lock (None for an engine that sends text: engine/remote/chat.py)."""
    tok: Any
    tok_lock: AbstractContextManager

    def program(self, request: EditRequest, forced: list[Item] | None, splice: bool = True) -> EditResult: ...

    def rewrite(self, request: EditRequest, draft: bool) -> EditResult: ...

    def choose_place(self, instruction: str, candidates: str, options: list[str],
                     hooks: Hooks) -> tuple[str, float] | None: ...


Run = Callable[[Front, EditRequest], EditResult]  # a selector's edit of a request


@dataclass(frozen=True)
class Selector:
    name: str
    help: str  # one line, for the CLI, the editor settings and the docs
    run: Run
    program: bool = False  # decodes a copy/gen program (its prompt shows numbered lines)
    offered: bool = True   # False: a given program fed through the engine (tests, benchmarks), not the model's answer
    windows: bool = False  # edits the windows core/windows.py finds (stats.windows names them)


def _registry() -> dict[str, Selector]:
    from copy_as_decode.engine.selectors import program, rewrite, windowed
    return {s.name: s for s in (windowed.WINDOWED, windowed.ONCE, program.GRAMMAR, rewrite.VERIFIED, rewrite.FULL,
                                program.FORCED)}


SELECTORS = _registry()
AUTO_HELP = "`grammar` for a model trained to write programs (a LoRA adapter), else `windowed`"
OFFERED = (AUTO, *(name for name, s in SELECTORS.items() if s.offered))  # what users choose


def edits_windows(name: str) -> bool:
    """Whether the selector that ran (stats.selector) edited windows rather than the whole file."""
    return name in SELECTORS and SELECTORS[name].windows


def get(name: str) -> Selector:
    if name not in SELECTORS:
        raise ValueError(f"unknown selector {name!r}; choose one of {', '.join((AUTO, *SELECTORS))}")
    return SELECTORS[name]
