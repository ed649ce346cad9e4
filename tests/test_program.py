"""The program language: parser, error reports, canonical printer."""
import pytest

from copy_as_decode.core.program import (
    Copy,
    CopySpan,
    Gen,
    ProgramSyntaxError,
    format_item,
    format_program,
    next_item,
    parse,
)


def test_parse_every_item_kind_with_blanks_between():
    src = '<copy lines="1-3"/>\n  <gen>x = 1\n</gen><copy from="4:2" to="5:0"/>\r\n\n<gen></gen>'
    assert parse(src) == [Copy(1, 3), Gen("x = 1\n"), CopySpan(4, 2, 5, 0), Gen("")]


def test_gen_body_is_verbatim_up_to_the_first_close():
    assert parse("<gen> <copy lines=\"1-2\"/>\r\n\t</gen>") == [Gen(' <copy lines="1-2"/>\r\n\t')]
    assert parse("<gen>a</gen><gen>b</gen>") == [Gen("a"), Gen("b")]


def test_empty_program_is_empty():
    assert parse("") == [] and parse(" \n\n") == []


@pytest.mark.parametrize("src, offset, line, column, expected", [
    ("<gen>abc", 8, 1, 9, "</gen>"),
    ('<copy lines="1-"/>', 0, 1, 1, '<copy lines="I-J"/>'),
    ('<gen>a</gen>\n  <copy lines="01-2"/>', 15, 2, 3, "leading zeros"),
    ('<copy lines="1-2"/>\nhello', 20, 2, 1, '"<copy" or "<gen>"'),
    ("<copy from=\"1:2\" to=\"3\"/>", 0, 1, 1, '<copy from="I:A" to="J:B"/>'),
])
def test_syntax_errors_say_where_and_what_was_expected(src, offset, line, column, expected):
    with pytest.raises(ProgramSyntaxError) as err:
        parse(src)
    e = err.value
    assert (e.offset, e.line, e.column) == (offset, line, column)
    assert expected in e.expected
    assert f"line {line}, column {column}" in str(e)


def test_printer_round_trips():
    items = [Copy(1, 1), Gen("  if x:\n"), CopySpan(2, 0, 2, 7), Gen(""), Copy(3, 120)]
    assert parse(format_program(items)) == items
    assert parse(format_program(items, sep="")) == items
    assert format_program([Copy(2, 5), Gen("y\n")]) == '<copy lines="2-5"/>\n<gen>y\n</gen>'
    assert format_program([Copy(2, 5), Gen("y\n")], sep="") == '<copy lines="2-5"/><gen>y\n</gen>'


def test_printer_splits_gen_text_that_contains_the_close_tag():
    text = "x = '</gen>' + '</gen></gen>'\n"
    printed = format_item(Gen(text))
    gens = parse(printed)
    assert len(gens) == 4 and all(isinstance(g, Gen) for g in gens)
    assert "".join(g.text for g in gens) == text


def test_moved_copies_parse_print_and_report_errors():
    src = '<copy lines="2-3" indent="-4"/><copy lines="1-1" indent="+8"/>\n<copy lines="4-4" indent="0"/>'
    items = parse(src)
    assert items == [Copy(2, 3, -4), Copy(1, 1, 8), Copy(4, 4, 0)] and [i.moved for i in items] == [True] * 3
    assert format_program(items, sep="") == src.replace("\n", "") and not Copy(1, 2).moved
    for bad in ('<copy lines="1-2" indent="04"/>', '<copy lines="1-2" indent="-04"/>', '<copy lines="1-2" indent="4"/>',
                '<copy lines="1-2" indent=""/>'):
        with pytest.raises(ProgramSyntaxError, match="indent"):
            parse(bad)
    assert next_item('<copy lines="1-2" indent="-') == (None, 0)  # unfinished, not wrong: the tracker waits
