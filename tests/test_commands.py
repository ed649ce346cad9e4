"""Every command the README and docs/*.md show runs: each on the smallest input that exercises it, exit code 0,
and its output holds its table or JSON.

The commands are read from the docs themselves: every code span or code-block line that starts a
`copy-as-decode ...`, `./run ...` or `bench ...` command names a subcommand (`bench edit`, `models list`,
`./run test`; `a|b` shows several), and every command in the README's headline table is one figure, by its exact
text. SUBCOMMANDS and HEADLINE map each to its smoke run; a command shown without an entry fails
`test_every_shown_command_has_a_smoke_run`, and so does an entry no doc shows any more. Each command the README
shows runs again in the runtime install (`./run edit`'s), unless NOT_RUNTIME says why it cannot.

Lanes: unmarked runs no model; `model` starts processes that load the tiny model or the Qwen tokenizer; `slow`
needs a real model (0.5B/1.5B), a llama-server, or sets the project up (`./run`), or takes ~20 s with the tiny
model (the headline's `bench edit` rows: `bench edit` itself runs in `model`).
"""
import json
import os
import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from copy_as_decode.core.program import parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.options import DEFAULT_MODEL

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CLI = [sys.executable, "-m", "copy_as_decode.cli"]
GROUPS = ("bench", "models", "train")  # subcommands whose next word is a subcommand too
SMALL = "qwen2.5-coder-0.5b"  # the real model of the slow lane
FAST, MODEL, SLOW = "fast", "model", "slow"
LANE_MARKS = {FAST: (), MODEL: (pytest.mark.model,), SLOW: (pytest.mark.slow,)}
TIMEOUT = {FAST: 60, MODEL: 180, SLOW: 1800}

_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_SPAN = re.compile(r"``(.+?)``|`([^`]+)`", re.S)  # a span may wrap a line
_COMMAND = re.compile(r"(?<![\w./-])(copy-as-decode|\./run|bench)((?:\s+[a-z][\w.-]*(?:\|[a-z][\w.-]*)*)+)")


def code_texts(markdown: str) -> list[str]:
    """Each code-block line and each inline code span."""
    blocks = _FENCE.findall(markdown)
    lines = [line for block in blocks for line in block.splitlines()[1:-1]]
    prose = _FENCE.sub("", markdown)
    return lines + [a or b for a, b in _SPAN.findall(prose)]


def subcommands(text: str) -> set[str]:
    """`copy-as-decode bench ceiling|roundtrip ...` -> {"bench ceiling", "bench roundtrip"}; `./run edit X` ->
    {"./run edit"}. A group shown without its subcommand (`copy-as-decode bench ...`) names none."""
    keys = set()
    for m in _COMMAND.finditer(text):
        prog, words = m[1], m[2].split()
        if prog == "bench":
            prog, words = "copy-as-decode", ["bench", *words]
        if prog == "./run":
            keys |= {f"./run {w}" for w in words[0].split("|")}
            continue
        for first in words[0].split("|"):
            if first not in GROUPS:
                keys.add(first)
            elif len(words) > 1:
                keys |= {f"{first} {w}" for w in words[1].split("|")}
    return keys


def shown_subcommands() -> dict[str, str]:
    """Each subcommand the docs show -> the first doc that shows it."""
    found: dict[str, str] = {}
    for doc in DOCS:
        for text in code_texts(doc.read_text(encoding="utf-8")):
            for key in subcommands(text):
                found.setdefault(key, doc.name)
    return found


def headline_commands() -> list[str]:
    """The command column of the README's headline table: each code span of it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Headline numbers", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| ")]
    col = rows[0].index(" command ")
    return [a or b for row in rows[1:] for a, b in _SPAN.findall(row[col])]


@dataclass
class Smoke:
    lane: str
    argv: list[str]  # after the program: copy-as-decode's arguments, or a whole command line for ./run and /usr/bin
    out: str  # a regex the output (stdout + stderr) must match: its table, or a line only a finished run prints
    json: bool = False  # the run writes JSON to {json}
    program: list[str] = field(default_factory=lambda: list(CLI))


def shrunk(shown: str, **options: str) -> list[str]:
    """The shown command's arguments with options set to smaller values (`limit="1"` sets `--limit 1`, replacing
    the values shown, or adding it) and placeholders filled (M is the --model value)."""
    argv = shlex.split(shown)
    argv = argv[argv.index("copy-as-decode") + 1:] if "copy-as-decode" in argv else argv
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if flag in argv:
            k = argv.index(flag) + 1
            while k < len(argv) and not argv[k].startswith("--"):
                del argv[k]
            argv[k:k] = value.split()
        else:
            argv += [flag, *value.split()]
    return argv


# the inputs (created per test in tmp_path, named by these placeholders)
BUGGY = ROOT / "examples" / "buggy.py"
STATS = "def mean(values):\n    return sum(values) / len(values)\n\n\ndef spread(values):\n    return max(values) - min(values)\n"
BLOCK = "def spread(values):\n    return max(values) - min(values) if values else 0\n"
TABLE = r"\S+ {2,}\S+ {2,}\S+"  # a row of at least three columns
LOSSLESS = r"pooled +\d+ +(\d+)/\1 +(\d+)/\2"  # the round trip's table: every case lossless at both levels

SUBCOMMANDS = {
    "program": Smoke(FAST, ["program", "{old}", "{new}"], r'^<copy lines="1-5"/>\n<gen>'),
    "resolve": Smoke(FAST, ["resolve", "{program}", "{old}"], re.escape(BLOCK)),
    "models list": Smoke(FAST, ["models", "list"], r"qwen2\.5-coder-1\.5b\t(not )?installed\t"),
    "apply": Smoke(MODEL, ["apply", "{old}", "{block}", "--model", "tiny"],
                   r"^\+    return max\(values\) - min\(values\) if values else 0$"),
    "models install": Smoke(MODEL, ["models", "install", SMALL], f"{SMALL}\n"),
    "bench lsp-latency": Smoke(MODEL, ["bench", "lsp-latency", "--worker", "fake", "--requests", "3", "--json", "{json}"],
                               TABLE, json=True),
    "bench ceiling": Smoke(MODEL, ["bench", "ceiling", "--limit", "1", "--json", "{json}"], r"pooled +3 ", json=True),
    "bench roundtrip": Smoke(MODEL, ["bench", "roundtrip", "--limit", "1", "--lines", "500", "--runs", "1", "--json",
                                     "{json}"], LOSSLESS, json=True),
    "bench kernel": Smoke(MODEL, ["bench", "kernel", "--model", "tiny", "--quant", "none", "--sizes", "8", "--repeats", "1",
                                  "--prefix", "16", "--json", "{json}"], TABLE, json=True),
    "bench forwards": Smoke(MODEL, ["bench", "forwards", "--models", "tiny", "--lengths", "16", "--splice", "8", "--steps",
                                    "1", "--json", "{json}"], TABLE, json=True),
    "bench edit": Smoke(MODEL, ["bench", "edit", "--model", "tiny", "--corpora", "text", "--limit", "1", "--selectors",
                                "auto", "--max-new-tokens", "4", "--json", "{json}"], TABLE, json=True),
    "bench apply": Smoke(MODEL, ["bench", "apply", "--model", "tiny", "--limit", "1", "--no-model", "--json", "{json}"],
                         TABLE, json=True),
    "bench apply-endpoint": Smoke(MODEL, ["bench", "apply-endpoint", "--limit", "1", "--repeat", "1", "--json", "{json}"],
                                  TABLE, json=True),  # it starts `serve-apply` and merges through it
    "serve-apply": Smoke(FAST, ["serve-apply", "--help"], r"OpenAI-compatible"),  # a server: served in the bench above
    "bench places": Smoke(FAST, ["bench", "places", "--corpora", "locate-go", "--cases", "heldout"],
                          r"\| locate-go \| cursor \| \d+ \| \d+"),  # core/windows.py alone: no model
    "worker": Smoke(MODEL, ["worker", "--model", "tiny"], '"model": "tiny"'),
    "serve": Smoke(MODEL, ["serve"], '"capabilities"'),
    "train data": Smoke(FAST, ["train", "data", "-n", "2", "--out", "{data}", "--python-root", "{src}", "--js-root",
                               "{src}", "--prose-root", "{src}"], r"wrote 2 examples"),
    "train sft": Smoke(MODEL, ["train", "sft", "--model", "tiny", "--data", "{data}", "--batch", "1", "--threads", "1",
                               "--checkpoint-every", "0", "--out", "{adapter}"], r"adapter: "),
    "train export": Smoke(MODEL, ["train", "export", "{adapter}", "--name", "tiny-copy", "--out", "{tmp}/shipped"],
                          r"wrote .*tensors"),
    "train curve": Smoke(SLOW, ["train", "curve", "--model", "tiny", "--data", "{data}", "--sizes", "0", "2", "--limit",
                                "1", "--max-new-tokens", "4", "--batch", "1", "--threads", "1", "--out", "{tmp}/curve"],
                         r"N= +2 +exact"),
    "bench serve": Smoke(SLOW, ["bench", "serve", "--launch", "llama.cpp", "--model", SMALL, "--concurrency", "1",
                                "--limit", "1", "--max-new-tokens", "16", "--json", "{json}"], TABLE, json=True),
    "edit": Smoke(SLOW, ["edit", str(BUGGY), "-i", "Fix the bug: the mean divides by the wrong count.", "--model", SMALL],
                  r"(?s)--- a/.*stopped at (eos|fence)"),
    "./run edit": Smoke(SLOW, ["./run", "edit", str(BUGGY), "-i", "Fix the bug: the mean divides by the wrong count."],
                        r"(?s)--- a/.*stopped at (eos|fence)", program=[]),
    "./run apply": Smoke(SLOW, ["./run", "apply", "{old}", "{block}"],
                         r"^\+    return max\(values\) - min\(values\) if values else 0$", program=[]),
    "./run test": Smoke(SLOW, ["./run", "test", "--collect-only", "-q", "tests/test_program.py"], r"\d+ tests? collected",
                        program=[]),
    "./run check": Smoke(SLOW, ["./run", "check", "--collect-only", "-q", "tests/test_program.py"],
                         r"\d+ tests? collected", program=[]),
}

_FEW = {"limit": "1", "max_new_tokens": "8", "json": "{json}"}
HEADLINE = {
    "bench edit --corpora locate-python --cases heldout --limit 5 --selectors auto --alone --peer-ngram --threads 2":
        (SLOW, dict(model=SMALL, **_FEW)),
    "bench edit --model qwen2.5-coder-0.5b --threads 1 --limit 3 --max-new-tokens 512": (SLOW, _FEW),
    "bench ceiling": (MODEL, dict(json="{json}")),  # the whole corpora: the figure itself, a few seconds
    "bench roundtrip": (MODEL, dict(json="{json}", lines="1000", runs="1")),
    "bench apply --corpus written --cases heldout --where batch=8 --no-model --through-endpoint":
        (MODEL, dict(limit="2", json="{json}")),
}
HEADLINE_OUT = {"bench ceiling": r"pooled +\d+ ", "bench roundtrip": LOSSLESS,
                "bench apply --corpus written --cases heldout --where batch=8 --no-model --through-endpoint":
                    r"heldout endpoint: \d+ requests, median"}


def headline_smoke(shown: str) -> Smoke:
    lane, options = HEADLINE[shown]
    argv = [{"FILE": str(BUGGY), "INSTRUCTION": "Fix the bug: the mean divides by the wrong count."}.get(a, a)
            for a in shrunk(shown, **options)]
    return Smoke(lane, argv, HEADLINE_OUT.get(shown, TABLE), json="json" in options)


def test_every_shown_command_has_a_smoke_run():
    shown = shown_subcommands()
    missing = {key: doc for key, doc in shown.items() if key not in SUBCOMMANDS}
    hint = {"apply": '"apply": Smoke(MODEL, ["apply", "{old}", "{block}", "--model", "tiny"], ...): a small Python file '
                     'whose block replaces one function exactly, so no model call',
            "bench apply": '"bench apply": Smoke(MODEL, ["bench", "apply", "--limit", "1", "--json", "{json}"], TABLE, '
                           'json=True)'}
    assert not missing, "commands shown without a smoke run; add to SUBCOMMANDS in tests/test_commands.py:\n" + \
        "\n".join(f"  {key!r} (shown in {doc}): {hint.get(key, 'Smoke(lane, argv, output regex)')}"
                  for key, doc in missing.items())
    assert not SUBCOMMANDS.keys() - shown.keys(), f"smoke runs of commands no doc shows: {SUBCOMMANDS.keys() - shown.keys()}"
    headline = headline_commands()
    assert headline and not set(headline) - HEADLINE.keys(), \
        f"headline commands without a smoke run (add them to HEADLINE): {set(headline) - HEADLINE.keys()}"
    assert not HEADLINE.keys() - set(headline), f"HEADLINE entries the README no longer shows: {HEADLINE.keys() - set(headline)}"


def test_the_collection_reads_groups_alternatives_and_placeholders():
    assert subcommands("copy-as-decode bench ceiling|roundtrip|kernel ...") == {"bench ceiling", "bench roundtrip",
                                                                               "bench kernel"}
    assert subcommands("copy-as-decode models list|install NAME") == {"models list", "models install"}
    assert subcommands("/usr/bin/time -v copy-as-decode edit FILE -i X") == {"edit"}
    assert subcommands("bench edit --limit 12") == {"bench edit"} == subcommands("copy-as-decode bench edit")
    assert subcommands("./run edit examples/buggy.py -i x   # the main job") == {"./run edit"}
    assert subcommands("copy-as-decode bench ...") == set() == subcommands("bench/data/kernel_curve.json")
    assert shrunk("bench edit --model M --limit 15 --selectors auto --alone", model="tiny", limit="1", json="x.json") == \
        ["bench", "edit", "--model", "tiny", "--limit", "1", "--selectors", "auto", "--alone", "--json", "x.json"]


def _params():
    for key, smoke in SUBCOMMANDS.items():
        yield pytest.param(key, smoke, marks=LANE_MARKS[smoke.lane], id=key)
    for shown in HEADLINE:
        smoke = headline_smoke(shown)
        yield pytest.param(shown, smoke, marks=LANE_MARKS[smoke.lane], id="headline: " + shown[:60])


@pytest.fixture
def inputs(tmp_path):
    old, new, block = tmp_path / "stats.py", tmp_path / "new.py", tmp_path / "spread.block"
    old.write_text(STATS)
    new.write_text(STATS.replace("    return max(values) - min(values)\n", BLOCK.split("\n", 1)[1]))
    block.write_text(BLOCK)
    program = tmp_path / "program.txt"
    program.write_text('<copy lines="1-5"/><gen>    return max(values) - min(values) if values else 0\n</gen>')
    src = tmp_path / "src"
    src.mkdir()
    for k in range(25):  # functions of 5+ lines in files of 100+ lines: what `train data` harvests
        with open(src / "shapes.py", "a") as f:
            f.write(f"def area_{k}(w, h):\n    total = w * h\n    if total < 0:\n        total = -total\n"
                    f"    return total + {k}\n\n\n")
        with open(src / "shapes.js", "a") as f:
            f.write(f"function area{k}(w, h) {{\n  let total = w * h;\n  if (total < 0) {{\n    total = -total;\n  }}\n"
                    f"  return total + {k};\n}}\n\n")
    (src / "README.md").write_text("# Shapes\n\n" + "".join(
        f"## Area {k}\n\nThe area of a rectangle, offset by {k}, computed\nfrom its width and its height.\n\n"
        for k in range(25)))
    names = {"old": old, "new": new, "block": block, "program": program, "src": src, "tmp": tmp_path,
             "json": tmp_path / "out.json", "data": tmp_path / "train.jsonl", "adapter": tmp_path / "adapter"}
    return {k: str(v) for k, v in names.items()}


def run_smoke(smoke: Smoke, inputs: dict[str, str], stdin: bytes | None = None) -> subprocess.CompletedProcess:
    argv = [a.format(**inputs) for a in smoke.argv]
    cmd = [*smoke.program, *argv] if smoke.program else [str(ROOT / argv[0]), *argv[1:]]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    return subprocess.run(cmd, cwd=inputs["tmp"], input=stdin, capture_output=True, timeout=TIMEOUT[smoke.lane], env=env)


def _lsp(*messages: dict) -> bytes:
    return b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                    for body in (json.dumps(m).encode() for m in messages))


STDIN = {  # the commands that read their requests from stdin: a request, then the way out
    "worker": "".join(json.dumps(m) + "\n" for m in ({"jsonrpc": "2.0", "id": 1, "method": "ping"},
                                                     {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})).encode(),
    "serve": _lsp({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
                  {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                  {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}),
}


@pytest.mark.parametrize("key, smoke", list(_params()))
def test_shown_command_runs(key, smoke, inputs):
    if key == "train export" or key == "train curve":  # they read what `train data` (and `train sft`) write
        assert run_smoke(SUBCOMMANDS["train data"], inputs).returncode == 0
    if key == "train export":
        assert run_smoke(SUBCOMMANDS["train sft"], inputs).returncode == 0
    if key == "train sft":
        assert run_smoke(SUBCOMMANDS["train data"], inputs).returncode == 0
    start = time.monotonic()
    done = run_smoke(smoke, inputs, STDIN.get(key))
    out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, f"{key}: exit code {done.returncode} after {time.monotonic() - start:.0f} s\n{out[-3000:]}"
    assert "Traceback" not in out, out[-3000:]
    assert re.search(smoke.out, out, re.M), f"{key}: no {smoke.out!r} in its output\n{out[-3000:]}"
    if smoke.json:
        data = json.loads(Path(inputs["json"]).read_text())
        assert isinstance(data, dict) and data, f"{key}: empty JSON"
    if key == "program":  # the oracle's program rebuilds the new file
        assert resolve(parse(done.stdout.decode()), Path(inputs["old"]).read_text()) == Path(inputs["new"]).read_text()
    if key == "resolve":
        assert done.stdout.decode() == Path(inputs["new"]).read_text()
    if key in ("apply", "./run apply"):
        assert Path(inputs["old"]).read_text() == STATS  # a diff, the file left as it was



# The runtime install (`./run edit`: requirements.txt, llama.cpp's bindings and the default model; no torch, no
# transformers, no 0.5B) runs every command the README shows that needs neither torch (requirements-torch.txt), nor
# the test stack, nor an inference server: each in a virtualenv of exactly that, built once per set of pins and kept
# in the cache (~30 s to build from pip's local wheels, then free), with a home that holds the default model alone.
# A real venv, not the test venv with torch hidden: a command that needs anything else the test stack brings
# (tokenizers, accelerate, gguf, the 0.5B's files) fails here as it would on a fresh machine. RUNTIME is each
# subcommand's run there, NOT_RUNTIME why each other one the README shows cannot run there; the headline table's
# commands run there too, but those of such a subcommand and those that start a server beside (`--peer-ngram`).
TORCH = "runs on torch (requirements-torch.txt)"
SETS_UP = "sets an install up itself (the slow lane runs it)"
NOT_RUNTIME = {
    "./run edit": SETS_UP, "./run apply": SETS_UP, "./run test": SETS_UP, "./run check": SETS_UP,
    "bench edit": TORCH, "bench kernel": TORCH, "bench forwards": TORCH,
    "train sft": TORCH, "train curve": TORCH, "train export": TORCH,
    "bench serve": "runs an inference server (llama-server or vLLM)",
}
COUNTED = rf"tokens counted by {re.escape(DEFAULT_MODEL)}'s tokenizer"  # the one model there: the benches say so
RUNTIME = {
    **{key: SUBCOMMANDS[key] for key in ("program", "resolve", "models list", "bench places", "bench lsp-latency",
                                         "bench apply-endpoint", "serve-apply", "serve", "train data")},
    **{key: Smoke(MODEL, SUBCOMMANDS[key].argv, rf"(?s){SUBCOMMANDS[key].out}.*{COUNTED}", json=True)
       for key in ("bench ceiling", "bench roundtrip")},
    "models install": Smoke(MODEL, ["models", "install"], rf"/models/{re.escape(DEFAULT_MODEL)}$"),
    "apply": Smoke(MODEL, ["apply", "{old}", "{block}"], SUBCOMMANDS["apply"].out),  # placed by the parser alone
    "bench apply": Smoke(MODEL, ["bench", "apply", "--limit", "1", "--no-model", "--json", "{json}"], TABLE,
                         json=True),  # the default model's tokenizer, not `tiny`'s (the 0.5B's)
    "worker": Smoke(MODEL, ["worker"], f'"model": "{DEFAULT_MODEL}"'),
    # the engine on the default model, cut short: a finished or a cut-off edit both print the stats line
    "edit": Smoke(MODEL, ["edit", str(BUGGY), "-i", "Fix the bug: the mean divides by the wrong count.",
                          "--max-new-tokens", "8", "--threads", "1"], r"forwards, \d+\.\d\d s"),
}
RUNTIME_HEADLINE = [shown for shown in HEADLINE
                    if not subcommands(shown) & NOT_RUNTIME.keys() and "--peer-ngram" not in shown]


def test_every_command_the_readme_shows_runs_in_the_runtime_install_or_says_why_not():
    shown = {key for key, doc in shown_subcommands().items() if doc == "README.md"}
    assert not RUNTIME.keys() & NOT_RUNTIME.keys()
    assert shown == RUNTIME.keys() | NOT_RUNTIME.keys(), \
        f"README commands neither run in the runtime install (RUNTIME) nor said why not (NOT_RUNTIME): " \
        f"{shown - RUNTIME.keys() - NOT_RUNTIME.keys()}; no longer shown: {(RUNTIME.keys() | NOT_RUNTIME.keys()) - shown}"
    assert "bench ceiling" in RUNTIME_HEADLINE and \
        "bench apply --corpus written --cases heldout --where batch=8 --no-model --through-endpoint" in RUNTIME_HEADLINE


@pytest.fixture(scope="session")
def runtime_home(tmp_path_factory) -> Path:
    """A home as `./run edit` leaves it: the default model alone (the test install has the 0.5B too), a link to
    the installed one."""
    from copy_as_decode.engine.backends import models
    if not models.is_installed(DEFAULT_MODEL):
        pytest.skip("the default model is not installed (scripts/setup.sh)")
    home = tmp_path_factory.mktemp("runtime-home")
    (home / "models").mkdir()
    (home / "models" / DEFAULT_MODEL).symlink_to(models.cache_dir(DEFAULT_MODEL))
    return home


@pytest.fixture(scope="session")
def runtime_python() -> Path:
    """The runtime install's python (a venv of requirements.txt and the llama.cpp wheel scripts/build-llama-cpp.sh
    cached), built once per pins in $COPY_AS_DECODE_HOME/runtime-venv."""
    import hashlib
    home = Path(os.environ.get("COPY_AS_DECODE_HOME") or Path.home() / ".cache" / "copy-as-decode")
    wheels = sorted((home / "wheels").glob("*/llama_cpp_python-*.whl"))
    if not wheels:
        pytest.skip("llama.cpp's bindings were never built here (scripts/build-llama-cpp.sh)")
    pins = (ROOT / "requirements.txt").read_bytes() + str(wheels[-1]).encode() + sys.version.encode()
    venv = home / "runtime-venv" / hashlib.sha256(pins).hexdigest()[:16]
    python = venv / "bin" / "python"
    if not python.exists():
        part = venv.with_name(venv.name + f".part{os.getpid()}")
        subprocess.run([sys.executable, "-m", "venv", str(part)], check=True, timeout=300)
        subprocess.run([str(part / "bin" / "pip"), "install", "-q", "-r", str(ROOT / "requirements.txt"), str(wheels[-1])],
                       check=True, timeout=900, capture_output=True)
        part.rename(venv)  # whole or not at all; the venv's scripts name their path, which does not change here
    probe = subprocess.run([str(python), "-c", "import importlib.util as u; print(u.find_spec('torch'), "
                            "u.find_spec('transformers'))"], capture_output=True, text=True)
    assert probe.stdout.split() == ["None", "None"], probe.stdout + probe.stderr
    return python


def _runtime_params():
    for key, smoke in RUNTIME.items():
        yield pytest.param(key, smoke, id=key)
    for shown in RUNTIME_HEADLINE:
        yield pytest.param(shown, headline_smoke(shown), id="headline: " + shown[:60])


@pytest.mark.model
@pytest.mark.parametrize("key, smoke", list(_runtime_params()))
def test_runtime_command_runs_in_the_runtime_install(key, smoke, inputs, runtime_python, runtime_home):
    argv = [a.format(**inputs) for a in smoke.argv]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT), "COPY_AS_DECODE_HOME": str(runtime_home),
           "PATH": f"{runtime_python.parent}:{os.environ['PATH']}"}
    done = subprocess.run([str(runtime_python), "-m", "copy_as_decode.cli", *argv], cwd=inputs["tmp"],
                          input=STDIN.get(key), capture_output=True, timeout=TIMEOUT[MODEL], env=env)
    out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out, out[-3000:]
    assert done.returncode in ((0, 3) if key == "edit" else (0,)), f"{key}: exit code {done.returncode}\n{out[-3000:]}"
    assert re.search(smoke.out, out, re.M), f"{key}: no {smoke.out!r} in its output\n{out[-3000:]}"
