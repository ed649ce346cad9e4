"""SEARCH/REPLACE blocks and unified diffs written from gold edits apply back, with the usual matching rules."""
import difflib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from copy_as_decode.bench.formats import (
    DIVIDER,
    FORMATS,
    HEAD,
    UPDATED,
    FormatError,
    apply_search_replace,
    apply_udiff,
    has_marker_line,
    parse_search_replace,
    to_search_replace,
    to_udiff,
)
from copy_as_decode.cases import corpora
from copy_as_decode.core.document import split_lines


@pytest.fixture(scope="module")
def cases():
    names = corpora.CORPORA
    if not (corpora.humanevalpack_dir() / "humanevalpack_python.jsonl").is_file():
        names = ("text",)
    return [c for name in names for c in corpora.load(name)]


def failures(cases, fmt):
    render, apply = FORMATS[fmt]
    out = set()
    for c in cases:
        try:
            if apply(c.before, render(c.before, c.after)) != c.after:
                out.add(c.id)
        except FormatError:
            out.add(c.id)
    return out


def test_udiff_round_trips_every_gold_edit(cases):
    assert failures(cases, "udiff") == set()


def test_search_replace_fails_only_where_the_format_cannot_say_it(cases):
    # Aider's applier gives a file without a final newline one, and a content line "=======" ends a section.
    explained = {c.id for c in cases if not c.after.endswith("\n") or has_marker_line(c.before + c.after)}
    assert failures(cases, "search_replace") == explained
    assert len(explained) == 4  # three notes without a final newline, one reST heading underlined "======="


def test_udiff_matches_difflib(cases):
    for c in cases:
        if c.before.endswith("\n") and c.after.endswith("\n"):
            want = "".join(difflib.unified_diff(split_lines(c.before), split_lines(c.after), "a/doc", "b/doc"))
            assert to_udiff(c.before, c.after) == want, c.id


def test_udiff_marks_a_missing_final_newline():
    diff = to_udiff("a\nb", "a\nc")
    assert diff.endswith("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n")
    assert apply_udiff("a\nb", diff) == "a\nc"


def test_udiff_tolerates_wrong_line_numbers_like_patch():
    before = "".join(f"line {k}\n" for k in range(40))
    after = before.replace("line 30\n", "line thirty\n").replace("line 5\n", "")
    diff = to_udiff(before, after)
    wrong = diff.replace("@@ -3,7 +3,6 @@", "@@ -9,7 +9,6 @@").replace("@@ -28,7 +27,7 @@", "@@ -1,7 +1,7 @@")
    assert wrong != diff
    assert apply_udiff(before, wrong) == after
    # context lines that are not in the file do not apply anywhere
    with pytest.raises(FormatError, match="context not found"):
        apply_udiff(before.replace("line 29\n", "line 29b\n"), diff)


def test_udiff_picks_the_match_nearest_the_stated_line():
    before = "x\n" * 20
    after = "x\n" * 12 + "y\n" + "x\n" * 8
    assert apply_udiff(before, to_udiff(before, after)) == after


def test_search_replace_uses_minimal_context_and_first_occurrence():
    before = "a\nb\nc\nunique\nd\n"
    blocks = parse_search_replace(to_search_replace(before, before.replace("unique", "UNIQUE")))
    assert blocks == [(["unique\n"], ["UNIQUE\n"])]
    # a repeated line needs context, one line more on each side until it is the first match
    rep = "x = 1\nreturn x\n\nx = 1\nreturn y\n"
    text = to_search_replace(rep, rep.replace("x = 1\nreturn y", "x = 2\nreturn y"))
    [(search, replace)] = parse_search_replace(text)
    assert (search, replace) == (["\n", "x = 1\n", "return y\n"], ["\n", "x = 2\n", "return y\n"])
    assert apply_search_replace(rep, text) == "x = 1\nreturn x\n\nx = 2\nreturn y\n"
    # the applier itself replaces the first occurrence only
    first_only = f"{HEAD}\nx = 1\n{DIVIDER}\nx = 2\n{UPDATED}\n"
    assert apply_search_replace(rep, first_only) == "x = 2\nreturn x\n\nx = 1\nreturn y\n"


def test_search_replace_errors():
    with pytest.raises(FormatError, match="not found"):
        apply_search_replace("a\n", f"{HEAD}\nzzz\n{DIVIDER}\nb\n{UPDATED}\n")
    with pytest.raises(FormatError, match="missing"):
        apply_search_replace("a\n", f"{HEAD}\na\n{DIVIDER}\nb\n")


def test_empty_files():
    for render, apply in FORMATS.values():
        assert apply("", render("", "new\n")) == "new\n"
        assert apply("old\n", render("old\n", "")) == ""


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "\n", "def f():\n", "    return 1\n"]), max_size=25)


@given(lines, lines)
def test_both_formats_round_trip_random_line_edits(a, b):
    before, after = "".join(a), "".join(b)
    for render, apply in FORMATS.values():
        assert apply(before, render(before, after)) == after


@given(lines, lines, st.sampled_from(["", "end", "a"]), st.sampled_from(["", "end", "b"]))
def test_udiff_round_trips_files_without_a_final_newline(a, b, tail_a, tail_b):
    before, after = "".join(a) + tail_a, "".join(b) + tail_b
    assert apply_udiff(before, to_udiff(before, after)) == after
