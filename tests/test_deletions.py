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
    # "cut off" tells a symptom (a truncated value), not a wish to delete: the tail a rewrite drops is still refused
    assert asks_deletion("Cut the debug print.") and not asks_deletion("The closing brace is cut off; fix it.")


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
    from copy_as_decode.cases.corpora import load, user_file
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


FUNCTION = '''def price(order, customer):
    total = sum(item.cost for item in order.items)
    if total < 100:
        total += SHIPPING
    # loyal customers get their discount on every order,
    # whatever its size
    if customer.loyal:
        total *= 0.9
        log_discount(customer)
    return total
'''


def test_a_statement_dropped_beside_a_fix_is_named_though_the_lines_are_few():
    """The fix asked for, and a four-line `if` block (with its comment) gone too: too few lines for the line
    rule, a dropped statement for the statement rule (core/statements.py)."""
    new = FUNCTION.replace("total < 100", "total <= 100").replace(
        FUNCTION[FUNCTION.index("    # loyal"):FUNCTION.index("    return")], "")
    assert drops(FUNCTION, new) == []
    [d] = unasked(FUNCTION, new, "Orders of exactly 100 must pay shipping too: fix the comparison.", "python")
    assert (d.first, d.last, d.where, d.kind) == (7, 9, "statement", "If")
    assert d.describe() == "lines 7-9 (a statement, `If`, neither kept nor changed)"
    assert unasked(FUNCTION, new, "Fix the comparison.", None) == []  # no parser, no statement rule
    inner = FUNCTION.replace("        log_discount(customer)\n", "")  # one call inside the block
    assert [(d.first, d.kind) for d in unasked(FUNCTION, inner, "Make the discount 15%.", "python")] == [(9, "Expr")]


def test_a_javascript_statement_dropped_beside_a_fix_is_named():
    old = ("function price(order, customer) {\n  let total = order.total;\n  if (total < 100) {\n    total += SHIPPING;\n"
           "  }\n  if (customer.loyal) {\n    total *= 0.9;\n  }\n  return total;\n}\n")
    new = old.replace("total < 100", "total <= 100").replace("  if (customer.loyal) {\n    total *= 0.9;\n  }\n", "")
    [d] = unasked(old, new, "Fix the comparison.", "javascript")
    assert (d.first, d.last, d.kind) == (6, 8, "if_statement")


@pytest.mark.parametrize("new", [
    FUNCTION.replace("total < 100", "total <= 100"),                                           # the fix alone
    FUNCTION.replace("    if customer.loyal:\n        total *= 0.9\n",
                     "    if customer.loyal and total > 0:\n        total = total * 0.9\n"),      # both changed
    FUNCTION.replace("    if total < 100:\n        total += SHIPPING\n",
                     "    total += SHIPPING if total < 100 else 0\n"),                        # another kind, in place
    FUNCTION.replace("    return total\n", "    return round(total, 2)\n"),
    "import math\n\n\n" + FUNCTION,                                                            # an addition
])
def test_statements_changed_in_place_are_not_dropped(new):
    assert unasked(FUNCTION, new, "Round the total.", "python") == []


def test_statements_merged_or_moved_are_not_dropped():
    old = "def ints(values):\n    out = [x for x in values if isinstance(x, int)]\n    return out\n"
    assert unasked(old, "def ints(values):\n    return [x for x in values if isinstance(x, int)]\n",
                   "Return the list directly.", "python") == []
    cls = "class A:\n    def f(self):\n        return 1\n\n    def g(self, x):\n        y = x + 1\n        return self.f() + y\n"
    moved = "class A:\n    def f(self):\n        return 1\n\n\ndef g(a, x):\n    y = x + 1\n    return a.f() + y\n"
    assert unasked(cls, moved, "Move `g` out of the class.", "python") == []


def test_an_open_fix_may_take_out_a_statement_and_a_named_one_asks_for_a_deletion():
    """An instruction that says only "fix the bugs" leaves the fix open (an extra statement may be the bug); one
    that says a statement should not be there asks for its deletion."""
    new = FUNCTION.replace("        log_discount(customer)\n", "")
    assert unasked(FUNCTION, new, "Fix bugs in price.", "python") == []
    assert unasked(FUNCTION, new, "Fix the bug in `price`: `log_discount(customer)` should not be there.", "python") == []
    assert unasked(FUNCTION, new, "Fix the bug in price: the discount must be 15%.", "python") != []


def test_no_gold_edit_of_a_code_corpus_drops_a_statement_unasked():
    """The statement rule's measurement: gold edits of every shipped code corpus drop no statement that their
    instruction does not ask to delete. The only gold edits that drop one at all answer an open "Fix bugs in
    f." (HumanEvalFix's excess-logic bugs) or say the statement "should not be there"."""
    from copy_as_decode.cases.corpora import user_file
    from copy_as_decode.core.statements import dropped
    from copy_as_decode.synthesis.all_corpora import load
    languages = {"humanevalfix-python": "python", "humanevalfix-js": "javascript"}
    checked, dropping = 0, 0
    for name in ("humanevalfix-python", "humanevalfix-js", "long-python", "long-js", "move-method", "add-parameter"):
        for case in load(name):
            before, gold = user_file(case)
            language = case.extra.get("language") or languages[name]
            assert unasked(before, gold, case.instruction, language) == [], (name, case.id)
            dropping += bool(dropped(before, gold, language))
            checked += 1
    assert checked == 164 + 164 + 45 + 45 + 24 + 16 and dropping > 0
