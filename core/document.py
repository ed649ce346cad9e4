"""A document as a list of lines that keep their endings, and the numbered view the model reads."""
import re

_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def split_lines(text: str) -> list[str]:
    """Split keeping "\\n"/"\\r\\n" endings; a last line without newline is kept; "" has no lines.

    Only "\\n" breaks a line: str.splitlines() would also break on \\x0c, \\x1c or \\u2028 and
    shift every line number after them.
    """
    return _LINE.findall(text)


def numbered(lines: list[str]) -> str:
    """The view shown to the model: `<n>| <line>` with right-aligned numbers, one per line.

    A last line without a newline still ends the view with one, so the prompt stays line-shaped.
    """
    width = len(str(len(lines)))
    out = [f"{i:>{width}}| {line.rstrip(chr(10)).rstrip(chr(13))}\n" for i, line in enumerate(lines, 1)]
    return "".join(out)
