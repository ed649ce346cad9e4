"""Random document pairs (CRLF, no final newline, empty, non-ASCII): every tool agrees with every other."""
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from test_grammar import lltok, matchers, run  # noqa: F401 (fixtures)

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle, token_oracle
from copy_as_decode.core.program import format_program
from copy_as_decode.core.resolver import resolve
from copy_as_decode.core.text_edits import apply_text_edits, text_edits

LONG = "the resolver copies the named lines verbatim and inserts generated text between them, byte for byte"
body = st.one_of(st.sampled_from(["", "x = 1", "    return x", "é😀 ü", "}", "</gen>"]),
                 st.text(st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), max_size=12))
long_body = st.builds(lambda k, tail: f"{k}: {LONG}{tail}", st.integers(0, 3), body)  # worth a copy
line = st.builds(lambda text, end: text + end, st.one_of(body, long_body), st.sampled_from(["\n", "\r\n"]))


@st.composite
def pairs(draw):
    """A, and B built from A's lines (kept, edited inside, dropped, reordered) and new ones, so that line
    and span copies happen."""
    a_lines = draw(st.lists(line, max_size=8))
    b_lines = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["new", "kept", "edited"] if a_lines else ["new"]))
        text = draw(line) if kind == "new" else draw(st.sampled_from(a_lines))
        if kind == "edited":
            cut = draw(st.integers(0, len(text)))
            text = text[:cut] + draw(body) + text[cut + draw(st.integers(0, 3)):]
        b_lines.append(text)
    a_last, b_last = draw(body), draw(body)  # a last line without newline, or none
    return "".join(a_lines) + a_last, "".join(b_lines) + b_last


FAST = settings(max_examples=150, deadline=None)


@FAST
@given(pairs())
def test_line_oracle_rebuilds_b(pair):
    a, b = pair
    assert resolve(line_oracle(a, b), a) == b


@FAST
@given(pairs())
def test_token_oracle_rebuilds_b(pair):
    a, b = pair
    assert resolve(token_oracle(a, b), a) == b


@FAST
@given(pairs())
def test_text_edits_rebuild_b_and_never_split_crlf(pair):
    a, b = pair
    edits = text_edits(a, b)
    assert apply_text_edits(a, edits) == b
    starts = [0] + [m.end() for m in re.finditer("\n", a)]
    for e in edits:
        for line, char in ((e.start_line, e.start_char), (e.end_line, e.end_char)):
            offset = starts[line] + char
            assert a[offset - 1:offset + 1] != "\r\n"


@FAST
@given(pairs())
def test_grammar_accepts_the_oracle_program(matchers, run, pair):  # noqa: F811
    a, b = pair
    program = format_program(line_oracle(a, b))
    assert run(matchers(len(split_lines(a)), "moves"), program) == (None, True), program
