"""Benchmark corpora as (document, instruction, gold) cases: HumanEvalFix Python/JS and the prose-edit set."""
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from copy_as_decode.core.contract import EditError

CORPORA = ("humanevalfix-python", "humanevalfix-js", "text")
DATA_ENV = "COPY_AS_DECODE_DATA"
_REPO = Path(__file__).resolve().parent.parent
_HUMANEVALPACK = {"humanevalfix-python": "humanevalpack_python.jsonl", "humanevalfix-js": "humanevalpack_js.jsonl"}
# Fields kept for functional checks of a fixed file (run `test` against `entry_point`).
_EXTRA = ("task_id", "entry_point", "test", "example_test", "bug_type", "failure_symptoms", "prompt", "declaration")


@dataclass(frozen=True)
class Case:
    id: str
    corpus: str
    instruction: str
    before: str
    after: str
    extra: dict = field(default_factory=dict, compare=False)


class CorpusError(EditError, RuntimeError):
    """A corpus that is unknown or whose files are missing; the message says where they were looked for."""


def humanevalpack_dir() -> Path:
    """Where humanevalpack_{python,js}.jsonl live: $COPY_AS_DECODE_DATA, else the copy in data/ (MIT, SOURCE.md)."""
    return Path(os.environ.get(DATA_ENV) or _REPO / "data" / "humanevalpack")


def text_path() -> Path:
    return Path(__file__).resolve().parent / "data" / "text_edits.jsonl"


def load(name: str) -> list[Case]:
    if name == "text":
        return [Case(r["id"], name, r["instruction"], r["before"], r["after"], {"kind": r["kind"]})
                for r in _read_jsonl(text_path())]
    if name in _HUMANEVALPACK:
        return [_humanevalfix(name, r) for r in _read_jsonl(humanevalpack_dir() / _HUMANEVALPACK[name])]
    raise CorpusError(f"unknown corpus {name!r}; corpora: {', '.join(CORPORA)}")


def user_file(case: Case) -> tuple[str, str]:
    """(document, gold) as the file a user has open: for HumanEvalFix the dataset's full prompt (imports,
    signature, docstring) with the buggy or the canonical body; other corpora as they are."""
    if "prompt" not in case.extra:
        return case.before, case.after
    decl, prompt = case.extra["declaration"], case.extra["prompt"]
    return prompt + case.before[len(decl):], prompt + case.after[len(decl):]


def spread(cases: list, limit: int) -> list:
    """`limit` cases spread evenly over the corpus, first and last included."""
    return [cases[round(k * (len(cases) - 1) / max(limit - 1, 1))] for k in range(min(limit, len(cases)))]


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
