"""The two decode loops, in the style of gpt-fast's generate.py.

decode_program: the model writes a copy/gen program under the grammar; when a copy tag closes, the copied
lines' tokens join the next forward, so N copied tokens cost ONE forward instead of N decode steps.

decode_rewrite: the model rewrites the file; a drafter proposes the input lines that come next and the same
kind of parallel forward verifies them against the model's own greedy choice, so the output is exactly
greedy full regeneration (drafter=None is that plain regeneration).
"""
import numpy as np

from copy_as_decode.core.codec import copied_ids
from copy_as_decode.core.contract import CAP, CONTEXT, EOS, FENCE, Hooks
from copy_as_decode.core.program import Copy
from copy_as_decode.engine.backends.decode_backend import DecodeBackend
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.decoding.text_stream import TextStream
from copy_as_decode.engine.prompts.prompt import text_ids


def masked(logits: np.ndarray, allowed: np.ndarray | None) -> np.ndarray:
    return logits if allowed is None else np.where(allowed, logits, -np.inf)


def softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits.astype(np.float64) - logits.max())
    return p / p.sum()


def choose(logits: np.ndarray, allowed: np.ndarray | None, temperature: float) -> int:
    """Greedy at temperature 0, else sampled (numpy's global generator: np.random.seed repeats a run)."""
    logits = masked(logits, allowed)
    if temperature <= 0:
        return int(logits.argmax())
    cumulative = np.cumsum(softmax(logits / temperature))
    return int(min(np.searchsorted(cumulative, np.random.random() * cumulative[-1], side="right"), len(logits) - 1))


def decode_program(backend: DecodeBackend, tok, prompt, lines, constraint, tracker, eos, *, max_new_tokens,
                   temperature=0.0, forced: list[int] | None = None, context: int | None = None, hooks=Hooks(),
                   splice: bool = True) -> Stats:
    """Decode a program into `tracker` (forced: feed these tokens instead of choosing; they must obey the grammar;
    the backend's sequence is a prefix of `prompt`, as `backend.start(prompt)` leaves it, or empty; context: the
    model's positions, which copied lines fill too, unlike the sampled-token budget; splice=False: a copy's lines
    are not fed, the model having read them in its prompt)."""
    stats, stream = Stats(prompt_tokens=len(prompt), budget=max_new_tokens), TextStream(tok)
    with stats.timed("prefill_s"):
        logits = backend.step(prompt[backend.length():])
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
        if context is not None and backend.length() + len(feed) > context:
            stats.stop = CONTEXT
            break
        with stats.timed("splice_s" if len(feed) > 1 else "decode_s"):
            logits = backend.step(feed)
        stats.forwards += 1
        hooks.progress(stats, tracker.text)
    return stats


def decode_rewrite(backend: DecodeBackend, tok, prompt, eos, closed, *, drafter=None, max_new_tokens, hooks=Hooks()):
    """Greedy rewrite until EOS, `closed(text)` (the fence) or the token cap; returns (token ids, text, stats).
    The backend's sequence: as for decode_program."""
    stats, stream, out = Stats(prompt_tokens=len(prompt), budget=max_new_tokens), TextStream(tok), []
    with stats.timed("prefill_s"):
        token = int(backend.step(prompt[backend.length():]).argmax())
    stats.forwards += 1
    while not (stop := EOS if token == eos else FENCE if closed(stream.text) else
               CAP if len(out) >= max_new_tokens else ""):
        hooks.check()
        stream.push([token])
        draft = drafter.propose(stream.text)[: max_new_tokens - len(out) - 1] if drafter else []
        with stats.timed("splice_s" if draft else "decode_s"):
            greedy = backend.check([token] + draft)
        accepted = next((i for i, (d, g) in enumerate(zip(draft, greedy)) if d != g), len(draft))
        if accepted < len(draft):  # drop the rejected tail; the model's own token replaces it
            backend.crop(backend.length() - (len(draft) - accepted))
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


def decode_choice(backend: DecodeBackend, prompt, constraint, eos, *, max_tokens=64,
                  hooks=Hooks()) -> tuple[list[int], float]:
    """Greedy decode of one of a grammar's alternatives (a name from a list); returns its tokens and the
    probability the model gave that path among what the grammar allowed at each step (its confidence).
    The backend's sequence: as for decode_program."""
    logits, out, p = backend.step(prompt[backend.length():]), [], 1.0
    while len(out) < max_tokens and not constraint.stopped():
        hooks.check()
        probs = softmax(masked(logits, constraint.allowed()))
        token = int(probs.argmax())
        if token == eos:
            break
        p *= float(probs[token])
        feed = [token] + constraint.consume(token)  # with the tokens the grammar then forces
        out += feed
        logits = backend.step(feed)
    return out, p
