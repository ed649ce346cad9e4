"""Whether a window's rewrite holds the lines around its window: a model that answers a window with the whole file
(or with more than the window: the function before it, the one after) would have them written twice, since the
rewrite replaces the window's lines only. engine/front.py `checked` refuses such a result.

The lines that tell are the file's own: on each side, the RUN nearest non-blank lines outside the window that
occur once in the file and not in the window (`}`, `return nil` or `end` occur everywhere, and a model writes them
anyway). A model shown the window alone cannot write two of one side's but by writing outside its window; lines
are compared without their indentation, since the rewrite comes back indented as the window is.
"""
from collections import Counter

from copy_as_decode.core.document import split_lines

RUN = 3


def repeated(lines: list[str], at: int, old: str, new: str) -> str | None:
    """Which lines around the window (it starts after `at` lines of the document `lines`, and is `old`) its
    rewrite `new` repeats, as "lines 38, 40, before the window"; None when it repeats neither side."""
    end = at + len(split_lines(old))
    said, own = _solid(new), _solid(old)
    once = {text for text, n in Counter(line.strip() for line in lines).items() if n == 1}

    def nearest(numbered) -> list[tuple[int, str]]:
        return [(k, line.strip()) for k, line in numbered if line.strip() in once and line.strip() not in own][:RUN]

    sides = (("before", nearest(reversed(list(enumerate(lines[:at], 1))))),
             ("after", nearest(enumerate(lines[end:], end + 1))))
    for side, run in sides:
        hits = sorted(k for k, text in run if text in said)
        if len(hits) >= 2:
            return f"lines {', '.join(map(str, hits))}, {side} the window"
    return None


def _solid(text: str) -> set[str]:
    return {line.strip() for line in split_lines(text) if line.strip()}
