"""The llguidance (Lark) grammar of the programs the model may write for a document of n lines.

Accepted: gens `<gen>TEXT</gen>` (TEXT without "</gen>") and copies `<copy lines="I-J"/>` with
1 <= I <= J <= n, numbers without leading zeros, each copy starting after the previous copy's end;
an optional single "\\n" between items; nothing before the first item or after the last (the program
ends with EOS). CopySpan is not offered to the model.

Order lives in a 64-bit rule parameter: `item::L` means "lines 1..L are spent". A number is spelled digit
by digit through a decimal trie with one rule per prefix; each digit is guarded by "some number in this
subtree is still allowed", so the model never enters a dead end. Leaf numbers skip their own rule.
Finishing a number hands its value on through a non-parametric "trampoline" rule, since a literal
parameter directly inside a recursive parametric rule panics in llguidance 1.9.1.

The gen item is core/gen_grammar.py's GBNF, the rules core/gbnf.py sends to remote engines, converted by
llguidance.gbnf_to_lark into one lexeme GEN; `Rule.gens` says what a body may hold, as there. With bounded gens
(`GenRule.lines`) a gen is never followed by another gen, as in core/gbnf.py.

With `Rule.moves` the grammar also offers moved copies `<copy lines="I-J" indent="S"/>` (core/program.py):
any 1 <= I <= J <= n, S one of 0, +1..+16, -1..-16, wherever an in-order copy may start and also once every
line is spent; they leave L as it was. The parameter then packs two numbers: bits 0-31 hold L, bits 32-63
the moved copy's start I while its end is spelled (the end trie compares those bits with J); L comes
back unpacked before the next item, whose guard compares all 64 bits. The moved copies add a third to the
grammar's symbols: above MOVES_MAX_LINES lines `moves` is dropped (the plain ordered grammar), and the bounded
grammar above NUMBERED_GRAMMAR_MAX_LINES never offers them.

Rules (`RULES`, measured in docs/training.md; `default` is what the engine uses unless told otherwise):
  no-tags-in-gen          a gen body may not contain "<copy" or "<gen>" (untrained models type copy tags
                          inside gens and run to the token cap)
  no-tag-prefixes-in-gen  also "<gen/>", "<gen " ... (an untrained 0.5B routes around the rule above); the
                          remote engine's default body (core/gen_grammar.py TAGS)
  cover-to-end            the program may end only after a gen or after a copy that reaches the last line
                          (models stop after a copy of the first lines)
  moves                   also moved copies (above); not the default: offered ` indent="`, the untrained 0.5B
                          and 1.5B write it after copies they mean to close, and programs ran to the token cap
"""
import functools
from dataclasses import dataclass, replace

import llguidance
from llguidance.gbnf_to_lark import gbnf_to_lark

from . import gen_grammar
from .gbnf import SHIFT_MAX
from .gen_grammar import TAGS, GenRule

# llguidance caps grammar symbols below 65,535; this layout uses ~6.2 per line and failed at 10,570 lines,
# ~8.4 with moved copies, which failed above 7,790.
NUMBERED_GRAMMAR_MAX_LINES = 10_000
MOVES_MAX_LINES = 7_500

_OPEN = '"<copy lines=\\""'
_LOW = (1 << 32) - 1  # the low half of the parameter: L


@dataclass(frozen=True)
class Rule:
    gens: GenRule = GenRule()
    end_after_any_copy: bool = True
    moves: bool = False  # offer moved copies `<copy lines="I-J" indent="S"/>` (up to MOVES_MAX_LINES lines)


DEFAULT_RULE = "default"
RULES = {
    DEFAULT_RULE: Rule(),
    "no-tags-in-gen": Rule(GenRule(("<copy", "<gen>"))),
    "no-tag-prefixes-in-gen": Rule(GenRule(TAGS)),
    "cover-to-end": Rule(end_after_any_copy=False),
    "moves": Rule(moves=True),
}


def rule(name: str | Rule) -> Rule:
    """The RULES entry `name` (a Rule stands for itself)."""
    if isinstance(name, Rule):
        return name
    if name not in RULES:
        raise ValueError(f"unknown grammar rule {name!r}; choose one of {', '.join(RULES)}")
    return RULES[name]


def program_grammar(n_lines: int, rule_name: str | Rule = "default") -> str:
    r = rule(rule_name)
    if n_lines == 0:
        gens = "GEN" if r.gens.lines is not None else 'GEN ("\\n"? GEN)*'
        return "\n".join([f'start: "" | {gens}', *_gen(r.gens)]) + "\n"
    if n_lines > NUMBERED_GRAMMAR_MAX_LINES:
        return _bounded(n_lines, r)
    return _ordered(n_lines, r if n_lines <= MOVES_MAX_LINES else replace(r, moves=False))


@functools.lru_cache(maxsize=16)
def _gen(gens: GenRule) -> tuple[str, ...]:
    """The Lark terminal GEN (and the terminals it is built of) from core/gen_grammar.py's GBNF."""
    lark = gbnf_to_lark("root ::= gen\n" + "\n".join(gen_grammar.rules(gens)) + "\n")
    return tuple(line for line in lark.splitlines() if line.strip() and not line.startswith(("%llguidance", "start:")))


def program_matcher(tokenizer, n_lines: int, rule_name: str | Rule = "default"):
    """A fresh llguidance.LLMatcher for `tokenizer` (an llguidance.LLTokenizer, e.g. from
    llguidance.hf.from_tokenizer with the chat end token as EOS). Compiling takes ~0.15 s at 1,000 lines and
    1-4 s at 10,000; deep_copy() of a compiled matcher is ~0.1 ms. After a rejected token the matcher stays in
    error even through reset(): start again from a new matcher or a deep_copy() of a pristine one.
    """
    matcher = llguidance.LLMatcher(tokenizer, program_grammar(n_lines, rule_name),
                                   limits=llguidance.LLParserLimits(verbose_errors=False))
    if matcher.is_error():
        raise ValueError(f"grammar for {n_lines} lines rejected by llguidance: {matcher.get_error()}")
    return matcher


def _bounded(n: int, r: Rule) -> str:
    """Above the symbol limit: numbers 1..n as one regex lexeme, order left to the resolver."""
    items = ['start: "" | item ("\\n"? item)*', "item: GEN | copy"]
    if r.gens.lines is not None:  # no gen after a gen
        items = ['start: "" | GEN | (GEN "\\n"?)? copy ("\\n"? (GEN "\\n"?)? copy)* ("\\n"? GEN)?']
    return "\n".join(items + [
        f'copy: {_OPEN} NUM "-" NUM "\\"/>"',
        f"NUM: /{_number_regex(n)}/",
        *_gen(r.gens),
    ]) + "\n"


def _number_regex(n: int) -> str:
    """1..n without leading zeros: shorter numbers, then n's length digit by digit below n, then n."""
    s = str(n)
    alts = [f"[1-9][0-9]{{0,{len(s) - 2}}}"] if len(s) > 1 else []
    for i, digit in enumerate(s):
        low = 1 if i == 0 else 0
        if int(digit) > low:
            below = str(low) if int(digit) == low + 1 else f"[{low}-{int(digit) - 1}]"
            alts.append(f"{s[:i]}{below}[0-9]{{{len(s) - i - 1}}}")
    return "|".join(alts + [s])


def _ordered(n: int, r: Rule) -> str:
    """Parameter of item/tail: the last line copied so far (L). Start trie `s…::L` allows a start I > L;
    end trie `e…::I` allows an end J >= I; then the program goes on with L = J.
    r.end_after_any_copy=False: a program may end after a gen or after a copy of line n, not after a copy
    that stops short (tail deletion is then written with a final empty gen).
    r.moves: a moved copy may start wherever a copy may, and even once every line is spent: start trie
    `ms…::L` (any I), end trie `me…::(I << 32 | L)` (J >= I), then the program goes on with L (and under
    end_after_any_copy=False may end there only if L = n)."""
    starts = [f"{_OPEN} s::_ %if lt(_, {n})"]  # a copy only while a line remains
    if r.moves:
        starts.append(f"{_OPEN} ms::_")
    bounded = r.gens.lines is not None
    rules = [
        'start: "" | item::0',
        f"item::_ : GEN {'aftergen' if bounded else 'tail'}::_ | " + " | ".join(starts),
        'tail::_ : "" | more::_',
        'more::_ : item::_ | "\\n" item::_',
        *_gen(r.gens),
    ]
    if bounded:  # after a gen, a copy or the end
        rules.append('aftergen::_ : "" | ' + " | ".join(starts + [f'"\\n" {start}' for start in starts]))
    for q in range(n + 1):
        if q == 0 or q * 10 <= n:  # inner trie node: its own rule (leaves are reached straight from the parent)
            rules.append(_node("s", q, n, "lt(_, {})", "s{}_done"))
            rules.append(_node("e", q, n, "le(_, {})", "e{}_done"))
            if r.moves:
                # bit_or/bit_and stand in these many-alternative rules: llguidance 1.9.1 inlines a one-rule rule
                # without condition into its only user, and then panics or silently drops an expression
                # parameter (`x::_ : y::bit_and(v)` hands y x's parameter unchanged)
                rules.append(_node("ms", q, n, None, "mdash::bit_or({})", shift=32))
                rules.append(_node("me", q, n, "le([32:64], {})", f"mclose::bit_and({_LOW})"))
        if q:
            rules.append(f's{q}_done : "-" e::{q}')
            after = "tail" if r.end_after_any_copy or q == n else "more"
            rules.append(f'e{q}_done : "\\"/>" {after}::{q}')
    if r.moves:
        close = '"\\" indent=\\"" SHIFT "\\"/>"'
        rules += [
            'mdash::_ : "-" me::_',  # one "-" for all starts: each literal occurrence is a grammar symbol
            f"mclose::_ : {close} tail::_" if r.end_after_any_copy else
            f"mclose::_ : {close} tail::_ %if eq(_, {n}) | {close} more::_ %if lt(_, {n})",
            f"SHIFT: /0|[-+]({_number_regex(SHIFT_MAX)})/",
        ]
    return "\n".join(rules) + "\n"


def _node(trie: str, q: int, n: int, test: str | None, done: str, shift: int = 0) -> str:
    """Rule for the numbers with decimal prefix q (q = 0: the empty prefix). `test` formats the condition
    that the number v may be chosen (None: any may): lt (start > L), le (end >= I); a child is allowed if
    its largest number <= n is. `done` formats what follows a complete number v (given as v << shift)."""
    def cond(v: int) -> str:
        return f" %if {test.format(v)}" if test else ""

    alts = [done.format(q << shift) + cond(q)] if q else []
    for digit in range(0 if q else 1, 10):
        child = q * 10 + digit
        if child > n:
            break
        target = f"{trie}{child}::_" if child * 10 <= n else done.format(child << shift)
        alts.append(f'"{digit}" {target}' + cond(_largest_with_prefix(child, n)))
    name = f"{trie}{q}::_" if q else f"{trie}::_"
    return f"{name} : " + " | ".join(alts)


def _largest_with_prefix(q: int, n: int) -> int:
    """The largest number <= n whose decimal spelling starts with q's (q <= n)."""
    best, hi = q, q
    while q * 10 <= n:
        q, hi = q * 10, hi * 10 + 9
        best = min(n, hi)
    return best
