"""A document as a list of lines that keep their endings, and the numbered view the model reads."""
import difflib
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
    out = [f"{i:>{width}}| {bare(line)}\n" for i, line in enumerate(lines, 1)]
    return "".join(out)


def with_line_endings(old: str, new: str) -> str:
    """`new` (an edit of `old`) with `old`'s line endings: the one rule for every selector and client.

    Lines of `new` that are unchanged lines of `old` (compared without their endings) keep that line's own
    ending, byte for byte; every other line ending becomes the document's dominant one (CRLF when most of
    `old`'s line breaks are CRLF, else LF). So an LF or CRLF file stays pure, and a mixed file keeps each
    untouched line as it was while new lines follow the majority; a missing final newline stays missing.
    """
    old_lines, new_lines = split_lines(old), split_lines(new)
    crlf = sum(line.endswith("\r\n") for line in old_lines)
    dominant = "\r\n" if crlf * 2 > sum(line.endswith("\n") for line in old_lines) else "\n"
    if crlf == 0 and "\r\n" not in new:
        return new
    bare_old, bare_new = [bare(line) for line in old_lines], [bare(line) for line in new_lines]
    out = [line if not line.endswith("\n") else bare(line) + dominant for line in new_lines]
    for a, b, n in difflib.SequenceMatcher(None, bare_old, bare_new, autojunk=False).get_matching_blocks():
        for k in range(n):
            if new_lines[b + k].endswith("\n") and old_lines[a + k].endswith("\n"):
                out[b + k] = old_lines[a + k]
    return "".join(out)


def bare(line: str) -> str:
    """A line without its ending ("\\n" or "\\r\\n"): the one way every module strips it."""
    return line.removesuffix("\n").removesuffix("\r")


def indent_of(text: str) -> str:
    """The whitespace every non-blank line of `text` starts with."""
    lines = [line for line in split_lines(text) if line.strip()]
    if not lines:
        return ""
    first = lines[0][: len(lines[0]) - len(lines[0].lstrip())]
    while first and not all(line.startswith(first) for line in lines):
        first = first[:-1]
    return first


def dedent(text: str, indent: str) -> str:
    return "".join(line[len(indent):] if line.startswith(indent) else line for line in split_lines(text))


def reindent(text: str, indent: str) -> str:
    return "".join(indent + line if line.strip() else line for line in split_lines(text))
