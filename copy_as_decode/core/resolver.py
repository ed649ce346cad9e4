"""Program + document -> edited document, byte-exactly, in time linear in the output."""
from .document import split_lines
from .program import Copy, CopySpan, Gen, Item, parse


class ResolveError(ValueError):
    """A well-formed program that does not fit the document (range past the end, inverted, out of order)."""


def resolve(program: str | list[Item], document: str | list[str], monotone: bool = True) -> str:
    """Rebuild the edited document.

    `monotone` requires line copies to move forward without overlap, which is what the grammar enforces
    for generated programs; above the grammar's size limit this check is what enforces it.
    """
    items = parse(program) if isinstance(program, str) else program
    lines = split_lines(document) if isinstance(document, str) else document
    n = len(lines)
    out: list[str] = []
    last = 0  # last input line covered by a line copy
    for k, item in enumerate(items, 1):
        match item:
            case Gen(text):
                out.append(text)
            case Copy(i, j, shift):
                if not 1 <= i <= j <= n:
                    raise ResolveError(f"item {k}: lines {i}-{j} outside 1-{n}" if i <= j
                                       else f"item {k}: inverted range {i}-{j}")
                if shift is not None:  # a moved copy: any lines, and the order stays where it was
                    out.append(copied(lines, item))
                    continue
                if monotone and i <= last:
                    raise ResolveError(f"item {k}: lines {i}-{j} overlap or precede line {last}, already copied")
                out.extend(lines[i - 1:j])
                last = j
            case CopySpan(i, a, j, b):
                out.append(_span(lines, i, a, j, b, k))
    return "".join(out)


def copied(lines: list[str], copy: Copy) -> str:
    """The text a line copy puts in the output: its lines, shifted when it is a moved copy."""
    return "".join(lines[copy.start - 1:copy.end]) if not copy.indent else \
        "".join(shift(line, copy.indent) for line in lines[copy.start - 1:copy.end])


def indent_width(line: str) -> int:
    """The leading spaces and tabs of `line`, counted as `shift` counts them."""
    return len(line) - len(line.lstrip(" \t"))


def shift(line: str, by: int) -> str:
    """`line` indented by `by` columns: +K spaces before a line that holds more than blanks; -K takes up to K
    leading spaces or tabs off (so every shift of every line is defined: a program cannot fail here)."""
    if by > 0:
        return " " * by + line if line.strip() else line
    body = line.lstrip(" \t")
    return line[min(-by, len(line) - len(body)):]


def _span(lines: list[str], i: int, a: int, j: int, b: int, k: int) -> str:
    n = len(lines)
    if not (1 <= i <= n and 1 <= j <= n) or (i, a) > (j, b):
        raise ResolveError(f"item {k}: span {i}:{a}-{j}:{b} outside the document or inverted")
    if a > len(lines[i - 1]) or b > len(lines[j - 1]):
        raise ResolveError(f"item {k}: span {i}:{a}-{j}:{b} past the end of a line")
    if i == j:
        return lines[i - 1][a:b]
    return lines[i - 1][a:] + "".join(lines[i:j - 1]) + lines[j - 1][:b]
