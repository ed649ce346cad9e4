"""The tree-sitter parser of each language that has one, built once: outlines (core/outline.py), the parse
check (core/syntax_check.py), statements and identifiers (core/windows.py, core/deletions.py) all read trees
from here."""
from functools import lru_cache


def _javascript():
    import tree_sitter_javascript
    return tree_sitter_javascript.language()


GRAMMARS = {"javascript": _javascript}  # language name -> the grammar wheel's language object


@lru_cache(maxsize=None)
def parser(language: str | None):
    """The tree-sitter parser for `language`; None when none is installed for it."""
    grammar = GRAMMARS.get(language or "")
    if grammar is None:
        return None
    import tree_sitter
    return tree_sitter.Parser(tree_sitter.Language(grammar()))


def parse(text: str, language: str | None):
    """`text`'s tree-sitter tree as `language`; None when no parser reads that language."""
    p = parser(language)
    return None if p is None else p.parse(text.encode())
