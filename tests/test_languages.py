"""The language registry (core/languages.py) gives what the CLI, the language server and the benchmarks read."""
from copy_as_decode.core import languages, parsers
from copy_as_decode.core.outline import _READERS, outline


def test_a_file_suffix_names_its_language():
    expected = {".py": "python", ".pyi": "python", ".js": "javascript", ".cjs": "javascript", ".mjs": "javascript",
                ".jsx": "javascript", ".md": "markdown", ".markdown": "markdown", ".PY": "python", ".MD": "markdown",
                ".ts": "typescript", ".tsx": "tsx", ".go": "go", ".rs": "rust", ".java": "java", ".c": "c",
                ".h": "c", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby", ".php": "php",
                ".kt": "kotlin", ".swift": "swift", ".lua": "lua", ".sh": "bash"}
    for suffix, name in expected.items():
        assert languages.outline_name(languages.of_suffix(suffix)) == name, suffix
    for suffix in ("", ".txt", ".json", ".yaml"):
        assert languages.of_suffix(suffix) is None


def test_an_lsp_language_id_names_its_language():
    expected = {"python": "python", "javascript": "javascript", "javascriptreact": "javascript", "markdown": "markdown",
                "typescript": "typescript", "typescriptreact": "tsx", "go": "go", "rust": "rust", "java": "java",
                "c": "c", "cpp": "cpp", "csharp": "csharp", "ruby": "ruby", "php": "php", "kotlin": "kotlin",
                "swift": "swift", "lua": "lua", "shellscript": "bash", "cs": "csharp", "sh": "bash"}
    for language_id, name in expected.items():
        assert languages.outline_name(languages.of_language_id(language_id)) == name
    for language_id in (None, "", "plaintext", "json"):
        assert languages.outline_name(languages.of_language_id(language_id)) is None


def test_markdown_has_one_name():
    assert {n: languages.outline_name(languages.named(n)) for n in ("python", "javascript", "markdown", None, "cobol")} \
        == {"python": "python", "javascript": "javascript", "markdown": "markdown", None: None, "cobol": None}
    assert [languages.named(n).suffixes[0].lstrip(".") for n in ("python", "javascript", "markdown")] == ["py", "js", "md"]
    assert languages.named("text") is None and languages.named("prose") is None


def test_a_document_of_no_known_language_is_tried_as_python_javascript_markdown_only():
    assert languages.DETECTED == ("python", "javascript", "markdown")
    assert set(_READERS) == set(languages.DETECTED)
    # valid Go is none of them: without its language it has no outline, with it, its functions
    go = "package main\n\nfunc main() {\n\tprintln(1)\n}\n"
    assert outline(go) == (None, [])
    assert [s.name for s in outline(go, "go")[1]] == ["main"]


def test_every_outlined_language_has_a_parser_or_a_reader():
    for name in languages.OUTLINED:
        assert name in _READERS or parsers.parser(name) is not None, name
    assert set(parsers.GRAMMARS) <= set(languages.OUTLINED)
