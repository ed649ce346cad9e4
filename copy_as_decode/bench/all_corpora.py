"""Every corpus by name: those read from files (bench/corpora.py) and those built from them, the locate corpora
(bench/locate_corpus.py) and the structural ones (bench/structural_corpus.py). Apart from bench/corpora.py,
which the builders read their cases with."""
from .corpora import LOCATE_CORPORA, STRUCTURAL_CORPORA, Case
from .corpora import load as load_read
from .locate_corpus import build
from .structural_corpus import load as structural


def load(name: str) -> list[Case]:
    if name in LOCATE_CORPORA:
        return build("python" if name == "locate-python" else "javascript")
    if name in STRUCTURAL_CORPORA:
        return structural(name)
    return load_read(name)
