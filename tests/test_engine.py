"""Exactness of the decode paths: splice == stepwise, forced == oracle, verified == greedy full regeneration."""
import random

import pytest
import torch
from transformers import DynamicCache

from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine import prompt
from copy_as_decode.engine.decode import Cancelled, Hooks, decode_rewrite, forward
from copy_as_decode.engine.engine import ContextError, fenced_text


def test_splice_equals_stepwise(tiny_engine, humanevalfix_python):
    """N tokens fed in one forward leave the same next-token logits and cache as N single steps (fp32)."""
    model, tok = tiny_engine.model, tiny_engine.tok
    ids = tok.encode("".join(c.before for c in humanevalfix_python[:4]), add_special_tokens=False)
    prefix, copied = ids[:40], ids[40:40 + 64]
    one, steps = DynamicCache(config=model.config), DynamicCache(config=model.config)
    forward(model, one, prefix), forward(model, steps, prefix)
    parallel = forward(model, one, copied)[-1]
    for t in copied:
        stepwise = forward(model, steps, [t])[-1]
    assert one.get_seq_length() == steps.get_seq_length() == 40 + 64
    assert torch.allclose(parallel, stepwise, atol=1e-4)
    assert int(parallel.argmax()) == int(stepwise.argmax())
    probe = tok.encode(" return", add_special_tokens=False)  # the caches themselves agree on what comes next
    assert torch.allclose(forward(model, one, probe), forward(model, steps, probe), atol=1e-4)


def test_prompt_head_is_prefilled_once_and_edits_do_not_depend_on_history(tiny_engine, humanevalfix_python):
    """The shared head (system prompt + worked examples) is computed once per engine; a cached edit is the
    same, token for token, as the first one, and its first logits equal a one-shot prefill's."""
    from copy_as_decode.core.document import split_lines
    from copy_as_decode.engine.prefix_cache import PrefixCache
    a, b = humanevalfix_python[3], humanevalfix_python[40]
    tiny_engine.prefix = PrefixCache()
    first = tiny_engine.edit(a.before, a.instruction, "grammar", max_new_tokens=40)
    tiny_engine.edit(b.before, b.instruction, "grammar", max_new_tokens=40)
    again = tiny_engine.edit(a.before, a.instruction, "grammar", max_new_tokens=40)
    assert (again.program, again.stats.sampled) == (first.program, first.stats.sampled)
    messages = prompt.program_messages(split_lines(a.before), a.instruction)
    ids = prompt.prompt_ids(tiny_engine.tok, messages)
    head = prompt.shared_head(tiny_engine.tok, ids, messages)
    assert head > 300 and first.stats.prompt_cached == again.stats.prompt_cached == head
    assert tiny_engine.prefix.cache.get_seq_length() == head  # each edit decoded in a copy
    cached = tiny_engine.prefix.start(tiny_engine.model, ids[:head])
    whole = forward(tiny_engine.model, DynamicCache(config=tiny_engine.model.config), ids)[-1]
    assert torch.allclose(forward(tiny_engine.model, cached, ids[head:])[-1], whole, atol=1e-4)


@pytest.mark.parametrize("k", range(0, 164, 23))
def test_forced_program_reproduces_oracle(tiny_engine, humanevalfix_python, k):
    case = humanevalfix_python[k]
    program = format_program(line_oracle(case.before, case.after), sep="")
    result = tiny_engine.edit(case.before, case.instruction, "forced", program=program)
    assert result.text == case.after
    assert result.program == program
    copied = sum(len(tiny_engine.tok.encode("".join(case.before.splitlines(True)[c.start - 1:c.end])))
                 for c in parse(program) if hasattr(c, "start"))
    assert result.stats.spliced == copied  # every copied token went through the splice, none was sampled


def test_forced_program_outside_grammar_is_refused(tiny_engine):
    from copy_as_decode.engine.constraint import GrammarError
    with pytest.raises(GrammarError):
        tiny_engine.edit("a\nb\n", "x", "forced", program='<copy lines="2-2"/><copy lines="1-1"/>')


def test_grammar_selector_always_yields_a_valid_program(tiny_engine, humanevalfix_python):
    """Whatever a (random) model samples, the grammar keeps the program parseable and in range."""
    random.seed(0)
    for case in random.sample(humanevalfix_python, 3):
        torch.manual_seed(1)
        result = tiny_engine.edit(case.before, case.instruction, "grammar", max_new_tokens=60, temperature=1.0)
        assert result.text == resolve(parse(result.program), case.before)
        assert result.stats.sampled <= 60


def _greedy_reference(engine, document, instruction, n):
    ids = prompt.prompt_ids(engine.tok, prompt.rewrite_messages(document, instruction), prompt.REWRITE_PREFIX)
    out = engine.model.generate(torch.tensor([ids]), max_new_tokens=n, do_sample=False, eos_token_id=engine.eos,
                                pad_token_id=engine.eos)
    return out[0, len(ids):].tolist()


class NoisyOracleDrafter:
    """Proposes the true greedy continuation with random corruptions, so full acceptance, rejection at the
    first token, partial acceptance and cache cropping all happen; the output must still be exactly greedy."""

    def __init__(self, tok, truth, seed):
        self.truth, self.rng = truth, random.Random(seed)
        self.at = {len(tok.decode(truth[:m])): m for m in range(len(truth) + 1)}

    def propose(self, text):
        m = self.at.get(len(text))
        if m is None:
            return []
        draft = list(self.truth[m:m + self.rng.randint(0, 12)])
        if draft and self.rng.random() < 0.5:
            draft[self.rng.randrange(len(draft))] = self.rng.randrange(1000)
        return draft

    def feedback(self, proposed, accepted):
        pass


@pytest.mark.parametrize("k", range(0, 164, 41))
def test_verified_equals_greedy_full_regeneration(tiny_engine, humanevalfix_python, k):
    case, n = humanevalfix_python[k], 48
    reference = _greedy_reference(tiny_engine, case.before, case.instruction, n)
    full = tiny_engine.edit(case.before, case.instruction, "full", max_new_tokens=n)
    verified = tiny_engine.edit(case.before, case.instruction, "verified", max_new_tokens=n)
    assert full.tokens == reference[:len(full.tokens)] and len(full.tokens) == n
    assert verified.tokens == full.tokens and verified.text == full.text

    ids = prompt.prompt_ids(tiny_engine.tok, prompt.rewrite_messages(case.before, case.instruction),
                            prompt.REWRITE_PREFIX)
    drafter = NoisyOracleDrafter(tiny_engine.tok, reference, seed=k)
    out, text, stats = decode_rewrite(tiny_engine.model, tiny_engine.tok, ids, tiny_engine.eos, lambda t: False,
                                      drafter=drafter, max_new_tokens=n)
    assert out == reference[:n]
    assert 0 < stats.spliced < stats.drafted  # drafts were both accepted and rejected
    assert stats.forwards < n  # accepted drafts saved forward passes


def test_fenced_text_cuts_at_the_closing_fence():
    assert fenced_text("a\nb\n```\nrest") == "a\nb\n"
    assert fenced_text("```\n") == ""
    assert fenced_text("x = '```'\n") == "x = '```'\n"  # a fence must start a line
    assert fenced_text("no fence") == "no fence"


class StopAfter(Hooks):
    def __init__(self, n):
        self.n, self.calls = n, 0

    def check(self):
        self.calls += 1
        if self.calls > self.n:
            raise Cancelled()


@pytest.mark.parametrize("selector", ["grammar", "verified"])
def test_cancellation_stops_between_forward_passes(tiny_engine, humanevalfix_python, selector):
    hooks = StopAfter(3)
    with pytest.raises(Cancelled):
        tiny_engine.edit(humanevalfix_python[0].before, "x", selector, max_new_tokens=50, hooks=hooks)
    assert hooks.calls == 4


def test_document_over_context_is_refused(tiny_engine):
    with pytest.raises(ContextError, match="context"):
        tiny_engine.edit("x = 1\n" * 20000, "x", "verified")
