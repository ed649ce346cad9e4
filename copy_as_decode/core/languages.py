"""The languages edits know, each fact about them written once: a language's name, the file suffixes that mean
it (the CLI), the LSP languageIds editors send for it (the language server), and whether core/outline.py
reads its outline (the windowed edits, core/windows.py). A windowed edit is told a language by its name.
Each language here but Python and Markdown has a tree-sitter grammar in core/parsers.py and, but JavaScript,
its definitions in core/queries/NAME.scm (docs/languages.md).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    name: str                       # what core/outline.py and an edit's `language` call it
    suffixes: tuple[str, ...]       # lower case, with the dot; the first is the usual one
    language_ids: tuple[str, ...]   # LSP languageIds
    outline: bool = True            # core/outline.py reads its outline
    detected: bool = False          # core/outline.py tries it on a document of no known language
    extends: str | None = None      # the language whose every file it also reads (core/detect_language.py)
    statements: str = "{}"          # a file in which statements stand where `{}` is (a fragment read alone)
    before_use: bool = False        # a top-level function must come before the code that calls it (Lua's
                                    # `local function`, C's without a prototype, a shell's)


# those detected in the order core/outline.py tries them on a document of no known language
LANGUAGES = (
    Language("python", (".py", ".pyi"), ("python",), detected=True),
    Language("javascript", (".js", ".cjs", ".mjs", ".jsx"), ("javascript", "javascriptreact"), detected=True),
    Language("markdown", (".md", ".markdown"), ("markdown",), detected=True),
    Language("typescript", (".ts", ".mts", ".cts"), ("typescript",), extends="javascript"),
    Language("tsx", (".tsx",), ("typescriptreact",), extends="typescript"),
    Language("go", (".go",), ("go",), statements="package p\nfunc f() {\n{}\n}\n"),
    Language("rust", (".rs",), ("rust",), statements="fn f() {\n{}\n}\n"),
    Language("java", (".java",), ("java",), statements="class C {\nvoid f() {\n{}\n}\n}\n"),
    Language("c", (".c", ".h"), ("c",), statements="void f(void) {\n{}\n}\n", before_use=True),
    Language("cpp", (".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".h"), ("cpp",), extends="c",
             statements="void f() {\n{}\n}\n", before_use=True),
    # Neovim sends its filetype: `cs`, `sh`
    Language("csharp", (".cs",), ("csharp", "cs"), statements="class C {\nvoid F() {\n{}\n}\n}\n"),
    Language("ruby", (".rb", ".rake", ".gemspec"), ("ruby",)),
    Language("php", (".php",), ("php",), statements="<?php\n{}\n"),
    Language("kotlin", (".kt", ".kts"), ("kotlin",), statements="fun f() {\n{}\n}\n"),
    Language("swift", (".swift",), ("swift",), statements="func f() {\n{}\n}\n"),
    Language("lua", (".lua",), ("lua",), before_use=True),
    Language("bash", (".sh", ".bash"), ("shellscript", "sh", "bash"), before_use=True),
)

OUTLINED = tuple(lang.name for lang in LANGUAGES if lang.outline)
DETECTED = tuple(lang.name for lang in LANGUAGES if lang.detected)


def named(name: str | None) -> Language | None:
    """The language called `name`; None for any other."""
    return next((lang for lang in LANGUAGES if lang.name == name), None)


def of_suffix(suffix: str) -> Language | None:
    """The language of a file name's suffix (`.py`, any case), the first that claims it; None for any other."""
    return next(iter(claiming(suffix)), None)


def claiming(suffix: str) -> tuple[Language, ...]:
    """Every language whose files take the suffix: one, or several for a header C and C++ share (`.h`)."""
    return tuple(lang for lang in LANGUAGES if suffix.lower() in lang.suffixes)


def of_language_id(language_id: str | None) -> Language | None:
    """The language of an LSP languageId; None for any other."""
    return next((lang for lang in LANGUAGES if language_id in lang.language_ids), None)


def outline_name(language: Language | None) -> str | None:
    """The name to read `language`'s outline as (an edit's `language`), or None: read from the document."""
    return language.name if language is not None and language.outline else None


def kin(name: str) -> list[str]:
    """The languages `name` extends or is extended by, in either direction, transitively."""
    out, todo = [], [name]
    while todo:
        for lang in LANGUAGES:
            if lang.name not in out and lang.name != name and (lang.extends == todo[-1]
                                                                or named(todo[-1]).extends == lang.name):
                out.append(lang.name)
                todo.insert(0, lang.name)
        todo.pop()
    return out
