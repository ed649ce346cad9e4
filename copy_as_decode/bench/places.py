"""Where core/windows.py puts each case of the locate corpora, without a model: the place it decides (the function
that holds the fix, or another), or the candidates it leaves to the model and the user (the target first, further
down, or not among them), counted per corpus, split and instruction kind; with --misses, each case that was not
decided right, with the reason windows.find gives.

    copy-as-decode bench places [--corpora NAME ...] [--cases all|development|heldout] [--misses]
"""
import argparse
from collections import Counter

OUTCOMES = ("decided right", "decided elsewhere", "asked, target first", "asked, target lower", "asked, target absent",
            "whole file")


def place(case) -> tuple[str, str]:
    """(outcome, windows.find's reason) for one case: where its instruction and cursor put the edit."""
    from copy_as_decode.core import windows
    start, end = case.extra["target"]
    plan = windows.find(case.before, case.instruction, language=case.extra["language"], at=case.extra.get("at"))
    if plan.windows:
        holds = any(w.start <= start and end <= w.end for w in plan.windows)
        return ("decided right" if holds else "decided elsewhere"), plan.reason
    at = next((k for k, s in enumerate(plan.candidates) if s.start <= start and end <= s.end), None)
    if not plan.candidates:
        return "whole file", plan.reason
    return ("asked, target first" if at == 0 else "asked, target absent" if at is None else
            "asked, target lower"), plan.reason


def add_arguments(ap: argparse.ArgumentParser) -> None:
    from copy_as_decode.cases.corpora import LANG_CORPORA
    ap.add_argument("--corpora", nargs="+", default=list(LANG_CORPORA))
    ap.add_argument("--cases", choices=("all", "development", "heldout"), default="all")
    ap.add_argument("--misses", action="store_true", help="also list each case not decided right, and why")


def run(args: argparse.Namespace) -> int:
    from copy_as_decode.bench.columns import print_markdown
    misses: list[str] = []
    print_markdown(("corpus", "kind", "cases", *OUTCOMES), _rows(args, misses))
    if args.misses:
        print("\n" + "\n".join(misses))
    return 0


def _rows(args: argparse.Namespace, misses: list[str]):
    """A row per corpus and instruction kind, each corpus's once its cases are placed; the cases not decided right
    go to `misses`."""
    from copy_as_decode.cases.heldout import select
    from copy_as_decode.synthesis.all_corpora import load
    for name in args.corpora:
        counts: dict[str, Counter] = {}
        for case in select(name, load(name), args.cases):
            outcome, why = place(case)
            counts.setdefault(case.extra["kind"], Counter())[outcome] += 1
            if outcome != "decided right":
                misses.append(f"{name} {case.id} (target {case.extra['target'][0]}-{case.extra['target'][1]}"
                              f"{', at ' + str(case.extra['at']) if 'at' in case.extra else ''}): {outcome}: {why}")
        for kind, c in counts.items():
            yield (name, kind, sum(c.values()), *(c[o] for o in OUTCOMES))
