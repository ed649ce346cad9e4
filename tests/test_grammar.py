"""The program grammar, driven token by token through a real llguidance matcher and the real Qwen tokenizer."""
import functools
import itertools
import re
import time

import llguidance.hf
import pytest
from test_oracle import humanevalfix_pairs

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.grammar import NUMBERED_GRAMMAR_MAX_LINES, _number_regex, program_grammar, program_matcher
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program
from copy_as_decode.core.resolver import ResolveError, resolve

N_VOCAB = 151936  # Qwen2.5's model vocabulary (the tokenizer's is smaller)


@functools.cache  # ~2 s; shared with test_properties, which imports these fixtures
def ll_tokenizer(tokenizer):
    eos = tokenizer.convert_tokens_to_ids("<|im_end|>")
    return llguidance.hf.from_tokenizer(tokenizer, n_vocab=N_VOCAB, eos_token=eos)


@pytest.fixture(scope="module")
def lltok(qwen_tokenizer):
    return ll_tokenizer(qwen_tokenizer)


@pytest.fixture(scope="module")
def run(qwen_tokenizer, lltok):
    """run(matcher, text) -> (text consumed before the first rejected token, or None; whether the program
    was accepted, EOS included)."""
    def run(matcher, text):
        m = matcher.deep_copy()  # reset() would not clear an error left by an earlier run
        done = ""
        for token in qwen_tokenizer.encode(text, add_special_tokens=False):
            if not m.consume_token(token):
                return done, False
            done += qwen_tokenizer.decode([token])
        if not m.is_accepting():
            assert not m.consume_token(lltok.eos_token)
            return done, False
        assert m.consume_token(lltok.eos_token)
        assert m.is_accepting() and m.is_stopped() and not m.is_error()
        return None, True
    return run


@pytest.fixture(scope="module")
def matchers(lltok):
    cache = {}

    def get(n):
        if n not in cache:
            cache[n] = program_matcher(lltok, n)
        return cache[n]
    return get


def test_every_humanevalfix_oracle_program_is_accepted(matchers, run):
    for a, b in humanevalfix_pairs():  # all 328, Python and JavaScript
        m = matchers(len(split_lines(a)))
        copy_every_matching_line = line_oracle(a, b, cost=lambda text: 100)
        for items, sep in itertools.product([line_oracle(a, b), copy_every_matching_line], ["\n", ""]):
            assert run(m, format_program(items, sep)) == (None, True), format_program(items, sep)


@pytest.mark.parametrize("n", [1, 2, 9, 10, 11, 20, 99, 100, 101, 105, 1000])
def test_single_copies_exactly_the_valid_ranges(matchers, run, n):
    m = matchers(n)
    edges = {0, 1, 2, 9, 10, 11, 19, 20, 21, 99, 100, 101, n - 1, n, n + 1, 10 * n}  # digit-count boundaries
    values = range(n + 3) if n <= 20 else sorted(edges)
    for i, j in itertools.product(values, repeat=2):
        text = f'<copy lines="{i}-{j}"/>'
        assert (run(m, text)[1]) == (1 <= i <= j <= n), text


@pytest.mark.parametrize("n", [3, 11])
def test_two_copies_must_move_forward_without_overlap(matchers, run, n):
    m = matchers(n)
    values = sorted({0, 1, 2, 3, n - 1, n, n + 1})
    for i, j, i2, j2 in itertools.product(values, repeat=4):
        text = f'<copy lines="{i}-{j}"/>\n<gen>x</gen><copy lines="{i2}-{j2}"/>'
        assert run(m, text)[1] == (1 <= i <= j < i2 <= j2 <= n), text


@pytest.mark.parametrize("n, text, rejected_after", [
    (25, '<copy lines="1-19"/><copy lines="1', '<copy lines="1-19"/><copy lines="'),  # 1x all spent
    (25, '<copy lines="1-19"/><copy lines="20-25"/>', None),
    (25, '<copy lines="15-14"/>', '<copy lines="15-1'),  # end 1x below 15: no dead end at "1"
    (25, '<copy lines="15-1"/>', '<copy lines="15-1'),
    (25, '<copy lines="26-26"/>', '<copy lines="2'),
    (25, '<copy lines="5-3"/>', '<copy lines="5-'),
    (25, '<copy lines="3-30"/>', '<copy lines="3-3'),
    (25, '<copy lines="0-1"/>', '<copy lines="'),
    (25, '<copy lines="01-1"/>', '<copy lines="'),
    (25, '<copy lines="1-05"/>', '<copy lines="1-'),
    (25, '<copy lines="1-25"/><copy lines="', '<copy lines="1-25"/><'),  # no line left: no copy at all
    (25, '<copy lines="1-25"/><gen>ok</gen>', None),
])
def test_rejection_happens_at_the_first_impossible_token(matchers, run, n, text, rejected_after):
    assert run(matchers(n), text)[0] == rejected_after


@pytest.mark.parametrize("text, accepted", [
    ("", True),
    ("<gen></gen>", True),
    ("<gen>a</gen>\n<gen>b</gen>", True),
    ("<gen>a\r\n😀 <copy lines=\"9-1\"/> </ge n>\n</gen>", True),  # a gen body is free text ...
    ("<gen>a</gen>b</gen>", False),  # ... up to the first </gen>
    ("<gen>a</gen>\n\n<gen>b</gen>", False),  # one optional "\n" between items, nothing else
    ("\n<gen>a</gen>", False),
    ("<gen>a</gen>\n", False),
    ("<gen>a</gen> <copy lines=\"1-2\"/>", False),
    ('<copy lines="1-2"/>\n<copy lines="3-4"/>', True),
    ('<copy lines="1-2"/> ', False),
    ("<gen>unclosed", False),
    ('<copy from="1:0" to="1:2"/>', False),  # spans are not offered to the model
])
def test_item_syntax(matchers, run, text, accepted):
    assert run(matchers(4), text)[1] == accepted


def test_empty_document_allows_only_gens(matchers, run):
    m = matchers(0)
    assert program_grammar(0).count("copy") == 0
    assert run(m, "<gen>new file\n</gen>\n<gen>more</gen>")[1]
    assert run(m, "")[1]
    assert run(m, '<copy lines="1-1"/>')[0] == "<"


def test_no_token_continues_a_gen_after_its_close(matchers, lltok, qwen_tokenizer):
    """After "</gen>" only a separator, the next item or EOS may follow: the body cannot swallow "</gen>"."""
    m = matchers(4).deep_copy()
    assert m.consume_tokens(qwen_tokenizer.encode("<gen>a</gen>", add_special_tokens=False))
    mask = m.compute_bitmask()
    allowed = [t for t in range(N_VOCAB) if mask[t // 8] >> (t % 8) & 1]
    assert lltok.eos_token in allowed and qwen_tokenizer.convert_tokens_to_ids("<") in allowed
    assert all(t == lltok.eos_token or qwen_tokenizer.decode([t])[:1] in ("<", "\n") for t in allowed)


def test_the_numbered_grammar_fits_llguidance_up_to_its_threshold(lltok, run):
    t = time.perf_counter()
    m = program_matcher(lltok, NUMBERED_GRAMMAR_MAX_LINES)
    compile_s = time.perf_counter() - t
    n = NUMBERED_GRAMMAR_MAX_LINES
    assert run(m, f'<copy lines="1-9"/><gen>x</gen><copy lines="{n - 1}-{n}"/>')[1]
    assert not run(m, f'<copy lines="{n}-{n}"/><copy lines="1-1"/>')[1]
    assert compile_s < 15  # ~1-3 s measured


def test_above_the_threshold_numbers_are_bounded_and_order_is_left_to_the_resolver(lltok, run):
    n = 20_000
    assert n > NUMBERED_GRAMMAR_MAX_LINES
    m = program_matcher(lltok, n)
    assert run(m, '<copy lines="1-20000"/>')[1]
    assert run(m, '<copy lines="19999-20000"/>\n<gen>x</gen><copy lines="7-7"/>')[1]
    for bad in ("20001", "0", "01", "99999"):
        assert not run(m, f'<copy lines="{bad}-{bad}"/>')[1]
    with pytest.raises(ResolveError):
        resolve('<copy lines="19999-20000"/><copy lines="7-7"/>', "x\n" * n)


@pytest.mark.parametrize("n", [1, 9, 10, 19, 20, 21, 100, 12345, 20000, 99999])
def test_bounded_number_regex_is_exactly_1_to_n(n):
    r = re.compile(_number_regex(n))
    matched = [v for v in range(0, 2 * n + 10) if r.fullmatch(str(v))]
    assert matched == list(range(1, n + 1))
    assert not r.fullmatch("0" + str(n))
