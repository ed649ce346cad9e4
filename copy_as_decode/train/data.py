"""Training examples for edit programs, generated from code and prose found on this machine.

Every example is (instruction, before, after) plus the line-oracle program that turns before into after.
The snippets, files, bugs and edits are made by copy_as_decode.synthesis; the sources of examples, mixed
as MIX says, none of them an evaluation corpus:

- python-bug / js-bug: a real function (Python standard library sources; JavaScript files of globally
  installed npm packages) with one synthetic bug of a HumanEvalFix bug type injected (operator misuse,
  value misuse, variable misuse, function misuse, missing logic, excess logic). The document is the
  BUGGY function, the target the original, the instruction "Fix bugs in <name>."; for half of them the
  instruction also says what is wrong ("Fix bugs in f: `i < n` should be `i <= n`."), the way a user who
  has found the bug would, so that the fixed line is something the model can learn rather than guess.
- code-edit: multi-line edits of the same functions, with an instruction that says what to do: insert
  (a comment, a guard), delete (docstring, comment lines, an `if` block, one statement), replace (rename
  a variable), move (a statement, a whole function).
- prose-edit: paragraphs of documentation files (READMEs and Markdown under /usr/share/doc and the npm
  packages, module docstrings): typo fixes, word replacements, paragraph deletion, insertion and moves.
- long-file: a whole real file of 100-3,000 lines (Python module, JavaScript file, Markdown document) with
  a localized edit: one or several bugs in its functions, a code edit of one function, a function renamed
  at its definition and uses, a prose edit. Its program copies long ranges around a few short gens.

The evaluation corpora are every corpus the benchmarks score (EVALUATION). Functions and paragraphs sharing
a distinctive line with one of their documents are skipped; a long file is skipped when it is a benchmark
file, a copy of one, or shares more than MAX_SHARED (synthesis.decontaminate) of its distinctive lines with
the evaluation documents, and an example whose changed lines include one of theirs is dropped. Output is
deterministic for a given seed and set of source files.
"""
import hashlib
import json
import random
from dataclasses import asdict, dataclass
from pathlib import Path

from copy_as_decode.cases.corpora import CORPORA, LONG_CORPORA, CorpusError, load, user_file
from copy_as_decode.core.oracle import line_oracle
from copy_as_decode.core.program import format_program, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.synthesis.bugs import BUG_TYPES, bug_hint, fix_instruction, js_bug, python_bug
from copy_as_decode.synthesis.decontaminate import decontaminate, decontaminate_long, distinctive, touches_evaluation
from copy_as_decode.synthesis.edits import function_move, js_edit, prose_edit, python_edit
from copy_as_decode.synthesis.long_edits import localized, long_edit
from copy_as_decode.synthesis.sources import (
    MAX_LINES,
    Snippet,
    js_functions,
    long_files,
    prose_chunks,
    python_functions,
)

DATA_VERSION = 3  # docs/training.md, "Data versions"
# Share of each source in a generated set: Python bug fixing leads (the main evaluation), JavaScript bugs
# have a quarter, and long files teach the long copies of real-size documents.
MIX = {"python-bug": 0.35, "js-bug": 0.25, "code-edit": 0.15, "prose-edit": 0.10, "long-file": 0.15}
# Share of long files per language (Markdown files take the prose edits).
LONG_LANGUAGES = {"python": 0.4, "javascript": 0.35, "markdown": 0.25}
EVALUATION = CORPORA + LONG_CORPORA


@dataclass(frozen=True)
class Example:
    id: str
    source: str       # python-bug, js-bug, code-edit, prose-edit, long-file
    kind: str         # bug type or edit kind
    instruction: str
    before: str
    after: str
    program: str      # compact line-oracle program (items joined without separators)


def evaluation_lines(include=EVALUATION) -> tuple[set[str], set[str], set[str]]:
    """(distinctive lines, whole documents, function names) of the evaluation corpora found here."""
    lines, docs, names = set(), set(), set()
    for name in include:
        try:
            cases = load(name)
        except CorpusError:
            continue
        for c in cases:
            texts = [c.before, c.after, *user_file(c)]
            docs.update(texts)
            names.add(c.extra.get("entry_point", ""))
            for t in texts:
                lines |= distinctive(t)
    names.discard("")
    return lines, docs, names


class Sources:
    """The snippet pools and long files, loaded once, decontaminated against the evaluation corpora found here."""

    def __init__(self, python=None, javascript=None, prose=None, long=None, decontaminate_against=True):
        python = python_functions() if python is None else python
        javascript = js_functions() if javascript is None else javascript
        prose = prose_chunks() if prose is None else prose
        long = long_files() if long is None else long
        self.eval_docs: set[str] = set()
        self.eval_lines: set[str] = set()
        if decontaminate_against:
            self.eval_lines, self.eval_docs, names = evaluation_lines()
            lines = self.eval_lines
            python, javascript = decontaminate(python, lines, names), decontaminate(javascript, lines, names)
            prose = decontaminate(prose, lines, set())
            long = decontaminate_long(long, lines, names)
        self.python, self.javascript, self.prose = python, javascript, prose
        by_language = {k: [f for f in long if f.language == k and (k == "markdown" or f.offers())]
                       for k in LONG_LANGUAGES}
        self.long = {k: files for k, files in by_language.items() if files}
        by_file: dict[str, list[Snippet]] = {}
        for s in python:
            by_file.setdefault(s.origin.split(":")[0], []).append(s)
        self.python_pairs = [(a, b) for fs in by_file.values() for a, b in zip(fs, fs[1:])
                             if a.text.count("\n") + b.text.count("\n") <= MAX_LINES]


def make_example(sources: Sources, source: str, rng: random.Random) -> Example | None:
    if source in ("python-bug", "js-bug"):
        pool, inject = (sources.python, python_bug) if source == "python-bug" else (sources.javascript, js_bug)
        kind = rng.choice(BUG_TYPES)  # then look for a function that offers a place for this kind of bug
        for _ in range(50):
            s = rng.choice(pool)
            if (buggy := inject(s.text, kind, rng)) is not None:
                break
        else:
            return None
        before, after = buggy, s.text
        instr = fix_instruction([s.name], [bug_hint(before, after)], rng)
    elif source == "code-edit":
        r = rng.random()
        if r < 0.1 and sources.python_pairs:
            a, b = rng.choice(sources.python_pairs)
            s = a
            kind, instr, before, after = function_move(a, b)
        elif r < 0.75 or not sources.javascript:
            s = rng.choice(sources.python)
            edit = python_edit(s, rng)
            if edit is None:
                return None
            (kind, instr, after), before = edit, s.text
        else:
            s = rng.choice(sources.javascript)
            edit = js_edit(s, rng)
            if edit is None:
                return None
            (kind, instr, after), before = edit, s.text
    elif source == "prose-edit":
        s = rng.choice(sources.prose)
        edit = prose_edit(s, rng)
        if edit is None:
            return None
        kind, instr, before, after = edit
    elif source == "long-file":
        # the language is kept while files are tried, so that files with few places for an edit (small
        # JavaScript files) do not shift LONG_LANGUAGES
        language = rng.choices(list(sources.long), [LONG_LANGUAGES[k] for k in sources.long])[0]
        for _ in range(20):
            s = rng.choice(sources.long[language])
            if (edit := long_edit(s, rng)) is not None:
                break
        else:
            return None
        kind, instr, before, after = edit
    else:
        raise ValueError(f"unknown source {source!r}")
    if before == after or before in sources.eval_docs or after in sources.eval_docs:
        return None
    # in order only: the trained model decodes under core/grammar.py's default rule, which has no moved copies
    items = line_oracle(before, after, moves=False)
    if touches_evaluation(items, before, sources.eval_lines) or \
            (source == "long-file" and not localized(kind, items)):
        return None
    program = format_program(items, sep="")
    if resolve(parse(program), before) != after:  # the oracle is exact; a failure here is a bug in it
        raise AssertionError(f"oracle program does not resolve for {s.origin}")
    digest = hashlib.sha1(f"{instr}\0{before}\0{after}".encode()).hexdigest()[:10]
    return Example(f"{source}/{s.origin}/{digest}", source, kind, instr, before, after, program)


def generate(n: int, seed: int = 0, sources: Sources | None = None, mix: dict[str, float] = MIX,
             progress=None) -> list[Example]:
    """n distinct examples; the same seed and sources give the same list, and a prefix of a longer run
    equals a shorter run."""
    sources = sources or Sources()
    names = [k for k in mix if mix[k] > 0 and (k != "js-bug" or sources.javascript)
             and (k != "prose-edit" or sources.prose) and (k != "long-file" or sources.long)]
    weights = [mix[k] for k in names]
    out, seen = [], set()
    for i in range(n):
        rng = random.Random(f"{seed}:{i}")
        for _ in range(200):
            ex = make_example(sources, rng.choices(names, weights)[0], rng)
            if ex is not None and ex.id not in seen:
                seen.add(ex.id)
                out.append(ex)
                break
        else:
            raise RuntimeError(f"no new example after 200 tries at #{i}; the sources are too small")
        if progress:
            progress(i + 1)
    return out


def meta_path(data: Path) -> Path:
    """Where `train data` records the data version, seed and command of a generated set."""
    return data.with_name(data.name + ".meta.json")


def write_jsonl(examples: list[Example], path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for ex in examples:
            f.write(json.dumps(asdict(ex), ensure_ascii=False) + "\n")


def read_jsonl(path: Path) -> list[Example]:
    with open(path, encoding="utf-8") as f:
        return [Example(**json.loads(line)) for line in f if line.strip()]

