"""The llguidance side of grammar decoding: one tokenizer index per tokenizer, one matcher per document.
Masks are numpy boolean arrays over the model's vocabulary (llguidance.numpy: no torch)."""
import functools

import llguidance
import llguidance.numpy
import numpy as np

from copy_as_decode.core.grammar import DEFAULT_RULE, program_grammar
from copy_as_decode.engine.backends.models import eos_id


class GrammarError(RuntimeError):
    pass


@functools.lru_cache(maxsize=4)
def token_index(tok, n_vocab: int) -> llguidance.LLTokenizer:
    """llguidance's index of a Hugging Face tokenizer's vocabulary (~1 s; it holds its own copy of the
    tokenizer, so the llama.cpp engine builds one from its model's vocabulary instead)."""
    import llguidance.hf  # imports transformers: only a Hugging Face tokenizer comes here
    return llguidance.hf.from_tokenizer(tok, n_vocab=n_vocab, eos_token=eos_id(tok))


@functools.lru_cache(maxsize=4)
def crosses_tag_end(tok, n_vocab: int) -> np.ndarray:
    """Tokens with text after a "/>" (e.g. `"/><`): outside gen bodies they are banned so a copy tag always
    ends exactly at a token boundary, where the copied lines can be spliced in."""
    # Byte-level BPE spells "/" and ">" as themselves in the raw token strings, so no decode is needed.
    bad = np.zeros(n_vocab, dtype=bool)
    for i, s in enumerate(tok.convert_ids_to_tokens(list(range(len(tok))))):
        k = s.find("/>") if s else -1
        bad[i] = k >= 0 and k + 2 < len(s)
    return bad


class Constraint:
    """Masks logits so that the sampled text stays in an llguidance (lark) grammar."""

    def __init__(self, tok, n_vocab: int, grammar: str, index: llguidance.LLTokenizer | None = None):
        self.n_vocab = n_vocab
        self.matcher = llguidance.LLMatcher(token_index(tok, n_vocab) if index is None else index, grammar,
                                            limits=llguidance.LLParserLimits(verbose_errors=False))
        if self.matcher.is_error():
            raise GrammarError(self.matcher.get_error())
        self.bitmask = llguidance.numpy.allocate_token_bitmask(1, n_vocab)

    def allowed(self, outside_gen: bool = False) -> np.ndarray:
        """The tokens the grammar allows next, as a boolean array over the vocabulary."""
        llguidance.numpy.fill_next_token_bitmask(self.matcher, self.bitmask)
        # bit b of int32 word w is token 32w+b: the words' little-endian bytes, unpacked least significant first
        return np.unpackbits(self.bitmask[0].view(np.uint8), bitorder="little")[: self.n_vocab].view(bool)

    def consume(self, token: int, fast_forward: bool = True) -> list[int]:
        """Consume a chosen token; with fast_forward, also the tokens the grammar now forces (returned)."""
        if not self.matcher.consume_token(token):
            raise GrammarError(f"token {token} rejected: {self.matcher.get_error()}")
        forced = self.matcher.compute_ff_tokens() if fast_forward else []
        if forced and not self.matcher.consume_tokens(forced):
            raise GrammarError(self.matcher.get_error())
        return forced

    def stopped(self) -> bool:
        return self.matcher.is_stopped()


class ProgramConstraint(Constraint):
    """Masks logits so that every sampled program parses and its line numbers fit the document."""

    def __init__(self, tok, n_vocab: int, n_lines: int, rule: str = DEFAULT_RULE,
                 index: llguidance.LLTokenizer | None = None):
        super().__init__(tok, n_vocab, program_grammar(n_lines, rule), index)
        self.tag_end = crosses_tag_end(tok, n_vocab)

    def allowed(self, outside_gen: bool) -> np.ndarray:
        ok = super().allowed()
        return ok & ~self.tag_end if outside_gen else ok

    def require(self, token: int, allowed: np.ndarray) -> int:
        """A token chosen by the caller (forced-program mode) must still be one the grammar allows."""
        if not allowed[token]:
            raise GrammarError(f"token {token} is not allowed by the program grammar here")
        return token
