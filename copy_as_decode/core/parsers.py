"""The tree-sitter parser of each language that has one, built once: outlines (core/outline.py), the parse
check (core/syntax_check.py), statements and identifiers (core/windows.py, core/deletions.py) all read trees
from here. Each grammar is its own pinned wheel (requirements.txt; the choice is measured in docs/languages.md).
"""
from functools import cache
from importlib import import_module

# language name -> (the grammar wheel's module, the function in it that gives its language object)
GRAMMARS = {
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "lua": ("tree_sitter_lua", "language"),
    "bash": ("tree_sitter_bash", "language"),
}


@cache
def grammar(name: str | None):
    """The tree-sitter Language of `name`; None when no grammar reads it."""
    if name not in GRAMMARS:
        return None
    import tree_sitter
    module, function = GRAMMARS[name]
    return tree_sitter.Language(getattr(import_module(module), function)())


@cache
def parser(name: str | None):
    """The tree-sitter parser for `name`; None when none is installed for it."""
    found = grammar(name)
    if found is None:
        return None
    import tree_sitter
    return tree_sitter.Parser(found)


def parse(text: str, language: str | None):
    """`text`'s tree-sitter tree as `language`; None when no parser reads that language."""
    p = parser(language)
    return None if p is None else p.parse(text.encode())
