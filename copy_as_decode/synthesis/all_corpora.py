"""Every corpus by name: those read from files (cases/corpora.py) and those built from them, the locate corpora
(synthesis/locate_corpus.py; synthesis/lang_corpus.py makes those of other languages from their shipped files) and
the structural ones (synthesis/structural_corpus.py). Here, above the builders, rather than in cases/corpora.py,
which the builders read their cases with."""
from copy_as_decode.cases.corpora import LANG_CORPORA, LOCATE_CORPORA, STRUCTURAL_CORPORA, Case
from copy_as_decode.cases.corpora import load as load_read
from copy_as_decode.synthesis import lang_corpus
from copy_as_decode.synthesis.locate_corpus import build
from copy_as_decode.synthesis.structural_corpus import load as structural


def load(name: str) -> list[Case]:
    if name in LANG_CORPORA:
        return lang_corpus.load(name)
    if name in LOCATE_CORPORA:
        return build("python" if name == "locate-python" else "javascript")
    if name in STRUCTURAL_CORPORA:
        return structural(name)
    return load_read(name)
