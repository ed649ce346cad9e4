"""Grammar variants measured against core/grammar.py without changing its default: patched in for one process.

`no-tags-in-gen`: a gen body may not contain "<copy" or "<gen>" (untrained models type copy tags inside
gens and run to the token cap). In core/grammar.py it is this one-line change of the gen lexeme:

    _GEN = 'gen[lazy]: /<gen>(?s:.)*<\\/gen>/ & ~/<gen>(?s:.)*(<copy|<gen>)(?s:.)*/'

(llguidance intersects the lazy gen lexeme with the complement of "a body containing <copy or <gen>".)

`cover-to-end`: the program may end only after a gen or after a copy that reaches the last line
(`_ordered(n, end_after_any_copy=False)`); models stop after a copy of the first lines.
"""
import contextlib
import functools

_NO_TAGS = 'gen[lazy]: /<gen>(?s:.)*<\\/gen>/ & ~/<gen>(?s:.)*(<copy|<gen>)(?s:.)*/'
# also "<gen/>", "<gen " ...: an untrained 0.5B routes around the rule above by writing "<gen/>"
_NO_TAG_PREFIXES = 'gen[lazy]: /<gen>(?s:.)*<\\/gen>/ & ~/<gen>(?s:.)*(<copy|<gen)(?s:.)*/'

# name -> (gen lexeme or None for the default, end after any copy)
GRAMMAR_RULES = {
    "default": (None, True),
    "no-tags-in-gen": (_NO_TAGS, True),
    "no-tag-prefixes-in-gen": (_NO_TAG_PREFIXES, True),
    "cover-to-end": (None, False),
}


@contextlib.contextmanager
def grammar_rule(name: str):
    """Use the named variant for every grammar built inside the block."""
    from copy_as_decode.core import grammar
    if name not in GRAMMAR_RULES:
        raise ValueError(f"unknown grammar rule {name!r}; choose one of {', '.join(GRAMMAR_RULES)}")
    gen, end_after_any_copy = GRAMMAR_RULES[name]
    saved = grammar._GEN, grammar._ordered
    grammar._GEN = gen or saved[0]
    grammar._ordered = functools.partial(saved[1], end_after_any_copy=end_after_any_copy)
    try:
        yield
    finally:
        grammar._GEN, grammar._ordered = saved
