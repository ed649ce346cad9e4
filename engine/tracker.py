"""Follows the program text as it is decoded and reports each item the moment it completes."""
import re

from copy_as_decode.core.program import GEN_CLOSE, GEN_OPEN, Copy, Gen, Item

_COPY = re.compile(r'\s*<copy lines="([0-9]+)-([0-9]+)"/>')


class ProgramTracker:
    def __init__(self):
        self.text = ""
        self.done = 0  # offset just past the last complete item
        self.items: list[Item] = []

    @property
    def outside_gen(self) -> bool:
        return not self.text[self.done:].lstrip().startswith(GEN_OPEN)

    def feed(self, piece: str) -> list[Item]:
        """Append decoded text; return the items it completed (a copy completes exactly at its "/>")."""
        self.text += piece
        completed = []
        while True:
            rest = self.text[self.done:]
            body = rest.lstrip()
            if m := _COPY.match(rest):
                completed.append(Copy(int(m[1]), int(m[2])))
                self.done += m.end()
            elif body.startswith(GEN_OPEN) and (k := body.find(GEN_CLOSE, len(GEN_OPEN))) >= 0:
                completed.append(Gen(body[len(GEN_OPEN):k]))
                self.done += len(rest) - len(body) + k + len(GEN_CLOSE)
            else:
                break
        self.items += completed
        return completed
