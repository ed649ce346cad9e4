"""The edit engine over HTTP: the same `edit()` as engine/local.py's, run on an inference server the user already has.

The local engine splices copied lines into its KV cache. Here the splice becomes prefix-cached continuation:
the engine decodes the program under a GBNF grammar (core/gbnf.py) until a copy tag closes (stop string
`"/>`), then the next completion's prompt is the previous prompt + the program so far + the copied lines'
tokens, and the engine's prefix cache prefills only the new tokens. Prompts go as token ids built with the
local tokenizer and chat template, so prefixes match exactly; a probe at start-up checks that the engine
tokenizes like the local tokenizer. The requests themselves are engine/remote/wire.py's, in the server's dialect
(engine/remote/dialects.py).

Nothing is applied until the whole edit has succeeded, so a repeated request never applies an edit twice.
"""
import os
from dataclasses import dataclass, field

from copy_as_decode.core import gbnf
from copy_as_decode.core.codec import copied_ids, pieces
from copy_as_decode.core.contract import CAP, EOS, FENCE
from copy_as_decode.core.program import Copy, Gen, format_item
from copy_as_decode.engine.backends.models import eos_id, load_tokenizer
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.decoding.text_stream import TextStream
from copy_as_decode.engine.decoding.tracker import ProgramTracker
from copy_as_decode.engine.front import EditFront
from copy_as_decode.engine.options import DEFAULT_MODEL, ENDPOINT_ENV, REQUEST_TIMEOUT
from copy_as_decode.engine.remote.dialects import Completion
from copy_as_decode.engine.remote.wire import (  # noqa: F401  (importable with the rest of the backend)
    APIS,
    EngineTimeout,
    EngineUnreachable,
    GrammarRefused,
    ModelMismatch,
    RemoteError,
    Wire,
)

STOP_COPY = gbnf.COPY_CLOSE
# Lines a gen body may hold beyond those of the instruction (which may carry code to insert). Gold programs
# of HumanEvalFix (Python, JS) and the prose edits never gen more than 10 lines (docs/scale-out.md).
GEN_LINES = 16
# Code, indentation, CRLF, accents, CJK, emoji and the chat-template tokens: tokenizers that differ anywhere
# that matters for prompts almost surely differ here.
PROBE = ("def f(x):\n    return x + 1  # ünïcödé ✓ 数字 🙂 0123456789\r\n\t<copy lines=\"12-34\"/><gen>"
         "</gen>\n<|im_start|>assistant\n<|im_end|>")


def _allowed(copy: Copy, last: int, n: int) -> bool:
    """Whether the grammar allows `copy` once lines 1..last of n are spent: a moved copy takes any lines."""
    return (1 if copy.moved else last + 1) <= copy.start <= copy.end <= n


@dataclass
class _Run:
    stats: Stats
    seq: list[int]                              # everything the engine has seen: prompt, program, copied lines
    program: list[int] = field(default_factory=list)
    requests: int = 0


class RemoteEngine(EditFront):
    """engine.front's `edit()`, decoding on a llama.cpp / OpenAI-compatible completion endpoint.

    `verified` and `full` are the same greedy rewrite request: drafting from the document is the engine's own
    speculative decoding (llama-server `--spec-type ngram-simple`, bench/llama_server.py), which keeps the
    output its greedy one. `gen_lines` bounds generated gens (core/gbnf.py; None: unbounded); `tags_in_gen`
    lets gen bodies hold "<copy" and "<gen"."""

    def __init__(self, endpoint: str | None = None, model: str = DEFAULT_MODEL, *, api: str = "auto",
                 api_key: str | None = None, timeout: float = REQUEST_TIMEOUT, retries: int = 2, tokenizer=None,
                 served_model: str | None = None, grammar_param: str | None = None, verify_tokenizer: bool = True,
                 gen_lines: int | None = GEN_LINES, tags_in_gen: bool = False):
        endpoint = endpoint or os.environ.get(ENDPOINT_ENV)
        if not endpoint:
            raise ValueError(f"--inference remote needs an endpoint: --endpoint URL or ${ENDPOINT_ENV}")
        tok = tokenizer if tokenizer is not None else load_tokenizer(model)
        self.eos = eos_id(tok)
        # Programs end with the chat end token only, as under the local grammar; engines also end on the other
        # end-of-generation tokens (Qwen: <|endoftext|>, <|file_sep|>, ...), which a model may rank higher.
        self._other_specials = sorted({i for i, t in tok.added_tokens_decoder.items() if t.special} - {self.eos})
        self.wire = Wire(endpoint, api=api, api_key=api_key, timeout=timeout, retries=retries,
                         served_model=served_model, model=model, grammar_param=grammar_param,
                         eog={self.eos, tok.eos_token_id, tok.pad_token_id} - {None})
        # trained: never, the engine's own programs ran slower than its rewrite (docs/scale-out.md)
        super().__init__(tok, self.wire.context, trained=False)
        self.base, self.api = self.wire.base, self.wire.api
        self.served_model = self.wire.served_model
        self.model_name = f"{self.served_model} @ {self.base}"
        self.speculative = self.wire.speculative()
        self.gen_lines, self.tags_in_gen = gen_lines, tags_in_gen
        self.device, self.dtype = f"remote ({self.api})", "remote"
        self.tokenizer_verified = self._verify_tokenizer() if verify_tokenizer else False

    # ---- programs ------------------------------------------------------------------------------------------

    def _decode_program(self, plan):
        if plan.forced is not None:
            return self._forced(plan.ids, plan.lines, plan.forced, plan.hooks)
        # lines of the instruction (code to insert) raise the edit's gen bound
        gen_lines = None if self.gen_lines is None else self.gen_lines + plan.request.instruction.count("\n")
        return self._grammar(plan.ids, plan.lines, plan.budget.limit, plan.request.temperature, plan.hooks, gen_lines,
                             plan.splice)

    def _grammar(self, ids, lines, max_new_tokens, temperature, hooks, gen_lines, splice):
        run = _Run(Stats(prompt_tokens=len(ids), budget=max_new_tokens, stop=CAP), list(ids))
        tracker, stream = ProgramTracker(), TextStream(self.tok)
        while run.stats.sampled < max_new_tokens:
            hooks.check()
            state = self._state(tracker)
            try:
                grammar = gbnf.request_grammar(len(lines), state, gen_lines=gen_lines, tags_in_gen=self.tags_in_gen)
            except gbnf.ProgramStateError as e:
                raise GrammarRefused(f"the engine wrote a program its grammar does not allow: {e}") from None
            c = self._complete(run, max_new_tokens - run.stats.sampled, temperature, grammar, [STOP_COPY],
                               ban=self._other_specials)
            if c.stop == "stop":
                self._settle_stop(run, c, tracker)
            with self.tok_lock:
                piece = stream.push(c.tokens)
            run.program += c.tokens
            run.stats.sampled += len(c.tokens)
            self._splice(run, tracker.feed(piece), lines, state, splice)
            hooks.progress(run.stats, tracker.text)
            if c.stop == "limit":
                break
            after = self._state(tracker)
            if c.stop == "eos" and after.kind != "copy_end":  # the second half of a split copy goes on
                if after.kind != "between" or after.newline:
                    raise GrammarRefused(f"the engine ended the program inside an item ({tracker.text[-60:]!r}): "
                                         f"it does not apply the grammar")
                run.stats.stop = EOS
                break
            if not c.tokens:
                raise RemoteError(f"the engine stopped ({c.stop}) without producing a token")
        return tracker.items, run.stats

    def _settle_stop(self, run: _Run, c: Completion, tracker: ProgramTracker) -> None:
        """An ambiguous "stop": under the grammar an end of sequence comes only between items or after a split
        copy's "-"; anywhere else the `"/>` stop string fired and was cut from the text."""
        probe = ProgramTracker()
        probe.feed(tracker.text + c.text)
        try:
            state = gbnf.state_after(probe.items, probe.text[probe.done:], self.tags_in_gen)
            eos = (state.kind == "between" and not state.newline) or state.kind == "copy_end"
        except gbnf.ProgramStateError:
            eos = False
        if eos:
            c.stop = "eos"
            return
        del run.seq[len(run.seq) - len(c.tokens):]
        c.text += STOP_COPY
        c.tokens = self.encode(c.text)
        run.seq += c.tokens
        c.stop = "word"

    def _state(self, tracker: ProgramTracker) -> gbnf.State:
        try:
            return gbnf.state_after(tracker.items, tracker.text[tracker.done:], self.tags_in_gen)
        except gbnf.ProgramStateError as e:
            raise GrammarRefused(f"the engine wrote text outside the program grammar: {e}") from None

    def _splice(self, run: _Run, completed, lines: list[str], state: gbnf.State, splice: bool = True) -> None:
        """Copies that just closed: check them against the grammar, then append their lines' tokens (unless
        `splice` is False: the model read them in its prompt)."""
        last = state.last
        for item in completed:
            if isinstance(item, Copy):
                if not _allowed(item, last, len(lines)):
                    raise GrammarRefused(f"the engine wrote {format_item(item)} after line {last} of "
                                         f"{len(lines)}: it does not apply the grammar")
                last = last if item.moved else item.end
                copied = copied_ids(self.encode, lines, item) if splice else []
                run.seq += copied
                run.stats.spliced += len(copied)

    def _forced(self, ids, lines, items, hooks):
        """Feed a given program: each copy closes a request whose prompt ends with the copy tag, and the copied
        lines open the next one, so the engine's prefix cache does exactly the work a generated program's
        splices would. The program must be one the grammar allows (in range, in order, no span copies)."""
        last = 0
        for k, item in enumerate(items, 1):
            if isinstance(item, Copy):
                if not _allowed(item, last, len(lines)):
                    raise gbnf.ProgramStateError(f"program outside the grammar: item {k} {format_item(item)} "
                                                 f"after line {last} of {len(lines)}")
                last = last if item.moved else item.end
            elif not isinstance(item, Gen):
                raise gbnf.ProgramStateError(f"program outside the grammar: item {k} is a span copy")
        run = _Run(Stats(prompt_tokens=len(ids)), list(ids))
        for item, toks, copied in pieces(self.encode, items, lines):
            hooks.check()
            run.seq += toks
            run.program += toks
            run.stats.sampled += len(toks)
            if isinstance(item, Copy):
                self._complete(run, 0, 0.0, None, [])  # evaluates up to the tag, as decoding it would have
                run.seq += copied
                run.stats.spliced += len(copied)
                hooks.progress(run.stats, "")
        self._complete(run, 0, 0.0, None, [])
        run.stats.stop, run.stats.budget = EOS, run.stats.sampled
        return items, run.stats

    # ---- rewrites ------------------------------------------------------------------------------------------

    def _decode_rewrite(self, plan):
        run, hooks = _Run(Stats(prompt_tokens=len(plan.ids), budget=plan.budget.limit), list(plan.ids)), plan.hooks
        hooks.check()
        close = "\n" + plan.fence + "\n"  # engines leave the stop string out of the text
        c = self._complete(run, plan.budget.limit, 0.0, None, [close])
        # "stop": llama-server's OpenAI route does not say whether the fence or the end token stopped it.
        run.stats.stop = {"eos": EOS, "word": FENCE, "stop": FENCE}.get(c.stop, CAP)
        # As locally: tokens the engine's drafts supplied are spliced, the rest sampled one forward each.
        run.stats.spliced, run.stats.drafted = c.draft_accepted, c.draft_n
        run.stats.sampled = len(c.tokens) - c.draft_accepted
        with self.tok_lock:
            text = self.tok.decode(c.tokens)
        hooks.progress(run.stats, text)
        return c.tokens, text + (close if run.stats.stop == FENCE else ""), run.stats

    # ---- the engine ----------------------------------------------------------------------------------------

    def _complete(self, run: _Run, n_predict: int, temperature: float, grammar: str | None,
                  stop: list[str], ban: list[int] = ()) -> Completion:
        """One completion continuing `run.seq`; its tokens are appended to run.seq and its costs to the stats."""
        c = self.complete(run.seq, n_predict, temperature=temperature, grammar=grammar, stop=stop, ban=ban)
        s = run.stats
        first = run.requests == 0
        run.requests += 1
        s.requests += 1
        s.remote_prompt_tokens += c.prompt_n if c.prompt_n is not None else len(run.seq)
        s.remote_cached_tokens += c.cache_n or 0
        s.forwards += 1 + max(len(c.tokens) - 1 - c.draft_accepted, 0)
        if c.prompt_ms is not None:
            setattr(s, "prefill_s" if first else "splice_s", getattr(s, "prefill_s" if first else "splice_s")
                    + c.prompt_ms / 1000)
            s.decode_s += (c.predicted_ms or 0.0) / 1000
        else:
            setattr(s, "prefill_s" if first else "decode_s", getattr(s, "prefill_s" if first else "decode_s")
                    + c.wall_s)
        run.seq += c.tokens
        return c

    def complete(self, prompt_ids: list[int], n_predict: int, *, temperature: float = 0.0,
                 grammar: str | None = None, stop: list[str] = (), ban: list[int] = ()) -> Completion:
        """One raw completion on the engine (exposed for tests and benchmarks); `ban`: token ids never sampled."""
        c = self.wire.complete(prompt_ids, n_predict, temperature=temperature, grammar=grammar, stop=stop, ban=ban)
        if c.tokens is None:  # an OpenAI server without token ids: the text is all there is
            c.tokens = self.encode(c.text)
        return c

    def _verify_tokenizer(self) -> bool:
        """Compare the engine's tokenization of PROBE with the local tokenizer's; raise ModelMismatch if they differ."""
        with self.tok_lock:  # the probe's chat markers are special tokens on both sides
            local = self.tok.encode(PROBE, add_special_tokens=False)
        remote = self.wire.tokenize(PROBE)
        if remote is None:
            raise ModelMismatch(f"the engine at {self.base} has no /tokenize endpoint, so its tokenizer cannot be "
                                f"checked against the local one; skip the check with --no-tokenizer-check "
                                f"(verify_tokenizer=False)")
        if remote != local:
            k = next((i for i, (a, b) in enumerate(zip(local, remote)) if a != b), min(len(local), len(remote)))
            raise ModelMismatch(
                f"the engine at {self.base} ({self.served_model}) tokenizes differently from the local "
                f"tokenizer (first difference at token {k}: local {local[k:k + 3]}, engine {remote[k:k + 3]}); "
                f"serve the same model family or pass the matching --model for the local tokenizer")
        return True
