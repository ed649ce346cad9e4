"""The two decode loops, in the style of gpt-fast's generate.py.

decode_program: the model writes a copy/gen program under the grammar; when a copy tag closes, the copied
lines' tokens join the next forward, so N copied tokens cost ONE forward instead of N decode steps.

decode_rewrite: the model rewrites the file; a drafter proposes the input lines that come next and the same
kind of parallel forward verifies them against the model's own greedy choice, so the output is exactly
greedy full regeneration (drafter=None is that plain regeneration).
"""
import torch
from transformers import DynamicCache

from copy_as_decode.core.codec import copied_ids
from copy_as_decode.core.contract import CAP, CONTEXT, EOS, FENCE, Hooks
from copy_as_decode.core.program import Copy

from .prompt import text_ids
from .stats import Stats
from .text_stream import TextStream

CHUNK = 4096  # tokens per forward: a longer prompt or copy goes in pieces, so attention memory stays bounded


def new_cache(model):
    """An empty KV cache for `model`: transformers' DynamicCache, or the model's own (engine/llama_cpp.py)."""
    return model.new_cache() if hasattr(model, "new_cache") else DynamicCache(config=model.config)


@torch.inference_mode()
def forward(model, cache, ids: list[int], all_logits: bool = False) -> torch.Tensor:
    while len(ids) > CHUNK and not all_logits:  # only the last piece's last logits are wanted
        model(input_ids=torch.tensor([ids[:CHUNK]], device=model.device), cache=cache, use_cache=True,
              logits_to_keep=1)
        ids = ids[CHUNK:]
    x = torch.tensor([ids], device=model.device)
    return model(input_ids=x, cache=cache, use_cache=True, logits_to_keep=0 if all_logits else 1).logits[0]


def choose(logits: torch.Tensor, allowed: torch.Tensor | None, temperature: float) -> int:
    if allowed is not None:
        logits = logits.masked_fill(~allowed.to(logits.device), float("-inf"))
    if temperature <= 0:
        return int(logits.argmax())
    return int(torch.multinomial(torch.softmax(logits.float() / temperature, -1), 1))


def decode_program(model, tok, prompt, lines, constraint, tracker, eos, *, max_new_tokens, temperature=0.0,
                   forced: list[int] | None = None, cache=None, context: int | None = None, hooks=Hooks(),
                   splice: bool = True) -> Stats:
    """Decode a program into `tracker` (forced: feed these tokens instead of choosing; they must obey the grammar;
    cache: a DynamicCache that already holds the first tokens of `prompt`; context: the model's positions, which
    copied lines fill too, unlike the sampled-token budget; splice=False: a copy's lines are not fed, the model
    having read them in its prompt)."""
    stats, stream = Stats(prompt_tokens=len(prompt), budget=max_new_tokens), TextStream(tok)
    cache = cache if cache is not None else new_cache(model)
    with stats.timed("prefill_s"):
        logits = forward(model, cache, prompt[cache.get_seq_length():])[-1]
    stats.forwards += 1
    script = iter(forced) if forced is not None else None
    stats.stop = CAP
    while stats.sampled < max_new_tokens:
        hooks.check()
        with stats.timed("mask_s"):
            allowed = constraint.allowed(tracker.outside_gen)
        token = choose(logits, allowed, temperature) if script is None else constraint.require(next(script), allowed)
        if token == eos:
            stats.stop = EOS
            break
        feed = [token] + constraint.consume(token, fast_forward=script is None)
        stats.sampled, stats.forced = stats.sampled + 1, stats.forced + len(feed) - 1
        for item in tracker.feed(stream.push(feed)):
            if isinstance(item, Copy) and splice:  # the copied lines ride along with the tag's last tokens
                copied = copied_ids(lambda text: text_ids(tok, text), lines, item)
                feed, stats.spliced = feed + copied, stats.spliced + len(copied)
        if constraint.stopped():
            stats.stop = EOS
            break
        if context is not None and cache.get_seq_length() + len(feed) > context:
            stats.stop = CONTEXT
            break
        with stats.timed("splice_s" if len(feed) > 1 else "decode_s"):
            logits = forward(model, cache, feed)[-1]
        stats.forwards += 1
        hooks.progress(stats, tracker.text)
    return stats


def decode_rewrite(model, tok, prompt, eos, closed, *, drafter=None, max_new_tokens, cache=None, hooks=Hooks()):
    """Greedy rewrite until EOS, `closed(text)` (the fence) or the token cap; returns (token ids, text, stats).
    cache: as for decode_program."""
    stats, stream, out = Stats(prompt_tokens=len(prompt), budget=max_new_tokens), TextStream(tok), []
    cache = cache if cache is not None else new_cache(model)
    with stats.timed("prefill_s"):
        token = int(forward(model, cache, prompt[cache.get_seq_length():])[-1].argmax())
    stats.forwards += 1
    while not (stop := EOS if token == eos else FENCE if closed(stream.text) else
               CAP if len(out) >= max_new_tokens else ""):
        hooks.check()
        stream.push([token])
        draft = drafter.propose(stream.text)[: max_new_tokens - len(out) - 1] if drafter else []
        with stats.timed("splice_s" if draft else "decode_s"):
            greedy = forward(model, cache, [token] + draft, all_logits=True).argmax(-1).tolist()
        accepted = next((i for i, (d, g) in enumerate(zip(draft, greedy)) if d != g), len(draft))
        if accepted < len(draft):
            cache.crop(-(len(draft) - accepted))  # drop the rejected tail; the model's own token replaces it
        if drafter:
            drafter.feedback(len(draft), accepted)
        out += [token] + draft[:accepted]
        stream.push(draft[:accepted])
        stats.forwards, stats.sampled = stats.forwards + 1, stats.sampled + 1
        stats.spliced, stats.drafted = stats.spliced + accepted, stats.drafted + len(draft)
        token = greedy[accepted]
        hooks.progress(stats, stream.text)
    stats.stop = stop
    return out, stream.text, stats


def decode_choice(model, prompt, constraint, eos, *, cache=None, max_tokens=64, hooks=Hooks()) -> tuple[list[int], float]:
    """Greedy decode of one of a grammar's alternatives (a name from a list); returns its tokens and the
    probability the model gave that path among what the grammar allowed at each step (its confidence)."""
    cache = cache if cache is not None else new_cache(model)
    logits, out, p = forward(model, cache, prompt[cache.get_seq_length():])[-1], [], 1.0
    while len(out) < max_tokens and not constraint.stopped():
        hooks.check()
        allowed = constraint.allowed()
        probs = torch.softmax(logits.float().masked_fill(~allowed.to(logits.device), float("-inf")), -1)
        token = int(probs.argmax())
        if token == eos:
            break
        p *= float(probs[token])
        feed = [token] + constraint.consume(token)  # with the tokens the grammar then forces
        out += feed
        logits = forward(model, cache, feed)[-1]
    return out, p
