"""Fixed-width text tables as the benchmarks print them (bench/forwards.py, bench/kernel.py): a line of column titles,
then a line a row, each cell aligned to its column and the columns one space apart."""
from collections.abc import Iterable, Sequence


def print_table(columns: Sequence[tuple[str, str]], rows: Iterable[Sequence], note: str = "") -> None:
    """`columns`: each a title and its alignment and width as a format spec ("<20", ">9"); `rows`: their cells, each
    already written as it reads (a number with its precision and unit), aligned here; `note`: after the titles."""
    print(_line([title for title, _ in columns], columns) + note)
    for cells in rows:
        print(_line(cells, columns))


def _line(cells: Sequence, columns: Sequence[tuple[str, str]]) -> str:
    return " ".join(f"{cell:{spec}}" for cell, (_, spec) in zip(cells, columns, strict=True))
