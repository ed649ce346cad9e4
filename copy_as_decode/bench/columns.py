"""Tables as the benchmarks print them: fixed-width text (bench/forwards.py, bench/kernel.py, bench/apply_bench.py,
bench/apply_endpoint_bench.py), a line of column titles, then a line a row, each cell aligned to its column and the
columns one space apart; text sized to its cells (bench/ceiling.py, bench/roundtrip.py, bench/lsp_latency.py); or
Markdown (bench/places.py, whose table the docs quote as it prints)."""
from collections.abc import Iterable, Sequence


def print_table(columns: Sequence[tuple[str, str]], rows: Iterable[Sequence], note: str = "") -> None:
    """`columns`: each a title and its alignment and width as a format spec ("<20", ">9"); `rows`: their cells, each
    already written as it reads (a number with its precision and unit), aligned here; `note`: after the titles."""
    print(_line([title for title, _ in columns], columns) + note)
    for cells in rows:
        print(_line(cells, columns))


def fitted(rows: Sequence[Sequence[str]]) -> str:
    """`rows` (the titles first) as lines of text: each column as wide as its widest cell, the first aligned left and
    the others right, the columns two spaces apart."""
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(cell.rjust(w) if k else cell.ljust(w) for k, (cell, w) in enumerate(zip(row, widths)))
                     for row in rows)


def print_markdown(titles: Sequence[str], rows: Iterable[Sequence]) -> None:
    """A Markdown table: the titles, the rule under them, then a line a row as `rows` yields it."""
    print(_markdown_line(titles))
    print("|" + "---|" * len(titles))
    for cells in rows:
        print(_markdown_line(cells))


def _line(cells: Sequence, columns: Sequence[tuple[str, str]]) -> str:
    return " ".join(f"{cell:{spec}}" for cell, (_, spec) in zip(cells, columns, strict=True))


def _markdown_line(cells: Sequence) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"
