"""The code in a chat model's answer to a rewrite prompt (engine/prompts/prompt.py asks for one fenced block), read
as the answer streams in: the first fenced block, the prose around it dropped; the block's end is known the
moment its closing fence arrives, so the reader can stop the answer there (the prose a model adds after its
block costs decode time and is thrown away). An answer with no fence at all is code written bare when it holds
a line of the text it was shown, else prose with no code.

Fences follow CommonMark: an opening line of three or more backticks or tildes (up to three spaces before it, an
info string after it, no backtick in a backtick fence's), closed by a line of the same character at least as
long, with nothing after it but blanks.
"""
import re

_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}(?=[^`]*$)|~{3,})")


class AnswerCode:
    """Feed the answer's text with `push`, in pieces as they come; `code` is the block's whole lines so far."""

    def __init__(self):
        self.text = ""                # everything pushed
        self.fence: str | None = None  # the opening fence, once read
        self.closed = False
        self._lines: list[str] = []   # the block's lines, ended
        self._done = 0                # characters of `text` read as whole lines

    def push(self, piece: str) -> None:
        self.text += piece
        while not self.closed and (end := self.text.find("\n", self._done)) != -1:
            self._line(self.text[self._done:end + 1])
            self._done = end + 1

    def _line(self, line: str) -> None:
        bare = line.rstrip("\r\n")
        if self.fence is None:
            if m := _OPEN.match(bare):
                self.fence = m.group("fence")
            return
        if re.fullmatch(rf" {{0,3}}{re.escape(self.fence[0])}{{{len(self.fence)},}}[ \t]*", bare):
            self.closed = True
        else:
            self._lines.append(line)

    @property
    def code(self) -> str:
        return "".join(self._lines)

    def final(self, shown: str) -> str | None:
        """The answer's code once it has ended (its last line read, ended or not): the block's; for an answer
        without a fence, all of it when it holds a non-blank line of `shown` (or `shown` has none), None when it
        holds none (prose)."""
        if not self.closed and self._done < len(self.text):
            self._line(self.text[self._done:])
            self._done = len(self.text)
        if self.fence is not None:
            return self.code
        own = {line.strip() for line in shown.splitlines() if line.strip()}
        if not own or any(line.strip() in own for line in self.text.splitlines()):
            return self.text
        return None
