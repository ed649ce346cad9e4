"""What an edit returns: the edited document, the decode's stats and the program that makes it."""
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program
from copy_as_decode.engine.decoding.stats import Stats


class EditResult:
    """The edited document, the decode's stats, a rewrite's output ids (for exactness checks), and the copy/gen
    program that makes the document into it: a program selector's own, or for a rewrite its line copies,
    computed only when asked (`before`: the document it was computed from). A windowed edit's `rewrites`:
    each window as (its first line's offset, its text, its rewrite), which engine/front.py checks for unasked
    deletions as a file of its own."""

    def __init__(self, text: str, stats: Stats, tokens=(), program: str | None = None, before: str | None = None,
                 rewrites: list[tuple[int, str, str]] = ()):
        self.text, self.stats, self.tokens = text, stats, list(tokens)
        self._program, self._before = program, before
        self.rewrites = list(rewrites)

    @property
    def program(self) -> str:
        if self._program is None:
            self._program = format_program(line_oracle(self._before, self.text))
        return self._program
