"""Where an instruction that names no symbol is about: the document's symbols ranked by BM25 (rank_bm25)
against the instruction's words and literals, as a developer would grep for them.

Identifiers are split into their words (`primary_key_note`, `primaryKeyNote` -> primary, key, note) and every
word is stemmed (snowballstemmer: "keys" and `key`, "raising" and `raise` meet), so "the composite primary key
notes" finds the function that builds one; string literals count like any other text.
The caller gives the symbols that may be a window (core/windows.py units: a method, not its class).
"""
import re
from dataclasses import dataclass
from functools import lru_cache

from .document import split_lines
from .outline import Symbol

TOP = 5       # candidates the model chooses among (core/windows.py)
MARGIN = 3.0  # a first hit this much better than the rest is taken without the model (set on the development
              # cases of synthesis/locate_corpus.py: every first hit at 2x or more was right there)
_QUOTED = re.compile(r"`([^`\n]+)`")
_MISSING = re.compile(r"\s*(is|are) (missing|absent|needed)|\s*(should|must) be (added|inserted)", re.I)
_TOKEN = re.compile(r"[A-Za-z]+|\d+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
# words of an instruction that say what to do, not where: they would match every symbol alike
STOP = frozenset("""a an the this that these those it its is are be been being was were to of in on at by for
with from as into onto and or not no nor but if then else when while so such than too very can could should
would must may might will shall do does did done make makes made fix fixes fixed bug bugs wrong instead please
should also only just get gets there here which who what where why how all any each every some one two""".split())


@lru_cache(maxsize=1)
def _stemmer():
    import snowballstemmer
    return snowballstemmer.stemmer("english")


def words(text: str) -> list[str]:
    """The stems of the lower-case words of `text`, identifiers split at underscores and case changes."""
    out = []
    for token in _TOKEN.findall(text):
        out += [w.lower() for w in _CAMEL.findall(token)] or [token.lower()]
    return _stemmer().stemWords(out)


_STOPS = frozenset(words(" ".join(STOP)))


@dataclass(frozen=True)
class Hit:
    symbol: Symbol
    quoted: int    # how many of the code snippets the instruction quotes the symbol holds
    score: float   # BM25 over the instruction's words


def rank(document: str, pool: list[Symbol], instruction: str, top: int = TOP) -> list[Hit]:
    """The `top` symbols that match the instruction best, best first: those that hold more of the code it
    quotes (`decoded.startswith(eol):`, `!=`), then by BM25 over its words; [] when nothing matches."""
    from rank_bm25 import BM25Okapi
    query = [w for w in words(instruction) if w not in _STOPS]
    if not pool:
        return []
    lines = split_lines(document)
    texts = ["".join(lines[s.start - 1:s.end]) for s in pool]
    # code said to be missing is not in the place to find (its words still count)
    quoted = {m.group(1) for m in _QUOTED.finditer(instruction) if m.group(1).strip()
              and not _MISSING.match(instruction, m.end())}
    held = [sum(q in text for q in quoted) for text in texts]
    scores = BM25Okapi([words(text) or ["-"] for text in texts]).get_scores(query) if query else [0.0] * len(pool)
    best = sorted(range(len(pool)), key=lambda k: (-held[k], -scores[k]))
    return [Hit(pool[k], held[k], float(scores[k])) for k in best[:top] if held[k] or scores[k] > 0]


def decisive(hits: list[Hit]) -> bool:
    """Whether the first hit needs no model to confirm it: it alone holds any of the quoted code (where a
    developer's grep lands, and nowhere else), or, with no code quoted, its words match MARGIN times better
    than any other's."""
    if not hits:
        return False
    if hits[0].quoted:
        return all(h.quoted == 0 for h in hits[1:])
    return hits[0].score >= MARGIN * max((h.score for h in hits[1:]), default=0.0)
