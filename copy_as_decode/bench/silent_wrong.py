"""An edit that is written and wrong by a fact anyone can check: `bench edit`'s `silent wrong` (docs/benchmarks.md).

Written: the edit finished, and its result differs from the document (the CLI writes it, exit 0; a refused or
unchanged edit writes nothing). Wrong, each reason checkable without judging the fix:
  parse      the result has parse errors the document had not (core/syntax_check.py new_errors)
  lost       it deletes lines the gold keeps (core/deletions.py lines_lost, or the structural corpora's own count)
  outside    it changes lines the case's fix does not touch (a locate case's `unasked` lines)
  missing    it is not the gold, and leaves untouched a place where the gold changes something: a changed block
             of the gold whose lines the result keeps as they are, with nothing written beside them
  tests      it fails the case's own tests or check
A result equal to the gold is never silent wrong.
"""
from copy_as_decode.core.deletions import hunks
from copy_as_decode.core.syntax_check import new_errors


def missing(document: str, text: str, gold: str) -> bool:
    """Whether a change of the gold is absent from `text`: a block the gold changes that no block of `text`'s
    diff meets (overlaps it, or, for an insertion, touches where it goes)."""
    ours = [(i1, i2) for i1, i2, _, _ in hunks(document, text)]
    return any(not any(a < i2 and i1 < b or a <= i1 <= b and i1 == i2 or i1 <= a <= i2 and a == b
                       for a, b in ours) for i1, i2, _, _ in hunks(document, gold))


def reasons(document: str, text: str, gold: str | None, language: str | None, row: dict) -> list[str] | None:
    """Why a written result is wrong ([] when nothing shows it), or None when nothing was written; `row`'s
    lines_lost, unasked and passed are bench/edit_bench.py run_case's."""
    if not row["complete"] or text == document:
        return None
    if gold is not None and text == gold:
        return []
    out = []
    if new_errors(document, text, language):
        out.append("parse")
    if row.get("lines_lost"):
        out.append("lost")
    if row.get("unasked"):
        out.append("outside")
    if gold is not None and missing(document, text, gold):
        out.append("missing")
    if row.get("passed") is False:
        out.append("tests")
    return out
