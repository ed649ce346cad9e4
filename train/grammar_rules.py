"""Grammar variants measured against core/grammar.py without changing it: patched in for one process.

`no-tags-in-gen`: a gen body may not contain "<copy" or "<gen>" (untrained models type copy tags inside
gens and run to the token cap). In core/grammar.py it is this one-line change of the gen lexeme:

    _GEN = 'gen[lazy]: /<gen>(?s:.)*<\\/gen>/ & ~/<gen>(?s:.)*(<copy|<gen>)(?s:.)*/'

(llguidance intersects the lazy gen lexeme with the complement of "a body containing <copy or <gen>".)
"""
import contextlib

GEN_RULES = {
    "default": None,
    "no-tags-in-gen": 'gen[lazy]: /<gen>(?s:.)*<\\/gen>/ & ~/<gen>(?s:.)*(<copy|<gen>)(?s:.)*/',
    # also "<gen/>", "<gen " ...: an untrained 0.5B routes around the rule above by writing "<gen/>"
    "no-tag-prefixes-in-gen": 'gen[lazy]: /<gen>(?s:.)*<\\/gen>/ & ~/<gen>(?s:.)*(<copy|<gen)(?s:.)*/',
}


@contextlib.contextmanager
def gen_rule(name: str):
    """Use the named gen lexeme for every grammar built inside the block."""
    from copy_as_decode.core import grammar
    if name not in GEN_RULES:
        raise ValueError(f"unknown gen rule {name!r}; choose one of {', '.join(GEN_RULES)}")
    saved = grammar._GEN
    if GEN_RULES[name] is not None:
        grammar._GEN = GEN_RULES[name]
    try:
        yield
    finally:
        grammar._GEN = saved
