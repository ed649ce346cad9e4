"""Moved copies in the remote GBNF grammar (core/gbnf.py), read with llguidance's GBNF reader and the real Qwen
tokenizer: the requests of a remote edit allow the same moved copies as the local grammar (core/grammar.py), and
the remote engine's checks take them."""
import itertools
import random
from types import SimpleNamespace

import pytest
from test_grammar import lltok, run  # noqa: F401 (fixtures)
from test_grammar_sources import gbnf_matcher  # noqa: F401 (a fixture)

from copy_as_decode.core.gbnf import ORDERED_MAX_LINES, ProgramStateError, State, request_grammar, state_after
from copy_as_decode.core.grammar import program_matcher
from copy_as_decode.core.program import COPY_CLOSE, Copy, Gen
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.decoding.tracker import ProgramTracker
from copy_as_decode.engine.remote import client as remote


@pytest.fixture(scope="module")
def gbnf(gbnf_matcher):  # noqa: F811
    return gbnf_matcher


@pytest.fixture(scope="module")
def ok(gbnf, qwen_tokenizer):
    """ok(n, state, text, **options) -> (text is a prefix the request allows, the request may end after it)."""
    def ok(n, state, text, **options):
        m = gbnf(request_grammar(n, state, **options))
        fits = all(m.consume_token(t) for t in qwen_tokenizer.encode(text, add_special_tokens=False))
        return fits, fits and m.is_accepting()
    return ok


AFTER3 = State("between", 3, first=False)


@pytest.mark.parametrize("state, text", [
    (AFTER3, '<copy lines="7-9" indent="-4"/>'),
    (AFTER3, '\n<copy lines="1-2" indent="0"/>'),  # lines already copied
    (AFTER3, '<copy lines="4-12"/>'),  # in-order copies as before
    (State(), '<gen>x</gen><copy lines="12-12" indent="+16"/>'),
    (State("between", 12, first=False), '<copy lines="1-12" indent="+1"/>'),  # every line spent
    (State("between", 12, first=False, after_gen=True, newline=True), '<copy lines="5-6" indent="-16"/>'),
])
def test_requests_offer_moved_copies(ok, state, text):
    gen_lines = 2 if state.after_gen else None
    assert ok(12, state, text, moves=True, gen_lines=gen_lines) == (True, True)
    if "indent" in text and state.last < 12:
        assert not ok(12, state, text, gen_lines=gen_lines)[1]  # not without `moves`


@pytest.mark.parametrize("text", [
    '<copy lines="2-6"/>',  # an in-order copy still starts after line 3 ...
    '<copy lines="13-13" indent="0"/>', '<copy lines="5-4" indent="0"/>', '<copy lines="3-13" indent="0"/>',
    '<copy lines="03-4" indent="0"/>', '<copy lines="3-04" indent="0"/>',
    '<copy lines="3-4" indent="+0"/>', '<copy lines="3-4" indent="-0"/>', '<copy lines="3-4" indent="-07"/>',
    '<copy lines="3-4" indent="+17"/>', '<copy lines="3-4" indent="4"/>', '<copy lines="3-4" indent=""/>',
    '<copy lines="3-4" indent="0"/>\n',  # a request ends at the tag's "/>
])
def test_requests_refuse_what_the_local_grammar_refuses(ok, run, lltok, text):  # noqa: F811
    assert not ok(12, AFTER3, text, moves=True)[0]
    assert not run(program_matcher(lltok, 12, "moves"), '<copy lines="1-3"/>' + text)[1]
    assert ok(12, AFTER3, '<copy lines="2-6" indent="0"/>', moves=True) == (True, True)  # ... a moved one anywhere


@pytest.mark.parametrize("n", [1, 9, 10, 11, 23])
def test_moved_copies_in_a_request_are_exactly_the_ranges_within_the_document(gbnf, qwen_tokenizer, n):
    for last in {0, n // 2, n}:
        base = gbnf(request_grammar(n, State("between", last, first=False), moves=True))
        assert all(base.consume_token(t) for t in qwen_tokenizer.encode('<copy lines="', add_special_tokens=False))
        for i, j in itertools.product(range(n + 2), repeat=2):
            m = base.deep_copy()
            shift = ("0", "-4", "+16", "+1")[(i + j) % 4]
            tokens = qwen_tokenizer.encode(f'{i}-{j}" indent="{shift}"/>', add_special_tokens=False)
            accepted = all(m.consume_token(t) for t in tokens) and m.is_accepting()
            assert accepted == (1 <= i <= j <= n), (last, i, j)


def test_moved_copies_only_up_to_the_ordered_size(gbnf):
    assert "indent" in request_grammar(ORDERED_MAX_LINES, State(), moves=True)
    assert "indent" not in request_grammar(ORDERED_MAX_LINES + 1, State(), moves=True)
    assert "indent" not in request_grammar(12, State(), ordered_max=4, moves=True)  # never beside split copies
    gbnf(request_grammar(ORDERED_MAX_LINES, AFTER3, moves=True, gen_lines=16))  # llguidance reads it whole


def test_state_after_counts_in_order_copies_only():
    t = ProgramTracker()
    t.feed('<copy lines="1-3"/><copy lines="7-9" indent="-4"/>')
    assert t.items == [Copy(1, 3), Copy(7, 9, -4)]
    assert state_after(t.items, "") == AFTER3
    assert state_after(t.items, '<copy lines="4-') == State("copy_end", 3, start=4)
    t.feed('<gen>x</gen><copy lines="2-2" indent="0"/>')
    assert state_after(t.items, "") == AFTER3  # not after_gen: the last item is a copy
    assert state_after([Copy(5, 5, 0)], "\n") == State("between", 0, first=False, newline=True)
    for partial in ('<copy lines="7-9" ', '<copy lines="7-9" indent="-', '<copy lines="7-9" indent="-4"'):
        with pytest.raises(ProgramStateError, match="cannot continue"):  # the stop string closes every copy
            state_after(t.items, partial)


def test_local_and_remote_grammars_accept_the_same_moved_copies(run, lltok, gbnf, qwen_tokenizer):  # noqa: F811
    """Random programs with moved copies: the local matcher and the chain of requests (each one ending at a
    `"/>`, as the stop string ends it) agree."""
    n, rng = 12, random.Random(3)
    local = program_matcher(lltok, n, "moves")

    def remote_accepts(text: str) -> bool:
        tracker, pos = ProgramTracker(), 0
        while True:
            try:
                m = gbnf(request_grammar(n, state_after(tracker.items, tracker.text[tracker.done:]), moves=True))
            except ProgramStateError:
                return False
            end = text.find(COPY_CLOSE, pos)
            end = len(text) if end < 0 else end + len(COPY_CLOSE)
            if not all(m.consume_token(t) for t in qwen_tokenizer.encode(text[pos:end], add_special_tokens=False)):
                return False
            if end == len(text):
                return m.is_accepting()
            tracker.feed(text[pos:end])
            pos = end

    def item() -> str:
        i, j = rng.choice([(1, 3), (4, 4), (5, 12), (2, 6), (7, 9), (9, 7), (12, 13), (0, 2)])
        if rng.random() < 0.4:
            return f'<copy lines="{i}-{j}"/>'
        if rng.random() < 0.8:
            return f'<copy lines="{i}-{j}" indent="{rng.choice(["0", "+4", "-16", "+17", "-0", "4"])}"/>'
        return "<gen>x</gen>"

    verdicts = []
    for _ in range(150):
        text = rng.choice(["", "\n"]).join(item() for _ in range(rng.randint(1, 4)))
        accepted = run(local, text)[1]
        assert accepted == remote_accepts(text), text
        verdicts.append(accepted)
    assert 20 < sum(verdicts) < len(verdicts) - 20


def test_the_remote_checks_take_moved_copies(qwen_tokenizer):
    lines = [f"    line {i}\n" for i in range(1, 11)]
    assert remote._allowed(Copy(2, 4, -4), 6, 10) and remote._allowed(Copy(10, 10, 0), 10, 10)
    assert not remote._allowed(Copy(2, 4), 6, 10) and not remote._allowed(Copy(4, 11, 0), 0, 10)
    assert not remote._allowed(Copy(0, 1, 0), 0, 10) and not remote._allowed(Copy(5, 4, 0), 0, 10)
    fake = SimpleNamespace(encode=lambda text: qwen_tokenizer.encode(text, add_special_tokens=False),
                           _complete=lambda *args: None)
    hooks = SimpleNamespace(check=lambda: None, progress=lambda *args: None)
    items = [Copy(1, 6), Copy(8, 9, -4), Gen("x\n"), Copy(7, 10), Copy(1, 1, 0)]
    assert remote.RemoteEngine._forced(fake, [], lines, items, hooks)[0] == items
    with pytest.raises(ProgramStateError, match="item 3"):
        remote.RemoteEngine._forced(fake, [], lines, [Copy(1, 6), Copy(8, 9, -4), Copy(5, 10)], hooks)
    run_ = remote._Run(Stats(), [])
    remote.RemoteEngine._splice(fake, run_, [Copy(8, 9, -4), Copy(4, 4)], lines, AFTER3)
    assert qwen_tokenizer.decode(run_.seq) == "line 8\nline 9\n    line 4\n"
    read = remote._Run(Stats(), [])  # selector `once`: checked the same, nothing appended
    remote.RemoteEngine._splice(fake, read, [Copy(8, 9, -4), Copy(4, 4)], lines, AFTER3, splice=False)
    assert read.seq == [] and read.stats.spliced == 0
    with pytest.raises(remote.GrammarRefused):
        remote.RemoteEngine._splice(fake, run_, [Copy(8, 9, -4), Copy(3, 4)], lines, AFTER3)
