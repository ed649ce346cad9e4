"""Lines an edit deletes, and the rule that a finished edit that drops a run of lines unasked (at the start,
the end, or anywhere between) changes nothing (core/deletions.py)."""
import pytest

from copy_as_decode.core.deletions import DROP_EXCESS, asks_deletion, deleted_lines, drops, lines_lost, unasked


def skipped_end(old, new):
    """Where the first drop at an end of the document is, or None."""
    return next((d.where for d in drops(old, new) if d.where != "middle"), None)

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


BIG = "".join(f"def f{k}(x):\n" + "".join(f"    x = x + {k * 100 + j}\n" for j in range(12)) + "    return x\n\n\n"
              for k in range(4))


def test_a_function_replaced_by_a_call_in_the_middle_is_a_drop_that_names_its_lines():
    body = "".join(f"    x = x + {100 + j}\n" for j in range(12))
    new = BIG.replace(body, "    x = helper(x)\n")
    [d] = drops(BIG, new)
    assert (d.first, d.last, d.lost, d.where) == (18, 29, 11, "middle")
    assert d.describe() == "lines 18-29 (11 non-blank lines not kept elsewhere)"
    assert d.describe(100, "window") == "lines 118-129 (11 non-blank lines not kept elsewhere)"
    assert unasked(BIG, new, "Fix f1: it must add the offsets") == [d]
    assert unasked(BIG, new, "Simplify f1 into a call to helper") == []


def test_a_line_kept_by_chance_does_not_split_a_drop():
    body = "".join(f"    x = x + {100 + j}\n" for j in range(12))
    new = BIG.replace(body, "    y = helper(x)\n" + body.splitlines(True)[6] + "    z = 2\n")
    assert [d.lost for d in drops(BIG, new)] == [11 - 2]


def test_small_deletions_and_moves_in_the_middle_are_not_drops():
    body = "".join(f"    x = x + {100 + j}\n" for j in range(12))
    fewer = "".join(f"    x = x + {100 + j}\n" for j in range(DROP_EXCESS - 1, 12))
    assert drops(BIG, BIG.replace(body, fewer)) == []  # DROP_EXCESS - 1 lines gone
    f1 = BIG[BIG.index("def f1"):BIG.index("def f2")]
    moved = BIG.replace(f1, "") + f1
    assert drops(BIG, moved) == []


def test_no_gold_edit_of_any_shipped_corpus_drops_lines():
    """The rule's measurement: gold edits of every corpus (HumanEvalFix, prose, the long files) never drop a
    run of lines, wherever it is, whether or not their instruction asks for a deletion."""
    from copy_as_decode.bench.corpora import load, user_file
    checked = 0
    for name in ("humanevalfix-python", "humanevalfix-js", "text", "long-python", "long-js", "long-text"):
        for case in load(name):
            before, gold = user_file(case)
            assert drops(before, gold) == [], (name, case.id)
            checked += 1
    assert checked == 164 + 164 + 154 + 3 * 45


def test_a_class_rewritten_as_its_methods_bodies_drops_what_it_does_not_write_again():
    """Lines written in a block's place count only when new: dedented method bodies replace nothing."""
    body = "".join(f"        x{k} = compute({k})\n" for k in range(6))
    old = ("import os\n\n\nclass Formatter(Base):\n    \"\"\"Formats.\"\"\"\n\n    styles = {\n        \"a\": 1,\n"
           "        \"b\": 2,\n        \"c\": 3,\n    }\n\n    def __init__(self, *args):\n        super().__init__()\n\n"
           "    def first(self, option):\n" + body + "        return x0\n\n    def second(self, heading):\n" + body +
           "        return x1\n")
    new = "import os\n\n\n" + "def first(option):\n" + body.replace("        ", "    ") + "    return x0\n"
    assert [(d.first, d.last) for d in drops(old, new)] == [(4, 32)]  # through the class's last line
