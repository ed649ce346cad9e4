"""Follows the program text as it is decoded and reports each item the moment it completes."""
from copy_as_decode.core.program import GEN_OPEN, Item, ProgramSyntaxError, next_item


class ProgramTracker:
    """Reads with core/program.py's own reader, so it completes exactly the items `parse` would read."""

    def __init__(self):
        self.text = ""
        self.done = 0  # offset just past the last complete item
        self.items: list[Item] = []
        self._next = 0  # where the item being written starts, past the blanks after `done`

    @property
    def outside_gen(self) -> bool:
        return not self.text.startswith(GEN_OPEN, self._next)

    def feed(self, piece: str) -> list[Item]:
        """Append decoded text; return the items it completed (a copy completes exactly at its "/>")."""
        self.text += piece
        completed = []
        while True:
            try:
                item, end = next_item(self.text, self.done)
            except ProgramSyntaxError as e:  # text no program continues: nothing completes after it
                item, end = None, e.offset
            if item is None:
                self._next = end
                break
            completed.append(item)
            self.done = end
        self.items += completed
        return completed
