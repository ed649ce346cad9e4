"""Offline analysis of `bench edit` results: failure modes, and what a replace-vs-insert repair would give.

The fine-tuned models' most common near miss is an insert where a replace was meant: they write the fixed
line in a gen right after a copy, then resume copying AT the buggy line instead of after it:

    gold:  <copy lines="1-18"/><gen>FIXED 19</gen><copy lines="20-21"/>
    model: <copy lines="1-18"/><gen>FIXED 19</gen><copy lines="19-21"/>

`repair_replacements` rewrites such programs: when a gen directly follows the copy of lines ..i-1 and its
last line is a near duplicate of line i (difflib ratio >= RATIO) while the next copy starts at i, that copy
starts at i+1 instead. It is a heuristic (an intended duplicated-and-edited line would be dropped), measured
here, not applied by the engine.
"""
import difflib
import json
from pathlib import Path

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Copy, Gen, Item, parse
from copy_as_decode.core.resolver import resolve

RATIO = 0.75


def repair_replacements(items: list[Item], lines: list[str], ratio: float = RATIO) -> list[Item]:
    out: list[Item] = []
    last = 0  # last line copied so far
    for k, item in enumerate(items):
        if isinstance(item, Copy):
            prev = items[k - 1] if k else None
            after_copy = k < 2 or isinstance(items[k - 2], Copy)
            if isinstance(prev, Gen) and prev.text and item.start == last + 1 and after_copy:
                gen_last = split_lines(prev.text)[-1]
                if difflib.SequenceMatcher(None, gen_last.strip(), lines[item.start - 1].strip()).ratio() >= ratio:
                    if item.start == item.end:
                        last = item.end
                        continue
                    item = Copy(item.start + 1, item.end)
            last = item.end
        out.append(item)
    return out


def analyse(report_path: Path, corpus: str, run_tests: bool = True) -> dict:
    """Failure modes of one `bench edit` JSON, and exact/passed after repair_replacements."""
    from copy_as_decode.cases.corpora import load, user_file
    from copy_as_decode.cases.functional import passes
    report = json.loads(Path(report_path).read_text())
    cases = {c.id: c for c in load(corpus)}
    out = {"cases": 0, "exact": 0, "unchanged": 0, "hit_cap": 0, "lines_lost": 0, "verbatim_gen": 0,
           "exact_repaired": 0, "passed_repaired": 0}
    for row in report["corpora"][corpus]["cases"]:
        if row["selector"] != "grammar":
            continue
        case = cases[row["id"]]
        document, gold = user_file(case)
        lines = split_lines(document)
        items = parse(row["program"] or "")  # an edit cut off by its budget changed nothing
        out["cases"] += 1
        out["exact"] += row["text"] == gold
        out["unchanged"] += row["text"] == document
        out["hit_cap"] += not row["complete"]
        out["lines_lost"] += len(split_lines(row["text"])) < len(split_lines(gold))
        last = 0
        for item in items:  # a gen that starts by repeating the line after the last copy verbatim
            if isinstance(item, Copy):
                last = item.end
            elif last < len(lines) and item.text.startswith(lines[last]):
                out["verbatim_gen"] += 1
                break
        fixed = resolve(repair_replacements(items, lines), lines)
        out["exact_repaired"] += fixed == gold
        if run_tests:
            out["passed_repaired"] += bool(passes(corpus, fixed, case.extra["test"], case.extra["entry_point"]))
    return out
