"""The locate corpora (synthesis/locate_corpus.py) and what core/windows.py makes of them without a model: each
one-function bug asked four ways, the function alone put back into its file, and changed lines counted
outside the target."""
import pytest

from copy_as_decode.bench import edit_bench
from copy_as_decode.core import windows
from copy_as_decode.core.deletions import hunks
from copy_as_decode.synthesis import locate_corpus
from copy_as_decode.synthesis.all_corpora import load


@pytest.fixture(scope="module", params=["locate-python", "locate-js"])
def cases(request):
    return load(request.param)


def test_each_bug_is_asked_four_ways_and_the_fix_lies_in_its_target(cases):
    bases = {c.extra["base"] for c in cases}
    assert len(cases) == 4 * len(bases) >= 4 * 16
    for c in cases:
        start, end = c.extra["target"]
        i1, i2, _, _ = hunks(c.before, c.after)[0]
        assert start <= max(i1, 1) <= end and c.extra["bucket"] >= locate_corpus.MIN_BUCKET
    by_kind = {k: [c for c in cases if c.extra["kind"] == k] for k in locate_corpus.KINDS}
    from copy_as_decode.core.outline import outline
    for c in by_kind["c"] + by_kind["d"]:  # names nothing the outline holds
        names = {s.name for s in outline(c.before, c.extra["language"])[1]}
        assert not [m for m in windows.mentions(c.instruction) if m.strong and m.name in names], c.instruction
    assert all("at" in c.extra for c in by_kind["d"]) and not any("at" in c.extra for c in by_kind["c"])
    assert all(c.extra["helper"] in c.instruction for c in by_kind["b"])


def test_the_windows_find_the_target_as_measured(cases):
    """Where the windows land without a model (each kind; c counts the target among the model's candidates)."""
    found = {k: 0 for k in locate_corpus.KINDS}
    for c in cases:
        plan = windows.find(c.before, c.instruction, at=c.extra.get("at"), language=c.extra["language"])
        start, end = c.extra["target"]
        inside = any(w.start <= start and end <= w.end for w in plan.windows)
        offered = any(s.start <= start and end <= s.end for s in plan.candidates)
        found[c.extra["kind"]] += inside or offered
    n = len(cases) // 4
    assert found["a"] == found["b"] == found["d"] == n  # named (or one of a name's definitions) and the cursor
    assert found["c"] >= n - 4  # by search: bare operators (`!=` should be `==`) in a 3,000-line file may miss


def test_a_function_alone_goes_back_into_its_file(cases):
    alone = locate_corpus.alone(cases)
    assert [a.id for a in alone] == [c.id for c in cases] and {a.corpus for a in alone} == {locate_corpus.ALONE}
    assert [a.instruction for a in alone] == [c.instruction for c in cases] and not any("at" in a.extra for a in alone)
    for a in alone[:6]:
        assert locate_corpus.within(a, a.before) == a.extra["within"]["before"]
        assert locate_corpus.within(a, a.after) == a.extra["within"]["after"]
        assert not a.before.startswith((" ", "\t"))  # dedented, as a user's selection is edited


def test_changed_lines_outside_the_target_are_counted():
    case = next(c for c in load("locate-python") if c.extra["kind"] == "a")
    start, end = case.extra["target"]
    lines = case.before.splitlines(True)
    assert locate_corpus.unasked_lines(case, case.before, case.after) == 0
    outside = 1 if start > 2 else end + 2
    changed = lines[:outside - 1] + ["# changed\n"] + lines[outside:]
    assert locate_corpus.unasked_lines(case, case.before, "".join(changed)) == 1
    inserted = lines[:outside] + ["x = 1\n", "y = 2\n"] + lines[outside:]
    assert locate_corpus.unasked_lines(case, case.before, "".join(inserted)) == 2


def test_the_locate_table_pairs_each_kind_with_the_function_alone_and_the_peer():
    def row(case_id, selector, seconds, exact=True, windows="1-9 (f)", unasked=0):
        return {"id": case_id, "selector": selector, "seconds": seconds, "exact": exact, "passed": None,
                "lines_lost": 0, "unasked": unasked, "windows": windows}
    report = {"corpora": {
        "locate-python": {"cases": [row("b1/a", "auto", 4.0), row("b1/c", "auto", 9.0, False, "whole file: x", 3),
                                    row("b2/a", "auto", 6.0)]},
        edit_bench.LOCATE_ALONE: {"cases": [row("b1/a", "auto", 2.0), row("b2/a", "auto", 3.0), row("b1/c", "auto", 2.0),
                                            row("b1/a", edit_bench.NGRAM, 4.0), row("b2/a", edit_bench.NGRAM, 3.0)]}}}
    got = edit_bench.locate_summary(report)["locate-python"]["auto"]
    assert got["a"]["median_vs_alone"] == 2.0 and got["a"]["geomean_vs_ngram"] == pytest.approx((1.0 * 2.0) ** 0.5)
    assert got["c"] == dict(got["c"], cases=1, exact=0, unasked=3, whole_file=1, median_vs_alone=4.5)
    assert got["a"]["ngram_exact"] == 2 and got["a"]["alone_exact"] == 2


def test_a_spread_keeps_all_four_kinds_of_each_bug_it_takes(cases):
    picked = locate_corpus.spread_bases(cases, 3)
    bases = {c.extra["base"] for c in picked}
    assert len(bases) == 3 and len(picked) == 12 and cases[0].extra["base"] in bases
