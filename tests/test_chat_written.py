"""cases/chat_written.py: the written-answer corpus loads whole, in every language, split by file."""
import pytest

from copy_as_decode.cases.chat_written import DEVELOPMENT, load, patched
from copy_as_decode.core.syntax_check import new_errors


def test_every_answer_has_its_expected_file_and_the_split_is_by_file():
    cases = load()
    assert len({c["language"] for c in cases}) >= 14 and len({c["source"] for c in cases}) >= 20
    assert {c["source"] for c in cases if c["development"]} == set(DEVELOPMENT)
    for c in cases:
        assert c["after"] != c["before"] and c["block"].strip() and c["request"].strip()
    # every expected file builds with its compiler; tree-sitter misreads one C function behind macros
    misread = [c["id"] for c in cases if new_errors(c["before"], c["after"], c["language"])]
    assert misread == ["c-ujson-decoder/3"]


def test_a_diff_is_applied_exactly_or_refused():
    text = "a\nb\nc\nd\n"
    assert patched(text, "--- o\n+++ e\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n") == "a\nb\nC\nd\n"
    assert patched(text, "--- o\n+++ e\n@@ -0,0 +1 @@\n+z\n") == "z\n" + text
    with pytest.raises(ValueError):
        patched(text, "--- o\n+++ e\n@@ -2,2 +2,2 @@\n x\n-c\n+C\n")
