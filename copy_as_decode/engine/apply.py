"""Applying a chat's code block to a file: the parser's merge first (core/block_merge.py), the model only for
the parts whose place the block does not say exactly.

Each part the merge leaves pending is a windowed edit of the merged file: the lines the part belongs to (the
function or class it sits in, found again by name in the merged file) are rewritten by the model with the
part, markers and all, as its instruction, and every other line is copied (engine/selectors/windowed.py). The
rewrite drafts from the window's lines and from the part's (engine/decoding/drafter.py), so the block's new lines are
checked in one forward each run, not written token by token. So
the model is loaded and run only for those parts; a block the parser places whole costs no forward pass.
Whatever wrote the text, the guarantees hold at the end: no lazy-marker line lands in the file, and a file that
parsed still parses.
"""
import time
from collections.abc import Callable

from copy_as_decode.core import block_merge, lazy_block
from copy_as_decode.core.contract import EOS, Hooks
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import outline
from copy_as_decode.core.syntax_check import new_errors
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.result import EditResult

MERGE = "merge"  # the selector name stats report for an apply the parser placed whole


def instruction(part: str) -> str:
    """What the model is asked for a pending part: the block's lines, lazy markers meaning "as it is"."""
    return ("Apply this change, given as a code block in which comments like `# ... existing code ...` stand for "
            "lines that stay as they are; change nothing else:\n```\n" + part.rstrip("\n") + "\n```")


def apply(document: str, block: str, engine: Callable[[], object] | None = None, *, language: str | None = None,
          hooks: Hooks = Hooks(), max_new_tokens: int | None = None, lines: tuple[int, int] | None = None) -> EditResult:
    """The document with the block merged in. `engine()` gives the model's engine (an engine.front.EditFront),
    called only when a part needs the model; without one such a block raises MergeError. `lines` (the editor's
    selection, 1-based, inclusive) is where a part goes whose place the block does not say.

    Raises MergeError (nothing to place, a marker that would land, a result that no longer parses) or what
    the model's edit raises (engine/front.py: IncompleteEdit when it does not finish or deletes unasked)."""
    start = time.perf_counter()
    merged = block_merge.merge(document, block, language)
    stats = Stats(selector=MERGE, stop=EOS, windows="; ".join(merged.placed))
    text = merged.text
    if merged.pending:
        if engine is None:
            raise block_merge.MergeError("the block's place in the file is not certain ("
                                         + "; ".join(p.why for p in merged.pending) + ") and no model was given")
        front = engine()
        for part in merged.pending:
            hooks.check()
            result = front.edit(text, instruction(part.text), "windowed", lines=_window(text, part, merged.language) or lines,
                                language=merged.language, hooks=hooks, max_new_tokens=max_new_tokens,
                                drafts=part.text)
            stats.add(result.stats)
            stats.selector, stats.stop = f"{MERGE}+{result.stats.selector}", result.stats.stop
            stats.windows = "; ".join(filter(None, (stats.windows, result.stats.windows)))
            text = result.text
    _check(document, block, text, merged.language)
    stats.total_s = time.perf_counter() - start
    from copy_as_decode.core.deletions import deleted_lines
    stats.deleted_lines = deleted_lines(document, text)
    return EditResult(text, stats, before=document)


def _window(text: str, part: block_merge.Pending, language: str | None) -> tuple[int, int] | None:
    """The lines of the merged `text` a pending part belongs to: its symbol found again by name (the merge
    moved lines), else its window as given, else None (the model's windowed edit finds the place)."""
    if part.symbol is not None:
        found = [s for s in outline(text.replace("\r\n", "\n"), language)[1] if s.qualname == part.symbol]
        if len(found) == 1:
            return found[0].start, found[0].end
    n = len(split_lines(text))
    return part.window if part.window is not None and part.window[1] <= n else None


def _check(document: str, block: str, text: str, language: str | None) -> None:
    read = lazy_block.read(block, document)
    own = {line.strip() for line in split_lines(document)}
    markers = {split_lines(read.text)[k].strip() for k in read.markers}
    leaked = [line.strip() for line in split_lines(text) if line.strip() in markers and line.strip() not in own]
    if leaked:
        raise block_merge.MergeError(f"the result would hold the lazy marker `{leaked[0]}`; nothing was changed")
    if broken := new_errors(document, text, language):
        raise block_merge.MergeError(f"the result would no longer parse as {language.capitalize()} "
                                     f"({broken[0].describe()}); nothing was changed")
