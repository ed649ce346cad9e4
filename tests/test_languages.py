"""The language registry (core/languages.py) gives what the CLI, the language server and the benchmarks read."""
from copy_as_decode.core import languages
from copy_as_decode.core.outline import _READERS


def test_a_file_suffix_names_its_language():
    expected = {".py": "python", ".pyi": "python", ".js": "javascript", ".cjs": "javascript", ".mjs": "javascript",
                ".jsx": "javascript", ".md": "markdown", ".markdown": "markdown", ".PY": "python", ".MD": "markdown"}
    for suffix, name in expected.items():
        assert languages.outline_name(languages.of_suffix(suffix)) == name, suffix
    for suffix in ("", ".txt", ".ts", ".c"):
        assert languages.of_suffix(suffix) is None


def test_an_lsp_language_id_names_its_language():
    expected = {"python": "python", "javascript": "javascript", "javascriptreact": "javascript", "markdown": "markdown"}
    for language_id, name in expected.items():
        assert languages.outline_name(languages.of_language_id(language_id)) == name
    for language_id in (None, "", "typescript", "plaintext"):
        assert languages.outline_name(languages.of_language_id(language_id)) is None


def test_markdown_has_one_name():
    assert {n: languages.outline_name(languages.named(n)) for n in ("python", "javascript", "markdown", None, "rust")} \
        == {"python": "python", "javascript": "javascript", "markdown": "markdown", None: None, "rust": None}
    assert [languages.named(n).suffixes[0].lstrip(".") for n in ("python", "javascript", "markdown")] == ["py", "js", "md"]
    assert languages.named("text") is None and languages.named("prose") is None


def test_the_outline_reads_every_outlined_language_in_order():
    assert languages.OUTLINED == ("python", "javascript", "markdown")
    assert set(_READERS) == set(languages.OUTLINED)
