"""The program grammar, driven token by token through a real llguidance matcher and the real Qwen tokenizer."""
import functools
import itertools
import random
import re
import time

import llguidance.hf
import pytest
from test_oracle import humanevalfix_pairs

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.gen_grammar import TAGS, GenRule
from copy_as_decode.core.grammar import (
    MOVES_MAX_LINES,
    NUMBERED_GRAMMAR_MAX_LINES,
    Rule,
    _number_regex,
    program_grammar,
    program_matcher,
)
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import Copy, format_program, parse
from copy_as_decode.core.resolver import ResolveError, resolve
from copy_as_decode.engine.prompts.prompt import text_ids

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
        for token in text_ids(qwen_tokenizer, text):  # as the engine reads text: "<|im_end|>" in it is text
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

    def get(n, rule_name="default"):
        if (n, rule_name) not in cache:
            cache[n, rule_name] = program_matcher(lltok, n, rule_name)
        return cache[n, rule_name]
    return get


@pytest.mark.parametrize("rule_name, moves", [("default", False), ("moves", True)])
def test_every_humanevalfix_oracle_program_is_accepted(matchers, run, rule_name, moves):
    for a, b in humanevalfix_pairs():  # all 328, Python and JavaScript
        m = matchers(len(split_lines(a)), rule_name)
        copy_every_matching_line = line_oracle(a, b, cost=lambda text: 100, moves=moves)
        for items, sep in itertools.product([line_oracle(a, b, moves=moves), copy_every_matching_line], ["\n", ""]):
            assert run(m, format_program(items, sep)) == (None, True), format_program(items, sep)


@pytest.mark.parametrize("rule_name", ["default", "moves"])
def test_a_document_s_special_token_text_is_generated_as_text(matchers, run, rule_name):
    # a file may hold "<|im_end|>" as text (a chat template, a tokenizer's tests): the engine reads it as text
    # (engine/prompts/prompt.py text_ids), so a program that writes it is one the grammar accepts
    program = format_program(line_oracle("", "<|im_end|>\n"))
    assert run(matchers(0, rule_name), program) == (None, True), program


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


# ---- moved copies (the "moves" rule) -----------------------------------------------------------------------

def _feed(m, tokenizer, text: str) -> bool:
    """Consume `text` into `m` in place; whether every token was accepted."""
    return all(m.consume_token(t) for t in tokenizer.encode(text, add_special_tokens=False))


@pytest.mark.parametrize("text", [
    '<copy lines="7-9" indent="-4"/><copy lines="1-10"/>',  # before the in-order copies
    '<copy lines="1-3"/><copy lines="7-9" indent="-4"/><copy lines="4-6"/>',  # between: the order goes on from 3
    '<copy lines="1-3"/>\n<copy lines="1-3" indent="+4"/>\n<copy lines="4-10"/>',
    '<copy lines="1-10"/><copy lines="1-10" indent="+16"/>',  # after every line is spent
    '<copy lines="10-10" indent="0"/>', '<copy lines="1-1" indent="0"/><copy lines="1-1"/>',  # I == J
    '<copy lines="2-3" indent="+2"/><copy lines="2-3" indent="+2"/>\n<copy lines="2-3" indent="-16"/>',  # again
    '<gen>x</gen><copy lines="4-5" indent="-1"/><gen>y</gen>\n<copy lines="5-5" indent="0"/>',
])
def test_moved_copies_take_any_lines_and_leave_the_order_alone(matchers, run, text):
    assert run(matchers(10, "moves"), text) == (None, True)
    assert run(matchers(10), text)[1] is False  # the default rule has no moved copies


@pytest.mark.parametrize("text, rejected_after", [
    # an in-order copy after a move still starts after line 3; "2-6" could still be a moved copy
    ('<copy lines="1-3"/><copy lines="7-9" indent="-4"/><copy lines="2-6"/>',
     '<copy lines="1-3"/><copy lines="7-9" indent="-4"/><copy lines="2-6'),
    ('<copy lines="11-11" indent="0"/>', '<copy lines="1'),  # I > n
    ('<copy lines="5-4" indent="0"/>', '<copy lines="5-'),  # J < I
    ('<copy lines="1-10"/><copy lines="9-8" indent="0"/>', '<copy lines="1-10"/><copy lines="9-'),
    ('<copy lines="3-11" indent="0"/>', '<copy lines="3-1'),  # J > n
    ('<copy lines="03-4" indent="0"/>', '<copy lines="'),  # leading zeros
    ('<copy lines="3-04" indent="0"/>', '<copy lines="3-'),
    ('<copy lines="3-4" indent="+0"/>', '<copy lines="3-4" indent="+'),
    ('<copy lines="3-4" indent="-0"/>', '<copy lines="3-4" indent="-'),
    ('<copy lines="3-4" indent="-07"/>', '<copy lines="3-4" indent="-'),
    ('<copy lines="3-4" indent="+17"/>', '<copy lines="3-4" indent="+1'),
    ('<copy lines="3-4" indent="4"/>', '<copy lines="3-4" indent="'),  # a shift has its sign
    ('<copy lines="3-4" indent="00"/>', '<copy lines="3-4" indent="0'),
    ('<copy lines="3-4" indent=""/>', '<copy lines="3-4" indent="'),
])
def test_moved_copy_rejections_happen_at_the_first_impossible_token(matchers, run, text, rejected_after):
    assert run(matchers(10, "moves"), text)[0] == rejected_after


def test_the_default_rule_never_offers_an_indent(matchers, run):
    assert run(matchers(10), '<copy lines="1-3" indent="0"/>')[0] == '<copy lines="1-3"'  # '"' begins '"/>'
    assert run(matchers(0, "moves"), '<copy lines="1-1" indent="0"/>')[0] == "<"  # no lines, nothing to move


@pytest.mark.parametrize("n", [1, 9, 10, 11, 23])
def test_moved_copies_accept_exactly_the_ranges_within_the_document(matchers, lltok, qwen_tokenizer, n):
    """Every moved copy I-J, first and after lines 1..k are spent; after one the order still stands at k."""
    k = n // 2
    for prefix in ["", f'<copy lines="1-{k}"/>'] if k else [""]:
        base = matchers(n, "moves").deep_copy()
        assert _feed(base, qwen_tokenizer, prefix + '<copy lines="')
        for i, j in itertools.product(range(n + 2), repeat=2):
            m = base.deep_copy()
            shift = ("0", "-4", "+16", "+1")[(i + j) % 4]
            accepted = _feed(m, qwen_tokenizer, f'{i}-{j}" indent="{shift}"/>')
            assert accepted == (1 <= i <= j <= n), (prefix, i, j)
            if accepted and prefix:
                assert _feed(m.deep_copy(), qwen_tokenizer, f'<copy lines="{k + 1}-{n}"/>')
                assert not _feed(m.deep_copy(), qwen_tokenizer, f'<copy lines="{k}-{n}"/>')
                assert m.consume_token(lltok.eos_token)


@pytest.mark.parametrize("n, rule_name", [(12, "moves"), (23, Rule(GenRule(TAGS, 1), end_after_any_copy=False, moves=True))])
def test_every_program_a_masked_random_walk_finishes_resolves(lltok, qwen_tokenizer, n, rule_name):
    """Sample programs token by token under the mask (from the tokens that spell tags, digits and short gens,
    whichever the mask allows): each finished one resolves against a document of n lines."""
    rng = random.Random(5)
    pieces = ['<copy lines="', '<gen>', '</gen>', '"/>', '" indent="', "-", "+", "\n", "x", " if", "<", "</", "/>"]
    candidates = sorted({t for text in pieces + list("0123456789")
                         for t in qwen_tokenizer.encode(text, add_special_tokens=False)} | {lltok.eos_token})
    document = "".join(" " * (i % 6) + f"line {i}\n" for i in range(1, n + 1))
    base = program_matcher(lltok, n, rule_name)
    finished, moved = 0, 0
    for _ in range(300):
        m, tokens = base.deep_copy(), []
        while not m.is_stopped() and len(tokens) < 80:
            mask = m.compute_bitmask()
            allowed = [t for t in candidates if mask[t // 8] >> (t % 8) & 1] or \
                [t for t in range(N_VOCAB) if mask[t // 8] >> (t % 8) & 1]
            assert allowed, qwen_tokenizer.decode(tokens)  # never a dead end
            token = rng.choice(allowed)
            assert m.consume_token(token)
            tokens.append(token)
        if m.is_stopped():
            items = parse(qwen_tokenizer.decode(tokens[:-1]))
            resolve(items, document)
            finished += 1
            moved += any(isinstance(item, Copy) and item.moved for item in items)
    assert finished > 100 and moved > 10, (finished, moved)


def test_moves_with_bounded_gens_and_cover_to_end(lltok, run):
    m = program_matcher(lltok, 10, Rule(GenRule(TAGS, 1), end_after_any_copy=False, moves=True))
    for text, ok in [('<gen>x</gen>\n<copy lines="3-4" indent="+4"/>', False),  # L = 0 < n: cannot end here
                     ('<gen>x</gen>\n<copy lines="3-4" indent="+4"/><gen></gen>', True),
                     ('<copy lines="1-10"/><gen>x</gen><copy lines="3-4" indent="+4"/>', True),  # every line spent
                     ('<copy lines="3-4" indent="+4"/><copy lines="1-10"/>', True),
                     ('<gen>a</gen><gen>b</gen>', False)]:
        assert run(m, text)[1] == ok, text


def test_moves_fit_llguidance_up_to_their_threshold_and_are_dropped_above(lltok, run):
    n = MOVES_MAX_LINES
    t = time.perf_counter()
    m = program_matcher(lltok, n, "moves")
    compile_s = time.perf_counter() - t
    assert run(m, f'<copy lines="1-9"/><copy lines="{n - 1}-{n}" indent="-4"/><copy lines="10-{n}"/>')[1]
    assert compile_s < 15
    assert program_grammar(n + 1, "moves") == program_grammar(n + 1)
    assert "indent" not in program_grammar(NUMBERED_GRAMMAR_MAX_LINES + 1, "moves")
