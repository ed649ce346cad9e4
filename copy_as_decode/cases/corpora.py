"""Benchmark corpora as (document, instruction, gold) cases: HumanEvalFix Python/JS, the prose-edit set, the
long-file corpora, and any JSONL file in the case format below.

Case format, one JSON object a line:
  id             unique name of the case
  language       python | javascript | markdown
  before         the document to edit
  instruction    the request, as a user would type it
  after          (optional) the gold document
  after_program  (optional, instead of `after`) the gold as a copy/gen program over `before`'s lines, which
                 resolves to it byte for byte (`copy-as-decode resolve`); the shipped long corpora use it so
                 that each long file is stored once per case
  tests          (optional, python and javascript) a program appended to the edited document and run with
                 `python` or `node`: the edit passes when it exits 0 within TEST_TIMEOUT seconds
Any other field (the long corpora's kind, bucket, lines, source, hinted) is kept in Case.extra.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from copy_as_decode import CHECKOUT
from copy_as_decode.core.contract import EditError
from copy_as_decode.core.resolver import resolve

# The paper's corpora (the copy-ceiling and round-trip benchmarks pool these).
CORPORA = ("humanevalfix-python", "humanevalfix-js", "text")
LONG_CORPORA = ("long-python", "long-js", "long-text")
# a bug in a function of a real file of another language, asked about three ways (synthesis/lang_corpus.py)
LANG_CORPORA = ("locate-ts", "locate-go", "locate-rust", "locate-java", "locate-c", "locate-cpp")
LOCATE_CORPORA = ("locate-python", "locate-js", *LANG_CORPORA)  # the first two built from the long ones
# (synthesis/locate_corpus.py)
STRUCTURAL_CORPORA = ("move-method", "add-parameter")  # a method moved, every call updated (synthesis/structural_corpus.py)
LANGUAGES = ("python", "javascript", "markdown")
DATA_ENV = "COPY_AS_DECODE_DATA"
TEST_TIMEOUT = 10.0
_REPO = CHECKOUT
DATA = Path(__file__).resolve().parent / "data"  # the corpora's files and cards, and the sources they were made from
# Node as `./run test` installs it, for machines without one on PATH.
_BUNDLED_NODE = _REPO / ".tools" / "node24" / "node_modules" / ".bin" / "node"
_HUMANEVALPACK = {"humanevalfix-python": "humanevalpack_python.jsonl", "humanevalfix-js": "humanevalpack_js.jsonl"}
# Fields kept for functional checks of a fixed file (run `test` against `entry_point`).
_EXTRA = ("task_id", "entry_point", "test", "example_test", "bug_type", "failure_symptoms", "prompt", "declaration")


@dataclass(frozen=True)
class Case:
    id: str
    corpus: str
    instruction: str
    before: str
    after: str | None  # None: a case without a gold file (exact match is then unknown)
    extra: dict = field(default_factory=dict, compare=False)


class CorpusError(EditError, RuntimeError):
    """A corpus that is unknown or whose files are missing; the message says where they were looked for."""


def humanevalpack_dir() -> Path:
    """Where humanevalpack_{python,js}.jsonl live: $COPY_AS_DECODE_DATA, else the copy in data/ (MIT, SOURCE.md)."""
    return Path(os.environ.get(DATA_ENV) or _REPO / "data" / "humanevalpack")


def text_path() -> Path:
    return DATA / "text_edits.jsonl"


def long_path(name: str) -> Path:
    return DATA / f"{name}.jsonl"


def load(name: str) -> list[Case]:
    """A corpus read from files; synthesis/all_corpora.py also builds the ones made from them."""
    if name == "text":
        return [Case(r["id"], name, r["instruction"], r["before"], r["after"], {"kind": r["kind"]})
                for r in _read_jsonl(text_path())]
    if name in _HUMANEVALPACK:
        return [_humanevalfix(name, r) for r in _read_jsonl(humanevalpack_dir() / _HUMANEVALPACK[name])]
    if name in LONG_CORPORA:
        return load_file(long_path(name), name)
    raise CorpusError(f"unknown corpus {name!r}; corpora: "
                      f"{', '.join(CORPORA + LONG_CORPORA + LOCATE_CORPORA + STRUCTURAL_CORPORA)}")


def load_file(path, name: str | None = None) -> list[Case]:
    """A JSONL file in the case format (module docstring); the corpus is called `name`, else the file's stem."""
    path = Path(path)
    cases = []
    for k, r in enumerate(_read_jsonl(path), 1):
        missing = [f for f in ("id", "language", "before", "instruction") if f not in r]
        if missing:
            raise CorpusError(f"{path}:{k}: missing {', '.join(missing)}")
        if r["language"] not in LANGUAGES or ("tests" in r and r["language"] == "markdown"):
            raise CorpusError(f"{path}:{k}: language must be one of {', '.join(LANGUAGES)}, and python or "
                              f"javascript for a case with tests")
        after = r.get("after")
        if after is None and "after_program" in r:
            try:
                after = resolve(r["after_program"], r["before"])
            except ValueError as e:  # the program does not parse, or does not fit `before`
                raise CorpusError(f"{path}:{k}: after_program: {e}") from None
        extra = {key: v for key, v in r.items() if key not in ("id", "before", "instruction", "after", "after_program")}
        cases.append(Case(r["id"], name or path.stem, r["instruction"], r["before"], after, extra))
    return cases


def node() -> str | None:
    """The node binary: the one on PATH, else the one `./run test` installs; None when neither is there."""
    return shutil.which("node") or (str(_BUNDLED_NODE) if _BUNDLED_NODE.is_file() else None)


def run_tests(language: str, document: str, tests: str, timeout: float = TEST_TIMEOUT) -> bool | None:
    """Whether `document` followed by `tests` exits 0 within `timeout` seconds under python (language
    python) or node (javascript); None when node is missing."""
    if language not in ("python", "javascript"):
        raise ValueError(f"no test runner for language {language!r}")
    runner = sys.executable if language == "python" else node()
    if runner is None:
        return None
    sep = "" if document.endswith("\n") or not document else "\n"
    with tempfile.TemporaryDirectory() as tmp:  # its own directory: nothing beside it to import by accident
        script = Path(tmp) / ("case.py" if language == "python" else "case.js")
        script.write_text(document + sep + tests, encoding="utf-8")
        try:
            return subprocess.run([runner, str(script)], capture_output=True, timeout=timeout, cwd=tmp).returncode == 0
        except subprocess.TimeoutExpired:
            return False


def user_file(case: Case) -> tuple[str, str]:
    """(document, gold) as the file a user has open: for HumanEvalFix the dataset's full prompt (imports,
    signature, docstring) with the buggy or the canonical body; other corpora as they are."""
    if "prompt" not in case.extra:
        return case.before, case.after
    decl, prompt = case.extra["declaration"], case.extra["prompt"]
    return prompt + case.before[len(decl):], prompt + case.after[len(decl):]


def spread(cases: list, limit: int) -> list:
    """`limit` cases spread evenly over the corpus, first and last included (all of them, each once, when the
    corpus has no more)."""
    n = min(limit, len(cases))
    return [cases[round(k * (len(cases) - 1) / max(n - 1, 1))] for k in range(n)]


def line_range(value: str) -> tuple[int, int]:
    """argparse type for `--lines LO-HI`."""
    lo, _, hi = value.partition("-")
    return int(lo), int(hi)


def within_lines(cases: list, lines: tuple[int, int] | None) -> list:
    """The cases whose document (as the user has it open) has LO..HI lines; all of them for None."""
    from copy_as_decode.core.document import split_lines
    if lines is None:
        return cases
    return [c for c in cases if lines[0] <= len(split_lines(user_file(c)[0])) <= lines[1]]


def field_value(value: str) -> tuple[str, str]:
    """argparse type for `--where FIELD=VALUE`."""
    name, eq, want = value.partition("=")
    if not eq or not name:
        raise ValueError(f"expected FIELD=VALUE, got {value!r}")
    return name, want


def where(cases: list, conditions: list[tuple[str, str]] | None) -> list:
    """The cases whose extra fields (kind, hinted, bucket, ...) have these values, compared as JSON spells
    them (`hinted=true`, `bucket=300`, `kind=bug`)."""
    return [c for c in cases if all(json.dumps(c.extra.get(k)).strip('"') == v for k, v in conditions or [])]


def load_all(names=CORPORA) -> dict[str, list[Case]]:
    return {name: load(name) for name in names}


def _humanevalfix(corpus: str, r: dict) -> Case:
    # The document is the buggy file as a model would see it: signature line(s) + buggy body; the gold
    # swaps in the canonical body. The instruction is HumanEvalFix's own ("Fix bugs in <fn>.").
    return Case(r["task_id"], corpus, f"Fix bugs in {r['entry_point']}.",
                r["declaration"] + r["buggy_solution"], r["declaration"] + r["canonical_solution"],
                {k: r[k] for k in _EXTRA})


def _read_jsonl(path: Path) -> list[dict]:
    if not path.is_file():
        raise CorpusError(f"corpus file not found: {path} (set ${DATA_ENV} to the directory holding "
                          f"humanevalpack_python.jsonl and humanevalpack_js.jsonl)")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
