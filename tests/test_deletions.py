"""Lines an edit deletes, and the head/tail rule: a finished edit that drops the start or the end of the file
unasked changes nothing (core/deletions.py)."""
import pytest

from copy_as_decode.core.deletions import asks_deletion, deleted_lines, lines_lost, skipped_end

MODULE = ("import os\nimport sys\nfrom pathlib import Path\n\n\n"
          "def first_word(text):\n    return text.split()[0]\n\n\n"
          "def last_word(text):\n    return text.split()[-1]\n")


def test_a_rewrite_from_the_first_function_on_skips_the_imports():
    new = MODULE[MODULE.index("def first_word"):]
    assert skipped_end(MODULE, new) == "head" and deleted_lines(MODULE, new) == 3


def test_a_rewrite_that_stops_before_the_last_function_skips_the_tail():
    new = MODULE[: MODULE.index("def last_word")].replace("first_word", "head_word")
    assert skipped_end(MODULE, new) == "tail" and deleted_lines(MODULE, new) == 2


def test_the_function_alone_skips_both_ends_and_the_head_is_named_first():
    assert skipped_end(MODULE, "def first_word(text):\n    return text.split()[1]\n") == "head"


@pytest.mark.parametrize("new", [
    MODULE.replace("[0]", "[1]"),                                                   # a fix inside
    MODULE.replace("import os\nimport sys\n", "import os, sys\n"),                  # fewer lines, same content
    MODULE.replace("    return text.split()[-1]\n", "    words = text.split()\n    return words[-1]\n"),
    MODULE.replace("    return text.split()[-1]\n", "    return text.rsplit(None, 1)[-1]\n"),  # replaced at the end
    "from pathlib import Path\n" + MODULE.replace("from pathlib import Path\n", ""),  # moved, not lost
])
def test_edits_that_keep_the_ends_are_not_skipping(new):
    assert skipped_end(MODULE, new) is None


def test_lines_lost_count_only_what_the_gold_did_not_delete():
    gold = MODULE.replace("import sys\n", "")
    dropped = MODULE[: MODULE.index("def last_word")]
    assert deleted_lines(MODULE, gold) == 1 and lines_lost(MODULE, gold, gold) == 0
    assert deleted_lines(MODULE, dropped) == 2 and lines_lost(MODULE, dropped, gold) == 1
    assert lines_lost(MODULE, MODULE, gold) == 0  # deleting less than the gold loses nothing


def test_an_instruction_that_asks_for_a_deletion_is_recognised():
    assert asks_deletion("Remove the unused imports.") and asks_deletion("Delete `last_word`.")
    assert not asks_deletion("Fix the bug in first_word.") and not asks_deletion("Rename it to head_word.")


def test_no_gold_edit_of_any_shipped_corpus_drops_a_head_or_tail():
    """The rule's measurement: gold edits of every corpus (HumanEvalFix, prose, the long files) never do it."""
    from copy_as_decode.bench.corpora import load, user_file
    checked = 0
    for name in ("humanevalfix-python", "humanevalfix-js", "text", "long-python", "long-js", "long-text"):
        for case in load(name):
            before, gold = user_file(case)
            assert skipped_end(before, gold) is None, (name, case.id)
            checked += 1
    assert checked == 164 + 164 + 154 + 3 * 45
