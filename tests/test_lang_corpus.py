"""The shipped locate corpora of other languages (synthesis/lang_corpus.py, cases/data/LANG_CORPUS.md): each bug is
one changed line inside its function, the gold parses, every bug is asked about in each of the three ways without
its change said, and development and held-out cases come from different files."""
import random
import re

import pytest

from copy_as_decode.cases.corpora import LANG_CORPORA
from copy_as_decode.cases.heldout import select
from copy_as_decode.core.deletions import hunks
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.syntax_check import new_errors
from copy_as_decode.synthesis import bugs, lang_corpus
from copy_as_decode.synthesis.all_corpora import load


@pytest.fixture(scope="module", params=LANG_CORPORA)
def corpus(request):
    return request.param, load(request.param)


def test_each_bug_is_one_line_inside_its_function(corpus):
    _, cases = corpus
    for case in cases:
        (i1, i2, j1, j2), *more = hunks(case.before, case.after)
        start, end = case.extra["target"]
        assert not more and (i2 - i1, j2 - j1) == (1, 1), case.id
        assert start < i2 <= end, case.id
        # one token: the lines differ in one place, and only there
        old, new = split_lines(case.before)[i1], split_lines(case.after)[j1]
        assert len(re.sub(r"\s+", " ", old).split()) == len(re.sub(r"\s+", " ", new).split()), case.id


def test_gold_parses_and_so_does_the_bug(corpus):
    _, cases = corpus
    for case in cases:
        if case.extra["kind"] != "named":  # the three kinds share before and after
            continue
        assert new_errors(case.before, case.after, case.extra["language"]) == [], case.id
        assert new_errors(case.after, case.before, case.extra["language"]) == [], case.id


def test_three_kinds_that_never_say_the_change(corpus):
    name, cases = corpus
    by_base: dict[str, dict] = {}
    for case in cases:
        by_base.setdefault(case.extra["base"], {})[case.extra["kind"]] = case
        old, new = bugs._changed_words(*[split_lines(t)[hunks(case.before, case.after)[0][0]].strip()
                                        for t in (case.before, case.after)])
        assert f"`{new}`" not in case.instruction and f"`{old}`" not in case.instruction, case.id
    assert len(by_base) >= 8 if name not in ("locate-c", "locate-cpp") else len(by_base) >= 5
    for base, kinds in by_base.items():
        assert set(kinds) == set(lang_corpus.KINDS), base
        function = base.rsplit(":", 1)[1]
        start, end = kinds["cursor"].extra["target"]
        assert start <= kinds["cursor"].extra["at"] <= end, base
        assert "at" not in kinds["named"].extra and "at" not in kinds["symptom"].extra
        assert function in kinds["named"].instruction, base
        bare = re.split(r"\.|::", function)[-1]
        assert not re.search(rf"\b{re.escape(bare)}\b", kinds["symptom"].instruction), base


def test_development_and_heldout_files_apart(corpus):
    name, cases = corpus
    dev, held = select(name, cases, "development"), select(name, cases, "heldout")
    assert dev and held and len(dev) + len(held) == len(cases)
    assert not {c.extra["source"] for c in dev} & {c.extra["source"] for c in held}


def test_sources_recorded(corpus):
    _, cases = corpus
    note = lang_corpus.NOTE.read_text(encoding="utf-8")
    for case in cases:
        assert case.extra["package"] and case.extra["version"] and case.extra["license"], case.id
        assert f"`{case.extra['source']}`" in note
        assert lang_corpus.MIN_LINES <= len(split_lines(case.after)) <= lang_corpus.MAX_LINES


GO = """package p

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v == hi || v > hi {
		return hi - 1
	}
	return v
}
"""


def test_tree_bug_changes_one_token_in_the_lines_it_is_given():
    seen = set()
    for seed in range(20):
        made = bugs.tree_bug(GO, "go", (4, 10), random.Random(seed))
        assert made is not None
        changed, bug = made
        (i1, i2, j1, j2), *more = hunks(GO, changed)
        assert not more and i2 - i1 == 1 and 4 <= bug.line == i2 <= 10
        assert new_errors(GO, changed, "go") == []
        seen.add(bug.kind)
    assert {"boundary", "inverted", "logic", "arithmetic"} <= seen
    assert bugs.tree_bug(GO, "go", (1, 2), random.Random(0)) is None  # no function body there


def test_places_says_whether_the_window_holds_the_target():
    from copy_as_decode.bench.places import place
    from copy_as_decode.cases.corpora import Case
    funcs = "".join(f"func f{k}(v int) int {{\n\tif v < {k} {{\n\t\treturn v\n\t}}\n\treturn {k}\n}}\n\n"
                    for k in range(12))
    text = "package p\n\n" + funcs
    start = 3 + 7 * 5  # f5's lines
    case = Case("c", "locate-go", "Fix `f5`: it is off by one.", text, text,
                {"language": "go", "target": [start, start + 5]})
    assert place(case)[0] == "decided right"
    other = Case("c", "locate-go", "Fix `f7`: it is off by one.", text, text, case.extra)
    assert place(other)[0] == "decided elsewhere"
