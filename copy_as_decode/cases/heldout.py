"""The held-out protocol: which HumanEvalFix cases the methods were developed on, and a fixed held-out sample.

cases/data/development_cases.json names the development cases (and the rule that put them there); every
other case is held out. On a CPU a session scores an evenly spread sample of 48 held-out cases per language;
with a GPU, the whole held-out set.
"""
import json

from .corpora import DATA, Case, load, spread

PATH = DATA / "development_cases.json"
SAMPLE = 48


def development_ids(corpus: str) -> set[str]:
    return set(json.loads(PATH.read_text())["cases"].get(corpus, []))


def split(corpus: str) -> tuple[list[Case], list[Case]]:
    """(development, held out) cases of a HumanEvalFix corpus, in corpus order."""
    cases = load(corpus)
    return select(corpus, cases, "development"), select(corpus, cases, "heldout")


def select(corpus: str, cases: list[Case], which: str) -> list[Case]:
    """`which` of a corpus's cases: all, development or heldout, as PATH names them or, for a corpus whose cases
    say it (`split`: synthesis/lang_corpus.py, by file), as they say."""
    if which == "all":
        return cases
    if cases and all("split" in c.extra for c in cases):
        return [c for c in cases if c.extra["split"] == which]
    named = json.loads(PATH.read_text())["cases"]
    if corpus not in named:
        raise ValueError(f"{corpus} has no development/held-out split (HumanEvalFix corpora have)")
    dev = set(named[corpus])
    return [c for c in cases if (c.id in dev) == (which == "development")]


def heldout_sample(corpus: str, n: int | None = SAMPLE) -> list[Case]:
    """`n` held-out cases spread evenly (first and last included); None: all of them."""
    held = split(corpus)[1]
    return held if n is None else spread(held, n)
