"""Drafts for the verified selector: the input lines that the output, as aligned so far, would copy next."""
import bisect

from copy_as_decode.core.document import bare, split_lines
from copy_as_decode.core.resolver import indent_width, shift
from copy_as_decode.engine.prompts.prompt import text_ids

K_MAX = 256  # the longest draft: one verification of up to this many tokens


class LineDrafter:
    """Keeps the output aligned with the input, line by line, and proposes what follows.

    `anchor` is the input line after the last output line that matched one; an output line that matches
    nothing counts as a replacement of the next input line, but the next search still starts at `anchor`,
    so an insertion (which matches nothing either) re-synchronises on the following line. A line found
    only before `anchor` re-synchronises there when it is unique in the document (an output that went back,
    as a model repeating a file's header does); a repeated one (blank lines, `}`) would be a guess.

    An output line that is an input line with other indentation (a method moved out of its class, a block
    wrapped in a `try:`) aligns there too, with that shift (`by`), and the draft is the following input lines
    shifted alike: a moved block is checked in one forward, not written token by token. The shift holds over
    blank lines until another non-blank line aligns.
    """

    def __init__(self, tok, document: str, k: int = 16, k_min: int = 4, k_max: int = K_MAX):
        self.tok, self.lines = tok, [bare(line) for line in split_lines(document)]
        self.k, self.k_min, self.k_max = k, k_min, k_max
        self.anchor = self.cursor = 0
        self.seen = 0  # output characters already aligned
        self.by = 0  # the shift of the output's lines against the input lines they align with
        self.where: dict[str, list[int]] = {}  # line text -> its line indexes, ascending
        self.bare: dict[str, list[int]] = {}   # the same for non-blank lines without their indentation
        for j, line in enumerate(self.lines):
            self.where.setdefault(line, []).append(j)
            if line.strip():
                self.bare.setdefault(line.lstrip(" \t"), []).append(j)

    def _nearest(self, at: list[int]) -> int | None:
        k = bisect.bisect_left(at, self.anchor)
        if k < len(at):
            return at[k]
        return at[0] if len(at) == 1 else None

    def _match(self, line: str) -> tuple[int, int | None] | None:
        """(input line index, shift: None for a blank line, which keeps the shift) or None."""
        if (j := self._nearest(self.where.get(line, []))) is not None:
            return j, 0 if line.strip() else None
        if line.strip() and (j := self._nearest(self.bare.get(line.lstrip(" \t"), []))) is not None:
            by = indent_width(line) - indent_width(self.lines[j])
            if shift(self.lines[j], by) == line:
                return j, by
        return None

    def _align(self, text: str) -> None:
        while (nl := text.find("\n", self.seen)) >= 0:
            line = bare(text[self.seen:nl + 1])
            self.seen = nl + 1
            match = self._match(line)
            if match is None:
                self.cursor += 1
            else:
                self.anchor = self.cursor = match[0] + 1
                self.by = self.by if match[1] is None else match[1]

    def _line(self, j: int) -> str:
        return shift(self.lines[j], self.by) if self.by else self.lines[j]

    def propose(self, text: str) -> list[int]:
        """Draft tokens to follow `text` (the output so far), or [] when the output is off the input."""
        self._align(text)
        partial = text[self.seen:]
        if self.cursor >= len(self.lines) or not self._line(self.cursor).startswith(partial):
            return []
        chunk, j = self._line(self.cursor)[len(partial):] + "\n", self.cursor + 1
        while j < len(self.lines) and len(chunk) < 6 * self.k:  # ~6 chars/token is an upper bound for code
            chunk += self._line(j) + "\n"
            j += 1
        return text_ids(self.tok, chunk)[: self.k]

    def feedback(self, proposed: int, accepted: int) -> None:
        """Grow the draft after full acceptance, shrink it after a rejection."""
        if proposed:
            self.k = min(self.k * 2, self.k_max) if accepted == proposed else max(self.k // 2, self.k_min)
