"""Exactness of the decode paths (splice == stepwise, forced == oracle, verified == greedy full regeneration)
and the edit contract: every edit finishes or raises with its stop reason, text stays text."""
import random

import numpy as np
import pytest
import torch
from scripted_front import ScriptedFront
from transformers import DynamicCache

from copy_as_decode.core.contract import (
    CAP,
    CONTEXT,
    EOS,
    FENCE,
    PARTIAL,
    SKIPPED,
    UNPARSED,
    Cancelled,
    ContextError,
    Hooks,
    IncompleteEdit,
)
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.backends.prefix_cache import forward
from copy_as_decode.engine.backends.torch_backend import TorchBackend
from copy_as_decode.engine.decoding.decode import decode_rewrite
from copy_as_decode.engine.decoding.drafter import LineDrafter
from copy_as_decode.engine.prompts import prompt

pytestmark = pytest.mark.model


def cut_off(engine, *args, **kwargs) -> IncompleteEdit:
    """An edit the random model cannot finish: it must raise IncompleteEdit."""
    with pytest.raises(IncompleteEdit) as e:
        engine.edit(*args, **kwargs)
    return e.value


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


def test_a_long_forward_in_chunks_equals_one_forward(tiny_engine, humanevalfix_python, monkeypatch):
    from copy_as_decode.engine.backends import prefix_cache
    model, tok = tiny_engine.model, tiny_engine.tok
    ids = tok.encode("".join(c.before for c in humanevalfix_python[:6]), add_special_tokens=False)[:300]
    whole = forward(model, one := DynamicCache(config=model.config), ids)[-1]
    monkeypatch.setattr(prefix_cache, "CHUNK", 64)
    chunked = forward(model, pieces := DynamicCache(config=model.config), ids)[-1]
    assert one.get_seq_length() == pieces.get_seq_length() == 300 and torch.allclose(whole, chunked, atol=1e-4)


def test_the_prompt_cache_reuses_the_longest_common_prefix(tiny_engine, humanevalfix_python):
    """A second edit of the same file prefills only what follows the file (another instruction) or its first
    changed line (after an edit was applied); repeating an edit repeats it exactly; a cached start gives
    the logits of a one-shot prefill."""
    a, b = humanevalfix_python[3], humanevalfix_python[40]
    tiny_engine.restore_cache(None)
    first = cut_off(tiny_engine, a.before, a.instruction, "grammar", max_new_tokens=40).stats
    ids = prompt.program_prompt(tiny_engine.tok, split_lines(a.before), a.instruction)
    assert first.prompt_cached == 0 and first.prompt_tokens == len(ids)
    other = cut_off(tiny_engine, a.before, "Rename the function.", "grammar", max_new_tokens=40).stats
    assert other.prompt_tokens - other.prompt_cached <= 0.1 * other.prompt_tokens
    lines = split_lines(a.before)
    applied = "".join(lines[:-2] + ["    # changed\n"] + lines[-1:])  # as if an edit changed the next-to-last line
    after = cut_off(tiny_engine, applied, a.instruction, "grammar", max_new_tokens=40).stats
    unchanged = prompt.program_prompt(tiny_engine.tok, split_lines(applied), a.instruction)
    assert after.prompt_cached == next(k for k, (x, y) in enumerate(zip(ids, unchanged)) if x != y)
    assert cut_off(tiny_engine, b.before, b.instruction, "grammar", max_new_tokens=40).stats.prompt_cached > 300
    again = cut_off(tiny_engine, a.before, a.instruction, "grammar", max_new_tokens=40).stats
    assert (again.sampled, again.forced, again.spliced) == (first.sampled, first.forced, first.spliced)
    assert again.prompt_cached == len(ids) - 1
    backend = tiny_engine.backend
    reused = backend.start(ids)
    assert reused == len(ids) - 1 and backend.length() == len(ids) - 1
    whole = forward(tiny_engine.model, DynamicCache(config=tiny_engine.model.config), ids)[-1]
    assert torch.allclose(torch.from_numpy(backend.step(ids[-1:])), whole, atol=1e-4)


def test_the_prompt_cache_keeps_to_its_memory_bound(tiny_engine, humanevalfix_python):
    from copy_as_decode.engine.backends.prefix_cache import PrefixCache, _bytes_per_token
    per_token = _bytes_per_token(tiny_engine.model)
    cache = PrefixCache(max_bytes=900 * per_token)
    for case in humanevalfix_python[:4]:
        cache.start(tiny_engine.model, prompt.program_prompt(tiny_engine.tok, split_lines(case.before), "x"))
    assert 1 <= len(cache.entries) < 4 and sum(map(len, cache.entries)) * per_token <= 900 * per_token


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
    assert result.stats.stop == EOS


def test_a_program_that_reads_its_copies_once_feeds_the_model_only_its_own_tokens(tiny_engine, humanevalfix_python):
    """splice=False (selector `once`): after each copy tag the model goes on from the tag, the lines being in its
    prompt: the cache then holds exactly prompt + program, and the logits are those of one forward over them."""
    from copy_as_decode.core.codec import forced_script
    from copy_as_decode.engine.decoding.constraint import ProgramConstraint
    from copy_as_decode.engine.decoding.decode import decode_program
    from copy_as_decode.engine.decoding.tracker import ProgramTracker
    case = humanevalfix_python[5]
    lines, items = split_lines(case.before), line_oracle(case.before, case.after)
    ids = prompt.program_prompt(tiny_engine.tok, lines, case.instruction)
    script = forced_script(tiny_engine.encode, items, tiny_engine.eos)
    for splice in (True, False):
        backend, tracker = TorchBackend(tiny_engine.model, tiny_engine.tok), ProgramTracker()
        stats = decode_program(backend, tiny_engine.tok, ids, lines,
                               ProgramConstraint(tiny_engine.tok, tiny_engine.n_vocab, len(lines)), tracker,
                               tiny_engine.eos, max_new_tokens=len(script), forced=script, splice=splice)
        assert resolve(tracker.items, lines) == case.after and stats.stop == EOS
        copied = sum(c.end - c.start + 1 for c in items if hasattr(c, "start"))
        assert (stats.spliced > copied) if splice else stats.spliced == 0
    fed = backend.length() - len(ids)  # the program's tokens, but the end (and a tag the grammar closed)
    assert len(script) - 2 <= fed < len(script)
    whole = forward(tiny_engine.model, DynamicCache(config=tiny_engine.model.config), ids + script[:fed] + [7])[-1]
    assert torch.allclose(torch.from_numpy(backend.step([7])), whole, atol=1e-4)


def test_a_forced_moved_copy_splices_its_lines_with_their_new_indent(tiny_engine, monkeypatch):
    """A method moved out of its class: its lines go through the splice shifted, none of them is sampled."""
    monkeypatch.setattr(tiny_engine, "grammar_rule", "moves")
    a = ("class Box:\n    def total(self):\n        return self.helper(self.items)\n\n"
         "    def helper(self, values):\n        out = 0\n        for v in values:\n            out += v\n"
         "        return out\n")
    b = ("class Box:\n    def total(self):\n        return helper(self.items)\n\n\n"
         "def helper(values):\n    out = 0\n    for v in values:\n        out += v\n    return out\n")
    program = format_program(line_oracle(a, b), sep="")
    assert 'indent="-4"' in program
    result = tiny_engine.edit(a, "Move helper out of the class.", "forced", program=program)
    assert result.text == b and result.program == program
    moved = "".join(line[4:] for line in split_lines(a)[5:9])
    assert result.stats.spliced == len(tiny_engine.tok.encode(moved)) + sum(
        len(tiny_engine.tok.encode("".join(split_lines(a)[c.start - 1:c.end])))
        for c in parse(program) if hasattr(c, "start") and not c.moved)


def test_forced_program_outside_grammar_is_refused(tiny_engine):
    from copy_as_decode.engine.decoding.constraint import GrammarError
    with pytest.raises(GrammarError):
        tiny_engine.edit("a\nb\n", "x", "forced", program='<copy lines="2-2"/><copy lines="1-1"/>')


def test_grammar_selector_yields_a_valid_program_or_nothing(tiny_engine, humanevalfix_python):
    """Whatever a (random) model samples, the grammar keeps the program parseable and in range, and a program
    cut off by the budget is never resolved into deletions."""
    from copy_as_decode.engine.decoding.constraint import ProgramConstraint
    from copy_as_decode.engine.decoding.decode import decode_program
    from copy_as_decode.engine.decoding.tracker import ProgramTracker
    random.seed(0)
    for seed, case in enumerate(random.sample(humanevalfix_python, 3), start=20):  # seeds that reach the cap
        np.random.seed(seed)
        e = cut_off(tiny_engine, case.before, case.instruction, "grammar", max_new_tokens=60, temperature=1.0)
        assert (e.stop, e.limit, e.stats.sampled) == (CAP, 60, 60) and "nothing was changed" in str(e)
        lines = split_lines(case.before)
        ids = prompt.program_prompt(tiny_engine.tok, lines, case.instruction)
        tracker = ProgramTracker()
        np.random.seed(seed)
        stats = decode_program(TorchBackend(tiny_engine.model, tiny_engine.tok), tiny_engine.tok, ids, lines,
                               ProgramConstraint(tiny_engine.tok, tiny_engine.n_vocab, len(lines)), tracker,
                               tiny_engine.eos, max_new_tokens=60, temperature=1.0)
        assert stats.stop == CAP and stats.sampled == 60
        resolve(tracker.items, lines)  # the items completed so far parse and are in range


def test_copies_that_would_pass_the_context_stop_the_program(tiny_engine, humanevalfix_python, monkeypatch):
    """Copied lines fill the model's positions although the sampled-token budget does not count them: a
    program whose copies would run past the context stops (`context`) and changes nothing."""
    case = humanevalfix_python[5]
    lines = split_lines(case.before)
    program = format_program(line_oracle(case.before, case.after))
    ids = prompt.program_prompt(tiny_engine.tok, lines, case.instruction)
    assert tiny_engine.edit(case.before, case.instruction, "forced", program=program).text == case.after
    monkeypatch.setattr(tiny_engine, "context", len(ids) + 40)  # room for the tags, not for the copied lines
    e = cut_off(tiny_engine, case.before, case.instruction, "forced", program=program)
    assert e.stop == CONTEXT and e.stats.sampled < e.limit and "context" in str(e)  # stopped at a copy, not a cap


def _greedy_reference(engine, ids, n):
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
    ids, fence = prompt.rewrite_prompt(tiny_engine.tok, case.before, case.instruction)
    reference = _greedy_reference(tiny_engine, ids, n)
    tok, eos = tiny_engine.tok, tiny_engine.eos
    model = lambda: TorchBackend(tiny_engine.model, tok)  # noqa: E731 - each decode from an empty cache
    never = lambda text: False  # noqa: E731 - the random model's rewrite runs to the budget
    full = decode_rewrite(model(), tok, ids, eos, never, max_new_tokens=n)
    verified = decode_rewrite(model(), tok, ids, eos, never, drafter=LineDrafter(tok, case.before), max_new_tokens=n)
    assert full[0] == reference[:n] and len(full[0]) == n and full[2].stop == CAP
    assert verified[:2] == full[:2] and verified[2].stop == CAP

    drafter = NoisyOracleDrafter(tok, reference, seed=k)
    out, text, stats = decode_rewrite(model(), tok, ids, eos, never, drafter=drafter, max_new_tokens=n)
    assert out == reference[:n]
    assert 0 < stats.spliced < stats.drafted  # drafts were both accepted and rejected
    assert stats.forwards < n  # accepted drafts saved forward passes


def test_rewrite_stop_reasons(tiny_engine, humanevalfix_python):
    """The loop reports why it ended: the end token, or the closing fence."""
    case = humanevalfix_python[7]
    ids, fence = prompt.rewrite_prompt(tiny_engine.tok, case.before, case.instruction)
    reference = _greedy_reference(tiny_engine, ids, 12)
    tok = tiny_engine.tok
    model = lambda: TorchBackend(tiny_engine.model, tok)  # noqa: E731
    stop_token = reference[5]  # the random model's 6th greedy token plays the end token
    as_eos = decode_rewrite(model(), tok, ids, stop_token, lambda t: False, max_new_tokens=40)
    assert (as_eos[0], as_eos[2].stop) == (reference[:reference.index(stop_token)], EOS)
    closes_at = len(tok.decode(reference[:8]))
    closed = decode_rewrite(model(), tok, ids, -1, lambda t: len(t) >= closes_at, max_new_tokens=40)
    assert (closed[0], closed[2].stop) == (reference[:8], FENCE)


@pytest.mark.parametrize("selector", ["grammar", "verified", "full"])
def test_a_cut_off_edit_is_an_error_with_its_stop_reason(tiny_engine, humanevalfix_python, selector):
    case = humanevalfix_python[11]
    e = cut_off(tiny_engine, case.before, case.instruction, selector, max_new_tokens=20)
    assert (e.stop, e.limit, e.stats.stop, e.stats.budget) == (CAP, 20, CAP, 20)
    assert str(e) == "the edit did not finish within 20 tokens; nothing was changed"


def test_auto_chooses_verified_for_an_untrained_model(tiny_engine, humanevalfix_python):
    """A short file: `windowed` edits it whole, which is `verified`."""
    case = humanevalfix_python[11]
    stats = cut_off(tiny_engine, case.before, case.instruction, "auto", max_new_tokens=5).stats
    assert stats.selector == "verified" and stats.windows.startswith("whole file: short document")
    tiny_engine.trained = True  # as for BASE+ADAPTER
    try:
        assert cut_off(tiny_engine, case.before, case.instruction, max_new_tokens=5).stats.selector == "grammar"
    finally:
        tiny_engine.trained = False


def test_the_auto_budget_comes_from_the_document(tiny_engine, humanevalfix_python):
    from copy_as_decode.core.budget import program_bound, rewrite_bound
    case = humanevalfix_python[11]
    n = len(prompt.text_ids(tiny_engine.tok, case.before))
    full = cut_off(tiny_engine, case.before, case.instruction, "full").stats
    assert full.budget == rewrite_bound(n) == full.sampled
    lines = len(split_lines(case.before))
    tag = len(prompt.text_ids(tiny_engine.tok, f'<copy lines="{lines}-{lines}"/>\n'))
    program = cut_off(tiny_engine, case.before, case.instruction, "grammar", max_new_tokens=30).stats
    assert program.budget == min(30, program_bound(n, lines, tag)) == 30


class Refuse(Hooks):
    def check(self):
        raise AssertionError("no forward pass may run")


def test_a_budget_cut_by_the_context_is_a_context_stop(tiny_engine, humanevalfix_python):
    case = humanevalfix_python[11]
    ids = prompt.program_prompt(tiny_engine.tok, split_lines(case.before), case.instruction)
    context, tiny_engine.context = tiny_engine.context, len(ids) + 25
    try:
        e = cut_off(tiny_engine, case.before, case.instruction, "grammar")
        assert (e.stop, e.limit) == (CONTEXT, 25) and "context" in str(e)
        rewrite, _ = prompt.rewrite_prompt(tiny_engine.tok, case.before, case.instruction)
        tiny_engine.context = len(rewrite) + len(prompt.text_ids(tiny_engine.tok, case.before)) - 1
        with pytest.raises(ContextError, match="needs at least"):  # a rewrite that cannot fit is refused first
            tiny_engine.edit(case.before, case.instruction, "full", hooks=Refuse())
    finally:
        tiny_engine.context = context


def test_rewrite_fence_cannot_be_closed_by_the_document():
    assert prompt.fence_for("x = 1  # `a`, ``b``\n") == "```"
    assert prompt.fence_for("# Doc\n```py\nx\n```\n") == "~~~"
    assert prompt.fence_for("~~~\na ````` b\n~~~~\n") == "~~~~~"
    assert prompt.fence_for("~~~~~~\na ``` b\n") == "````"
    fence = "````"
    assert prompt.fenced_text("```\nx\n```\nmore\n" + fence + "\nafter", fence) == "```\nx\n```\nmore\n"
    assert prompt.fenced_text(fence + "\n", fence) == ""
    assert prompt.fenced_text("x\n" + fence, fence) == "x\n"  # the end token may follow the fence at once
    assert prompt.fenced_text(f"x = '{fence}'\n", fence) == f"x = '{fence}'\n"  # a fence must start a line
    assert not prompt.fence_closed("a\n```\n", fence) and prompt.fence_closed("a\n" + fence + "\n", fence)


SPECIAL = 'END = "<|im_end|>"\nEOT = "<|endoftext|>"\nFIM = "<|fim_prefix|>"\n'


def test_special_token_strings_in_a_document_are_text(tiny_engine):
    tok = tiny_engine.tok
    specials = {i for i, t in tok.added_tokens_decoder.items() if t.special}
    ids = prompt.text_ids(tok, SPECIAL)
    assert not specials & set(ids) and tok.decode(ids) == SPECIAL
    program_ids = prompt.program_prompt(tok, split_lines(SPECIAL), "rename <|im_end|>")
    rewrite_ids, _ = prompt.rewrite_prompt(tok, SPECIAL, "rename <|im_end|>")
    for ids, messages in ((program_ids, 8), (rewrite_ids, 2)):
        # only the template's own markers are special: a start and an end per message, then the open turn
        assert [tok.decode([i]) for i in ids if i in specials] == ["<|im_start|>", "<|im_end|>"] * messages + [
            "<|im_start|>"]
    gold = SPECIAL.replace("EOT", "END_OF_TEXT") + 'SEP = "<|file_sep|>"\n'
    result = tiny_engine.edit(SPECIAL, "x", "forced", program=format_program(line_oracle(SPECIAL, gold), sep=""))
    assert result.text == gold


def test_mixed_line_endings_keep_each_unchanged_line(tiny_engine):
    doc = "a = 1\r\nb = 2\nc = 3\r\n"
    result = tiny_engine.edit(doc, "x", "forced", program='<copy lines="1-2"/><gen>x = 0\n</gen><copy lines="3-3"/>')
    assert result.text == "a = 1\r\nb = 2\nx = 0\r\nc = 3\r\n"


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


def test_a_bfloat16_prefill_keeps_verified_equal_to_full(humanevalfix_python):
    """Prompts prefilled by a bfloat16 copy of the model, decoded in float32: the prompt cache keeps bfloat16
    entries, each decode starts from a float32 copy of the same entry, so verified still equals full."""
    from copy_as_decode.engine.local import LocalEngine
    engine = LocalEngine("tiny", device="cpu", dtype="float32", prefill_dtype="bfloat16")
    assert next(engine.prefill_model.parameters()).dtype == torch.bfloat16
    case, n = humanevalfix_python[7], 48
    ids, _ = prompt.rewrite_prompt(engine.tok, case.before, case.instruction)
    backend = engine.backend
    def rewrite(drafter):
        reused = backend.start(ids)
        assert backend.cache.layers[0].keys.dtype == torch.float32
        return reused, decode_rewrite(backend, engine.tok, ids, engine.eos, lambda text: False,
                                      drafter=drafter, max_new_tokens=n)
    _, full = rewrite(None)
    reused, verified = rewrite(NoisyOracleDrafter(engine.tok, full[0], seed=7))
    assert reused == len(ids) - 1  # the second start is the first one's entry
    (entry,) = backend.prefix.entries.values()
    assert entry.layers[0].keys.dtype == torch.bfloat16
    assert verified[:2] == full[:2] and len(full[0]) == n and 0 < verified[2].spliced < verified[2].drafted
    whole = forward(engine.model, DynamicCache(config=engine.model.config), ids)[-1]
    backend.start(ids)
    mixed = torch.from_numpy(backend.step(ids[-1:]))
    assert not torch.equal(mixed, whole)  # the prefill really ran in bfloat16, to bfloat16's precision
    assert (mixed - whole).abs().max() < 0.05 * whole.abs().max()


def test_a_rewrite_that_stops_before_the_end_of_the_file_changes_nothing(qwen_tokenizer):
    """Small models answer a long file's edit with the edited function alone and end there: that part is not the
    file, and applying it would delete the rest. A rewrite counts when it keeps at least half of the file's lines
    and closes its block, or, ended inside it, ends with the file's last line."""
    lines = [f"def f{k}(x):\n    return x + {k}\n\n\n" for k in range(40)]
    document = "".join(lines) + "if __name__ == '__main__':\n    f1(2)\n"
    for part in ("def f7(x):\n    return x - 7\n",  # the edited function alone
                 "def f7(x):\n    return x - 7\n\n\nif __name__ == '__main__':\n    f1(2)\n"):  # and the end
        e = cut_off(ScriptedFront(qwen_tokenizer, part), document, "Fix f7.", "full")
        assert e.stop == PARTIAL and "only part of the file" in str(e) and "nothing was changed" in str(e)
    near_end = document.replace("x + 39\n", "x - 39\n").replace("__main__", "__main__ ")  # next to the last line
    for fixed in (document.replace("x + 7\n", "x - 7\n"), near_end):
        assert ScriptedFront(qwen_tokenizer, fixed).edit(document, "Fix.", "verified").text == fixed
    last = document.replace("f1(2)", "f1(3)")  # unclosed, and its last line is not the file's: refused
    assert cut_off(ScriptedFront(qwen_tokenizer, last), document, "Fix.", "full").stop == PARTIAL
    for closed in ("def f7(x):\n    return x - 7\n```\n", "def f7(x):\n    return x - 7\n```"):
        # closing the block after the edited function does not make it the file
        assert cut_off(ScriptedFront(qwen_tokenizer, closed), document, "Fix f7.", "full").stop == PARTIAL
    fixed = document.replace("f1(2)", "f1(3)")  # its last line changed: fine when the block is closed
    assert ScriptedFront(qwen_tokenizer, fixed + "```").edit(document, "Fix.", "full").text == fixed
    assert ScriptedFront(qwen_tokenizer, "print(1)\n").edit("", "Say hi.", "full").text == "print(1)\n"  # a new file


LONG_MODULE = "".join(f"def f{k}(x):\n    if x > {k}:\n        x = x - {k}\n    return x + {k}\n\n\n" for k in range(20))


@pytest.mark.parametrize("language", ["python", None])  # told, or read from the document's outline
def test_a_result_that_no_longer_parses_changes_nothing_and_is_kept_for_review(qwen_tokenizer, language):
    """Whatever selector made it: a window's new lines put after the function at column 0 (a module-level
    `return`) are refused with stop `unparsed`, the line named, the text carried for review."""
    broken = LONG_MODULE.replace("    return x + 7\n", "    return x + 7\nreturn 29\n")
    for selector in ("full", "verified"):
        e = cut_off(ScriptedFront(qwen_tokenizer, broken), LONG_MODULE, "Fix f7.", selector, language=language)
        assert e.stop == UNPARSED and e.text == broken, e
        assert "no longer parses as python (line 47: 'return' outside function (`return 29`))" in str(e)
    fine = LONG_MODULE.replace("x + 7\n", "x + 8\n")
    assert ScriptedFront(qwen_tokenizer, fine).edit(LONG_MODULE, "Fix f7.", "full", language=language).text == fine


def test_a_file_that_did_not_parse_is_not_refused_for_its_own_errors(qwen_tokenizer):
    document = LONG_MODULE + "def tail(:\n"
    fixed = document.replace("x + 7\n", "x + 8\n")
    assert ScriptedFront(qwen_tokenizer, fixed).edit(document, "Fix f7.", "full", language="python").text == fixed


def test_a_statement_dropped_beside_the_fix_changes_nothing(qwen_tokenizer):
    dropped = LONG_MODULE.replace("x + 7\n", "x + 8\n").replace("    if x > 8:\n        x = x - 8\n", "")
    e = cut_off(ScriptedFront(qwen_tokenizer, dropped), LONG_MODULE, "Make f7 add 8.", "full", language="python")
    assert e.stop == SKIPPED and e.text == dropped and "lines 50-51 (a statement, `If`" in str(e)


def test_a_long_prefill_reads_in_pieces_and_a_cancel_stops_it_within_one(tiny_engine):
    """torch: PIECE tokens a forward with the check between two; a cancel keeps nothing half-read."""
    from copy_as_decode.engine.backends.prefix_cache import PIECE
    backend, ids = tiny_engine.backend, list(range(1000, 1000 + 3 * PIECE + 11))
    backend.restore(None)
    calls = []

    def cancel_second():
        calls.append(backend.length())
        if len(calls) == 2:
            raise Cancelled()
    with pytest.raises(Cancelled):
        backend.start(ids, check=cancel_second)
    assert len(calls) == 2 and backend.held(ids) == 0
    calls.clear()
    assert backend.start(ids, check=lambda: calls.append(1)) == 0 and len(calls) == 4
    assert backend.length() == len(ids) - 1


def test_llama_cpp_prefills_in_pieces_and_keeps_what_it_read_before_a_cancel(monkeypatch):
    """llama.cpp: PIECE tokens a llama_decode, the check before each; what was read before the cancel stays
    resident, so the next prompt that shares it reads only the rest (checked on the backend's bookkeeping,
    llama_decode itself replaced)."""
    from copy_as_decode.engine.backends import llama_cpp
    lm = llama_cpp.LlamaCppLM.__new__(llama_cpp.LlamaCppLM)
    lm.resident, lm.allocated, pieces = [], 1 << 20, []
    monkeypatch.setattr(lm, "_decode", lambda piece, keep: (pieces.append(len(piece)), lm.resident.extend(piece)),
                        raising=False)
    monkeypatch.setattr(lm, "crop", lambda n: lm.resident.__delitem__(slice(n, None)), raising=False)
    backend = llama_cpp.LlamaCppBackend.__new__(llama_cpp.LlamaCppBackend)
    backend.lm = lm
    ids = list(range(3 * llama_cpp.PIECE + 6))

    def cancel_third():
        if len(pieces) == 2:
            raise Cancelled()
    with pytest.raises(Cancelled):
        backend.start(ids, check=cancel_third)
    assert pieces == [llama_cpp.PIECE] * 2 and lm.resident == ids[:2 * llama_cpp.PIECE]
    pieces.clear()
    assert backend.start(ids, check=lambda: None) == 2 * llama_cpp.PIECE
    assert pieces == [llama_cpp.PIECE, 5] and lm.resident == ids[:-1]
