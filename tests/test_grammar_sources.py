"""The local grammar (core/grammar.py, one llguidance matcher per edit) and the remote one (core/gbnf.py, one GBNF
grammar per request) take their gens from the same GBNF rules (core/gen_grammar.py) and accept the same programs."""
import functools
import itertools
import random
import statistics
import time

import llguidance
import llguidance.torch
import pytest
from test_grammar import N_VOCAB, lltok, run  # noqa: F401 (fixtures)

from copy_as_decode.core.gbnf import ProgramStateError, request_grammar, state_after
from copy_as_decode.core.gen_grammar import TAGS, GenRule
from copy_as_decode.core.grammar import Rule, program_grammar, program_matcher
from copy_as_decode.core.program import COPY_CLOSE
from copy_as_decode.engine.decoding.tracker import ProgramTracker

N = 12
PROGRAMS = [
    "", '<copy lines="1-12"/>', '<gen>a\nb\n</gen>\n<copy lines="1-3"/>', '<gen>a\nb</gen>', '<gen>a\nb\nc</gen>',
    '<gen>a</gen><gen>b</gen>', '<copy lines="1-2"/>\n<gen>x</gen>\n<copy lines="3-12"/>\n<gen>end\n</gen>',
    '<copy lines="1-12"/><gen>x</gen>', '<copy lines="1-12"/><gen>x</gen>\n', '<gen><br class="a"/>\n</gen>',
    '<gen>x <copy lines="1-2"/></gen>', "<gen><gen/></gen>", "<gen>a</ge </g</gen>", '<copy lines="04-5"/>',
    '<copy lines="3-4"/><copy lines="4-5"/>', "<gen>x</gen> ", "\n<gen>x</gen>", '<copy lines="1-2"/>\n\n<gen>x</gen>',
]
PIECES = ["x", "\n", "<", "</ge", "<copy", "<gen", "<gen>", '"/>', "<br/>", "/", "n>", "a\nb\n", "<co", "😀"]
LINES = [0, 1, 2, 3, 4, 5, 9, 11, 12, 13]


def random_program(rng: random.Random) -> str:
    items = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.5:
            i, j = sorted(rng.sample(LINES, 2)) if rng.random() < 0.85 else rng.sample(LINES, 2)
            items.append(f'<copy lines="{i}-{j}"/>')
        else:
            items.append("<gen>" + "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 4))) + "</gen>")
    return "".join(item + rng.choice(["", "", "\n", "\n", "\n\n", " "]) for item in items).rstrip(" \n") + \
        ("\n" if rng.random() < 0.05 else "")


@pytest.fixture(scope="module")
def gbnf_matcher(lltok):
    @functools.cache
    def compiled(grammar: str):
        m = llguidance.LLMatcher(lltok, llguidance.grammar_from("gbnf", grammar),
                                 limits=llguidance.LLParserLimits(verbose_errors=False), log_level=0)
        assert not m.is_error(), m.get_error()
        return m
    return lambda grammar: compiled(grammar).deep_copy()


def remote_accepts(gbnf_matcher, tok, text: str, gens: GenRule, ordered_max: int | None) -> bool:
    """Whether the chain of requests of a remote edit allows `text` as a whole program: a request ends at each
    `"/>` (the stop string fires inside gen bodies too) or where its grammar allows only the end of sequence
    (after `<copy lines="I-` when a copy is split over two requests)."""
    tags_in_gen = not gens.forbidden
    tracker, pos = ProgramTracker(), 0
    while True:
        try:
            state = state_after(tracker.items, tracker.text[tracker.done:], tags_in_gen)
            m = gbnf_matcher(request_grammar(N, state, ordered_max, gens.lines, tags_in_gen))
        except ProgramStateError:
            return False
        end, stop = pos, False
        while end < len(text) and not stop and not m.is_stopped():
            if not all(m.consume_token(t) for t in tok.encode(text[end], add_special_tokens=False)):
                return False
            end += 1
            stop = text.endswith(COPY_CLOSE, 0, end)
        if not stop and end == len(text):
            return m.is_accepting()
        tracker.feed(text[pos:end])
        if not stop and state_after(tracker.items, tracker.text[tracker.done:], tags_in_gen).kind != "copy_end":
            return False  # the request ended the program while text remains
        pos = end


@pytest.mark.parametrize("tags_in_gen, gen_lines, ordered_max", [
    (False, None, None), (True, None, None), (False, 2, None), (True, 1, None), (False, 0, None), (False, 2, 4),
])
def test_local_and_remote_grammars_accept_the_same_programs(lltok, run, gbnf_matcher, qwen_tokenizer,  # noqa: F811
                                                             tags_in_gen, gen_lines, ordered_max):
    gens = GenRule(() if tags_in_gen else TAGS, gen_lines)
    local = program_matcher(lltok, N, Rule(gens))
    rng = random.Random(11)
    verdicts = []
    for text in PROGRAMS + [random_program(rng) for _ in range(150)]:
        accepted = run(local, text)[1]
        assert accepted == remote_accepts(gbnf_matcher, qwen_tokenizer, text, gens, ordered_max), text
        verdicts.append(accepted)
    assert 10 < sum(verdicts) < len(verdicts) - 10  # both kinds of program were tried


def test_the_local_gen_is_one_lexeme(lltok, qwen_tokenizer):
    """Masks inside a gen body cost what a regex lexeme costs (~6 us measured); the same language spelled as a
    character automaton cost ~7 ms a token in llguidance."""
    body = "".join(f"    x{i} = f(a) + <b> / 2  # </ge\n" for i in range(8))
    for gens in (GenRule(), GenRule(TAGS, 16)):
        assert "GEN:" in program_grammar(40, Rule(gens))
        m = program_matcher(lltok, 40, Rule(gens))
        mask = llguidance.torch.allocate_token_bitmask(1, N_VOCAB)
        times = []
        for t in qwen_tokenizer.encode("<gen>" + body + "</gen>", add_special_tokens=False):
            start = time.perf_counter()
            llguidance.torch.fill_next_token_bitmask(m, mask)
            times.append(time.perf_counter() - start)
            assert m.consume_token(t)
        assert statistics.median(times) < 1e-3


def test_bounded_gens_with_every_line_spent_end_the_program(lltok, run):  # noqa: F811
    m = program_matcher(lltok, 3, Rule(GenRule(TAGS, 2)))
    for text, ok in [('<copy lines="1-3"/><gen>x\n</gen>', True), ('<copy lines="1-3"/><gen>x\n</gen>\n', False),
                     ('<copy lines="1-2"/><gen>a</gen><copy lines="3-3"/>', True), ("<gen>a\nb\n</gen>", True)]:
        assert run(m, text)[1] == ok, text
    for n in itertools.chain([0], [20_000]):  # no copies at all, and the bounded-number layout
        m = program_matcher(lltok, n, Rule(GenRule(TAGS, 1)))
        assert run(m, "<gen>a\n</gen>")[1] and not run(m, "<gen>a</gen><gen>b</gen>")[1]
        assert not run(m, "<gen>a\nb</gen>")[1]
