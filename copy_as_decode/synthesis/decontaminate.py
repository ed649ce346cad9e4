"""Keeping evaluation text out of synthesized edits, line by line: a distinctive line (DISTINCTIVE characters
or more, stripped) identifies the document it comes from, so a snippet holding one of an evaluation
document's is dropped, a whole file holding more than MAX_SHARED of them is another version of one, and an
edit that writes or drops one is not made. (Whole benchmark files are never harvested at all:
sources.is_benchmark_file.)"""
from dataclasses import replace

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Copy, Gen

from .sources import LongFile, Snippet

DISTINCTIVE = 20
# A file with more of its distinctive lines in another file is a version of it (the long-file benchmark
# decides so against the training sources, and the training data against the evaluation documents).
MAX_SHARED = 0.1


def distinctive(text: str) -> set[str]:
    """The text's distinctive lines, stripped."""
    return {s for s in (x.strip() for x in text.split("\n")) if len(s) >= DISTINCTIVE}


def shared(text: str, lines: set[str]) -> float:
    """Share of the text's distinctive lines that are in `lines`."""
    mine = distinctive(text)
    return len(mine & lines) / max(len(mine), 1)


def decontaminate(snippets: list[Snippet], lines: set[str], names: set[str]) -> list[Snippet]:
    """The snippets that share no distinctive line with `lines` and whose function is not one of `names`."""
    return [s for s in snippets if s.name.rsplit(".", 1)[-1] not in names and not distinctive(s.text) & lines]


def decontaminate_long(files: list[LongFile], lines: set[str], names: set[str]) -> list[LongFile]:
    """The files sharing at most MAX_SHARED of their distinctive lines with the evaluation documents, each
    with only its functions that share none (a long document may hold a few common lines; what an edit
    changes may not, see touches_evaluation)."""
    return [replace(f, functions=tuple(decontaminate(list(f.functions), lines, names)))
            for f in files if shared(f.text, lines) <= MAX_SHARED]


def touches_evaluation(items, before: str, eval_lines: set[str]) -> bool:
    """Whether the program writes (in a gen) or drops (leaves uncopied) a distinctive line of an evaluation
    document: an injected bug can write one by chance, and a long file's edit can fall on one."""
    copied = {k for i in items if isinstance(i, Copy) for k in range(i.start, i.end + 1)}
    changed = [x for i in items if isinstance(i, Gen) for x in split_lines(i.text)]
    changed += [x for k, x in enumerate(split_lines(before), 1) if k not in copied]
    return any(len(x.strip()) >= DISTINCTIVE and x.strip() in eval_lines for x in changed)
