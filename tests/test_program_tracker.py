"""One reader of program text: engine/decoding/tracker.py completes exactly the items core/program.py's `parse` reads,
whatever pieces the text arrives in, and both refuse what the grammars refuse (leading zeros)."""
import random

import pytest

from copy_as_decode.core import gbnf
from copy_as_decode.core.program import Copy, CopySpan, Gen, ProgramSyntaxError, copy_start, parse
from copy_as_decode.engine.decoding.text_stream import TextStream
from copy_as_decode.engine.decoding.tracker import ProgramTracker

PROGRAMS = [
    '<copy lines="1-3"/>\n  <gen>x = 1\n</gen><copy from="4:2" to="5:0"/>\r\n\n<gen></gen>',
    '<gen><br class="a"/>\n<copy lines="1-2"/></gen><copy lines="10-120"/><gen>a</ge <gen</gen>',
    '<copy lines="0-0"/>',  # 0 is a number (a column); as a line the resolver refuses it
    "",
    " \n\t",
]
# (text, how many items complete before the first error)
INVALID = [
    ('<copy lines="01-2"/>', 0),  # leading zeros, refused by the grammars too
    ('<gen>a</gen><copy lines="1-02"/><gen>b</gen>', 1),
    ('<copy lines="1-2"/> hello', 1),
    ('<copy lines="1-2"/><copy from="1:2" to="3"/>', 1),
]
# (an unfinished program, an end for it)
UNFINISHED = [("<gen>unclosed", "</gen>"), ('<gen>a</gen><copy lines="1-', '2"/>'), ("<ge", "n></gen>"),
              ('<copy from="1:2" to="3', ':0"/>')]


def feed(pieces) -> ProgramTracker:
    t = ProgramTracker()
    assert [item for piece in pieces for item in t.feed(piece)] == t.items
    return t


def random_pieces(text: str, rng: random.Random) -> list[str]:
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(1, 6)))) if len(text) > 1 else []
    return [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]


@pytest.mark.parametrize("src", PROGRAMS)
def test_the_tracker_reads_what_parse_reads_in_any_pieces(src):
    items = parse(src)
    assert feed([src]).items == items
    assert feed(list(src)).items == items  # a character at a time: every tag split
    for k in range(len(src) + 1):
        assert feed([src[:k], src[k:]]).items == items
    rng = random.Random(7)
    for _ in range(50):
        assert feed(random_pieces(src, rng)).items == items


@pytest.mark.parametrize("src, complete", INVALID)
def test_text_that_no_program_continues_completes_nothing_more(src, complete):
    with pytest.raises(ProgramSyntaxError):
        parse(src)
    t = feed(list(src))
    assert len(t.items) == complete and t.items == parse(src[:t.done])
    t.feed("<gen>x</gen>")
    assert len(t.items) == complete


@pytest.mark.parametrize("src, end", UNFINISHED)
def test_an_unfinished_item_completes_when_its_end_comes(src, end):
    with pytest.raises(ProgramSyntaxError):
        parse(src)
    t = feed(list(src))
    assert t.items == parse(src[:t.done])
    t.feed(end)
    assert t.items == parse(src + end)


def test_an_item_completes_at_its_last_character_and_not_before():
    text = '<gen>a</gen>\n<copy lines="12-13"/><copy from="1:0" to="2:3"/>'
    t, done_at = ProgramTracker(), []
    for k, c in enumerate(text):
        if t.feed(c):
            done_at.append(k + 1)
    assert done_at == [text.index("</gen>") + 6, text.index('"/>') + 3, len(text)]
    assert t.items == [Gen("a"), Copy(12, 13), CopySpan(1, 0, 2, 3)] and t.done == len(text)


def test_tokens_that_cross_tag_ends(qwen_tokenizer):
    """A whole-text tokenization has tokens like `"/>\\n` and `></`: items still complete where parse ends them."""
    src = '<copy lines="1-2"/>\n<gen>x</gen><copy lines="3-4"/><gen>y\n</gen>\n<copy lines="5-5"/>'
    ids = qwen_tokenizer.encode(src, add_special_tokens=False)
    assert any(qwen_tokenizer.decode([i]) in ('"/>\n', '"/><') for i in ids)
    stream = TextStream(qwen_tokenizer)
    assert feed([stream.push([i]) for i in ids]).items == parse(src)


def test_outside_gen_follows_the_open_item():
    t = ProgramTracker()
    for piece, outside in [("\n<ge", True), ("n>a", False), ("</ge", False), ("n>", True), ('<copy lines="1', True),
                           ('-1"/> <gen>', False), ("</gen>", True)]:
        t.feed(piece)
        assert t.outside_gen == outside, t.text


def test_leading_zeros_are_refused_by_every_reader():
    for bad in ('<copy lines="01-2"/>', '<copy lines="1-007"/>', '<copy from="1:01" to="2:0"/>'):
        with pytest.raises(ProgramSyntaxError, match="leading zeros"):
            parse(bad)
        assert feed([bad]).items == []
    assert copy_start('<copy lines="7-') == 7 and copy_start('<copy lines="07-') is None
    assert copy_start('<copy lines="²-') is None  # a digit to str.isdigit, not to the grammar
    with pytest.raises(gbnf.ProgramStateError):
        gbnf.state_after([], '<copy lines="07-')
