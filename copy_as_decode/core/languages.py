"""The languages edits know, each fact about them written once: a language's name, the file suffixes that mean
it (the CLI), the LSP languageIds editors send for it (the language server), and whether core/outline.py
reads its outline (the windowed edits, core/windows.py). A windowed edit is told a language by its name.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    name: str                       # what core/outline.py and an edit's `language` call it
    suffixes: tuple[str, ...]       # lower case, with the dot; the first is the usual one
    language_ids: tuple[str, ...]   # LSP languageIds
    outline: bool = True            # core/outline.py reads its outline


# in the order core/outline.py tries them on a document of no known language
LANGUAGES = (
    Language("python", (".py", ".pyi"), ("python",)),
    Language("javascript", (".js", ".cjs", ".mjs", ".jsx"), ("javascript", "javascriptreact")),
    Language("markdown", (".md", ".markdown"), ("markdown",)),
)

OUTLINED = tuple(lang.name for lang in LANGUAGES if lang.outline)


def named(name: str | None) -> Language | None:
    """The language called `name`; None for any other."""
    return next((lang for lang in LANGUAGES if lang.name == name), None)


def of_suffix(suffix: str) -> Language | None:
    """The language of a file name's suffix (`.py`, any case); None for any other."""
    return next((lang for lang in LANGUAGES if suffix.lower() in lang.suffixes), None)


def of_language_id(language_id: str | None) -> Language | None:
    """The language of an LSP languageId; None for any other."""
    return next((lang for lang in LANGUAGES if language_id in lang.language_ids), None)


def outline_name(language: Language | None) -> str | None:
    """The name to read `language`'s outline as (an edit's `language`), or None: read from the document."""
    return language.name if language is not None and language.outline else None
