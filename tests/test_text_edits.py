"""Minimal editor edits between two texts, and applying them."""
import time

import pytest
from test_oracle import synthetic

from copy_as_decode.core.text_edits import TextEdit, apply_text_edits, text_edits


def check(old, new):
    edits = text_edits(old, new)
    assert apply_text_edits(old, edits) == new
    return edits


def test_no_change_no_edit():
    assert check("a\nb\n", "a\nb\n") == [] and check("", "") == []


def test_a_changed_word_is_one_small_edit():
    old = "def f(x):\n    return x + 1\n"
    assert check(old, old.replace("+ 1", "+ 2")) == [TextEdit(1, 15, 1, 16, "2")]


def test_separate_hunks_give_separate_sorted_edits():
    old = "".join(f"line {k}\n" for k in range(10))
    new = old.replace("line 2\n", "").replace("line 7", "line seven")
    assert check(old, new) == [TextEdit(2, 0, 3, 0, ""), TextEdit(7, 5, 7, 6, "seven")]


def test_insertion_and_deletion_at_the_ends():
    assert check("a\n", "a\nb\n") == [TextEdit(1, 0, 1, 0, "b\n")]
    assert check("b\n", "a\nb\n") == [TextEdit(0, 0, 0, 0, "a\n")]
    assert check("a\nb", "a\n") == [TextEdit(1, 0, 1, 1, "")]


def test_empty_documents():
    assert check("", "x\ny") == [TextEdit(0, 0, 0, 0, "x\ny")]
    assert check("x\ny", "") == [TextEdit(0, 0, 1, 1, "")]


def test_final_line_without_newline():
    assert check("a\nb", "a\nb\n") == [TextEdit(1, 1, 1, 1, "\n")]
    assert check("a\nb\n", "a\nbc") == [TextEdit(1, 1, 2, 0, "c")]


def test_crlf_is_never_split():
    assert check("a\r\nb\r\n", "a\nb\r\n") == [TextEdit(0, 1, 1, 0, "\n")]
    assert check("x\r\n", "x\r\r\n") == [TextEdit(0, 1, 1, 0, "\r\r\n")]
    assert check("a\r\nb\r\n", "a\r\nc\r\n") == [TextEdit(1, 0, 1, 1, "c")]


def test_columns_count_code_points():
    assert check("é😀 = 1\n", "é😀 = 2\n") == [TextEdit(0, 5, 0, 6, "2")]


def test_apply_refuses_bad_edits():
    with pytest.raises(ValueError, match="overlaps"):
        apply_text_edits("abc\n", [TextEdit(0, 0, 0, 2, "x"), TextEdit(0, 1, 0, 3, "y")])
    with pytest.raises(ValueError, match="line 2"):
        apply_text_edits("abc\n", [TextEdit(2, 0, 2, 0, "x")])
    with pytest.raises(ValueError, match="past the end"):
        apply_text_edits("abc\nd", [TextEdit(0, 4, 0, 4, "x")])
    with pytest.raises(ValueError, match="ends before"):
        apply_text_edits("abc\n", [TextEdit(0, 2, 0, 1, "x")])


def test_apply_sorts_edits():
    edits = [TextEdit(1, 0, 1, 1, "B"), TextEdit(0, 0, 0, 1, "A")]
    assert apply_text_edits("a\nb\n", edits) == "A\nB\n"


def test_large_document_with_scattered_changes_is_fast():
    old, new = synthetic(100_000, 20, seed=5)
    t = time.perf_counter()
    edits = text_edits(old, new)
    elapsed = time.perf_counter() - t
    assert apply_text_edits(old, edits) == new
    assert len(edits) <= 20 and elapsed < 2.0  # ~0.25 s measured
