"""`bench edit`'s silent wrong (bench/silent_wrong.py): a written result that a checkable fact shows wrong."""
from copy_as_decode.bench.silent_wrong import missing, reasons

DOC = "def f(x):\n    y = x + 1\n    return y\n\n\ndef g(x):\n    return x * 2\n"
GOLD = DOC.replace("x + 1", "x + 2")
DONE = {"complete": True}


def test_nothing_written_is_never_silent_wrong_and_the_gold_is_never_wrong():
    assert reasons(DOC, DOC, GOLD, "python", DONE) is None  # unchanged: nothing written
    assert reasons(DOC, DOC.replace("2", "3"), GOLD, "python", {"complete": False}) is None  # refused
    assert reasons(DOC, GOLD, GOLD, "python", dict(DONE, passed=True)) == []


def test_each_checkable_fact_is_a_reason():
    assert reasons(DOC, DOC.replace("y = x + 1", "y = x + 2 +"), GOLD, "python", DONE) == ["parse"]
    other = DOC.replace("x * 2", "x * 3")  # the gold's place untouched, another changed
    assert reasons(DOC, other, GOLD, "python", dict(DONE, unasked=1, passed=False)) == ["outside", "missing", "tests"]
    no_g = GOLD.replace("\n\ndef g(x):\n    return x * 2\n", "")
    assert reasons(DOC, no_g, GOLD, "python", dict(DONE, lines_lost=2)) == ["lost"]
    assert reasons(DOC, DOC.replace("x + 1", "1 + x + 1"), GOLD, "python", DONE) == []  # another fix, in the place


def test_an_insertion_is_missing_only_where_nothing_is_written_beside_its_place():
    gold = DOC.replace("    return y\n", "    y += 1\n    return y\n")
    assert not missing(DOC, DOC.replace("    return y\n", "    y = y + 1\n    return y\n"), gold)
    assert missing(DOC, DOC.replace("x * 2", "x * 3"), gold)
