"""The resolver rebuilds the edited document byte for byte, and refuses programs that do not fit it."""
import pytest

from copy_as_decode.core.program import Copy, CopySpan, Gen
from copy_as_decode.core.resolver import ResolveError, resolve

DOC = "def f(x):\r\n    return x\r\n\r\n# é 😀\nlast"  # CRLF, a lone LF, non-ASCII, no final newline


def test_copies_keep_line_endings_byte_exactly():
    assert resolve('<copy lines="1-5"/>', DOC) == DOC
    assert resolve([Copy(2, 2), Copy(5, 5)], DOC) == "    return x\r\nlast"
    assert resolve('<copy lines="4-4"/><gen>\n</gen>', DOC) == "# é 😀\n\n"


def test_gens_and_copies_interleave():
    program = '<copy lines="1-1"/>\n<gen>    return x + 1\r\n</gen>\n<copy lines="3-5"/>'
    assert resolve(program, DOC) == DOC.replace("return x\r", "return x + 1\r")


def test_empty_program_and_empty_document():
    assert resolve("", DOC) == ""
    assert resolve("<gen>new\n</gen>", "") == "new\n"


def test_document_may_be_given_as_lines():
    assert resolve([Copy(1, 2)], ["a\n", "b"]) == "a\nb"


@pytest.mark.parametrize("span, text", [
    (CopySpan(1, 4, 1, 8), "f(x)"),
    (CopySpan(1, 0, 1, 11), "def f(x):\r\n"),  # column B may reach past the line ending
    (CopySpan(2, 11, 4, 2), "x\r\n\r\n# "),
    (CopySpan(4, 2, 4, 5), "é 😀"),  # columns are code points
    (CopySpan(5, 4, 5, 4), ""),
])
def test_span_copies(span, text):
    assert resolve([span], DOC) == text


@pytest.mark.parametrize("items, message", [
    ([Copy(0, 1)], "outside 1-5"),
    ([Copy(5, 6)], "outside 1-5"),
    ([Copy(3, 2)], "inverted"),
    ([Copy(1, 3), Copy(3, 4)], "overlap"),
    ([Copy(4, 5), Gen("x"), Copy(1, 2)], "precede"),
    ([CopySpan(6, 0, 6, 0)], "outside"),
    ([CopySpan(2, 5, 2, 4)], "inverted"),
    ([CopySpan(5, 0, 5, 5)], "past the end"),
])
def test_programs_that_do_not_fit_are_refused(items, message):
    with pytest.raises(ResolveError, match=message):
        resolve(items, DOC)


def test_order_check_can_be_switched_off():
    assert resolve([Copy(5, 5), Gen("\n"), Copy(1, 1)], DOC, monotone=False) == "last\ndef f(x):\r\n"


def test_syntax_errors_surface_from_string_programs():
    with pytest.raises(ValueError, match="expected"):
        resolve('<copy lines="1-2">', DOC)


METHOD = "class A:\n    def f(self):\n        return 1\n\n\tif x:\n   y\n"


@pytest.mark.parametrize("item, text", [
    (Copy(2, 3, -4), "def f(self):\n    return 1\n"),  # out of its class
    (Copy(2, 4, 4), "        def f(self):\n            return 1\n\n"),  # a blank line stays blank
    (Copy(5, 6, -2), "if x:\n y\n"),  # a tab is one column; a line with less indent loses all it has
    (Copy(1, 1, 0), "class A:\n"),
    (Copy(4, 4, -8), "\n"),
])
def test_moved_copies_shift_each_line(item, text):
    assert resolve([item], METHOD) == text


def test_moved_copies_take_any_lines_and_leave_the_order_where_it_was():
    items = [Copy(1, 1), Copy(5, 6, 0), Copy(2, 3, -4), Copy(2, 4)]  # the in-order copy 2-4 follows 1-1
    assert resolve(items, METHOD) == "class A:\n\tif x:\n   y\ndef f(self):\n    return 1\n" + \
        "    def f(self):\n        return 1\n\n"
    with pytest.raises(ResolveError, match="outside 1-6"):
        resolve([Copy(6, 7, 0)], METHOD)
    with pytest.raises(ResolveError, match="inverted"):
        resolve([Copy(3, 2, -4)], METHOD)
