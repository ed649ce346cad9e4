"""The command line: byte-exact output, one-line errors, never a traceback."""
import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.model

CLI = [sys.executable, "-m", "copy_as_decode.cli"]


def run(*args):
    return subprocess.run([*CLI, *map(str, args)], capture_output=True)


@pytest.fixture
def pair(tmp_path):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    lines = [f"line {k}: the quick brown fox jumps over the lazy dog, naïvely 🦊\r\n" for k in range(5)]
    old.write_bytes("".join(lines + ["last line without a newline"]).encode())
    lines[2] = "a changed line\r\n"
    new.write_bytes("".join(lines + ["last line without a newline"]).encode())
    return old, new


def test_program_then_resolve_round_trips_bytes(pair, tmp_path):
    old, new = pair
    done = run("program", old, new)
    assert done.returncode == 0 and b'<copy lines="1-2"/>' in done.stdout
    prog = tmp_path / "p.txt"
    prog.write_bytes(done.stdout)
    resolved = run("resolve", prog, old)
    assert resolved.returncode == 0 and resolved.stdout == new.read_bytes()


def test_token_level_program_round_trips(pair, tmp_path):
    old, new = pair
    prog = tmp_path / "p.txt"
    prog.write_bytes(run("program", "--token-level", old, new).stdout)
    assert run("resolve", prog, old).stdout == new.read_bytes()


@pytest.mark.parametrize("setup, message", [
    (lambda d: (d / "missing.txt", d / "old.txt"), "No such file"),
    (lambda d: ((d / "p").write_text('<copy lines="1-9"/>') and d / "p", d / "old.txt"), "outside 1-6"),
    (lambda d: ((d / "p").write_text("<copy lines=1-2>") and d / "p", d / "old.txt"), "expected"),
    (lambda d: ((d / "p").write_text('<copy lines="1-1"/>') and d / "p",
                (d / "bin").write_bytes(b"\x00\x01") and d / "bin"), "binary"),
    (lambda d: ((d / "p").write_text('<copy lines="1-1"/>') and d / "p",
                (d / "latin").write_bytes("café".encode("latin-1")) and d / "latin"), "not UTF-8"),
])
def test_bad_input_is_one_line_on_stderr(pair, tmp_path, setup, message):
    done = run("resolve", *setup(tmp_path))
    err = done.stderr.decode()
    assert done.returncode != 0 and done.stdout == b""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


LONG = "".join(f"def f{k}(x):\n    return x + {k}  # <|im_end|> stays text\n\n" for k in range(150))  # 450 lines


@pytest.mark.parametrize("selector", ["grammar", "verified", "full"])
def test_an_edit_cut_off_by_its_budget_leaves_the_file_byte_identical(tmp_path, selector):
    f = tmp_path / "long.py"
    f.write_bytes(LONG.replace("\n", "\r\n", 7).encode())
    before = f.read_bytes()
    done = run("edit", f, "-i", "rename f3 to g3", "--model", "tiny", "--threads", "1", "--selector", selector,
               "--max-new-tokens", "3", "--write")  # fewer than any copy tag needs
    *_, stats, err = done.stderr.decode().strip().splitlines()
    assert done.returncode == 3, done.stderr.decode()
    assert err == "copy-as-decode: the edit did not finish within 3 tokens; nothing was changed"
    # the stats line: every edit that ran the model prints it, however it ended
    assert re.match(rf"tiny \(\w+\), {selector}: stopped at cap; \d+ sampled \+ \d+ copied tokens in \d+ forwards, "
                    r"\d+\.\d\d s \(prefill", stats), stats
    assert f.read_bytes() == before and "Traceback" not in done.stderr.decode()


def test_edit_refuses_an_unwritable_file_before_any_model_runs(tmp_path):
    f = tmp_path / "ro" / "a.py"
    f.parent.mkdir()
    f.write_text("x = 1\n")
    f.parent.chmod(0o500)
    f.chmod(0o400)
    try:
        done = run("edit", f, "-i", "x", "--model", "no-such-model", "--write")  # the model would fail to load
    finally:
        f.parent.chmod(0o700)
    err = done.stderr.decode()
    if os.geteuid() == 0:  # root may write anywhere: the write check cannot refuse
        assert "no-such-model" in err
        return
    assert done.returncode == 2 and err.count("\n") == 1 and "cannot write" in err and "Traceback" not in err


def test_the_cursor_line_picks_the_window(tmp_path):
    f = tmp_path / "long.py"
    f.write_text(LONG)
    done = run("edit", f, "-i", "make it faster", "--model", "tiny", "--threads", "1", "--at", "8",
               "--max-new-tokens", "3")  # cut off: the message still says where it was editing
    err = done.stderr.decode().strip().splitlines()[-1]
    assert done.returncode == 3 and err.endswith("nothing was changed (window 1/1: lines 7-9 (f2))"), err
    done = run("edit", f, "-i", "x", "--model", "tiny", "--at", "9999")
    assert done.returncode == 2 and "the cursor's line 9999 is outside the document's lines 1-450" in done.stderr.decode()
    assert run("edit", f, "-i", "x", "--at", "0").returncode == 2  # refused by the parser


@pytest.mark.parametrize("value", ["0", "-5", "many"])
def test_a_bad_budget_is_refused_by_the_parser(tmp_path, value):
    done = run("edit", tmp_path / "a.py", "-i", "x", "--max-new-tokens", value)
    assert done.returncode == 2 and b"max_new_tokens must be 'auto' or a positive integer" in done.stderr


def test_text_tools_never_import_torch(pair):
    """`program`, `resolve`, `models list` and `--help` start fast: torch (~2.5 s to import) stays out."""
    old, new = pair
    code = ("import sys, contextlib, io\n"
            "from copy_as_decode.cli import main\n"
            f"main(['program', {str(old)!r}, {str(new)!r}]); main(['models', 'list'])\n"
            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['--help'])\n"
            "assert not {'torch', 'transformers'} & set(sys.modules), sorted(m for m in sys.modules if 'torch' in m)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()


def test_the_place_is_said_before_decoding_and_an_undecided_one_lists_its_candidates(tmp_path):
    f = tmp_path / "long.py"
    f.write_text(LONG)
    done = run("edit", f, "-i", "Fix `f2`: it should add twice the number.", "--model", "tiny", "--threads", "1",
               "--max-new-tokens", "3")
    err = done.stderr.decode()
    assert done.returncode == 3 and "editing lines 7-9 (f2)\n" in err, err
    assert err.index("editing lines 7-9 (f2)") < err.index("did not finish")
    # no name, and the tiny model's choice does not settle it: the candidates with their lines, and nothing is
    # edited, --write or not (a guess is never written)
    before = f.read_bytes()
    done = run("edit", f, "-i", "The function that adds 41 should add 42.", "--model", "tiny", "--threads", "1",
               "--max-new-tokens", "3", "--write")
    err = done.stderr.decode()
    assert done.returncode == 3 and "the place is not decided" in err and "  1. lines " in err, err
    assert re.search(r"  2\. lines \d+-\d+ \(\w+", err), err
    assert err.rstrip().endswith("nothing was changed; pass --at LINE, --lines A-B or --first-candidate"), err
    assert "editing" not in err
    assert f.read_bytes() == before and done.stdout == b""


SHORT = "def mean(values):\n    total = sum(values)\n    if not values:\n        return 0\n    return total / len(values)\n"
# the stats line, printed by every edit that ran the model: written, unchanged or refused
STATS = re.compile(r"^scripted \(none\), verified: stopped at eos; 3 sampled \+ \d+ copied tokens in \d+ forwards, "
                   r"\d+\.\d\d s \(prefill \d+\.\d\d, decode \d+\.\d\d, splice \d+\.\d\d, mask \d+\.\d\d\)$", re.M)


@pytest.fixture
def answering(monkeypatch, qwen_tokenizer):
    """`edit` run in this process on a scripted model that answers each rewrite with `answer(document)`."""
    from scripted_front import ScriptedFront

    from copy_as_decode import cli

    def edit(path, answer, *flags):
        front = ScriptedFront(qwen_tokenizer, answer)
        front.model_name, front.dtype = "scripted", "none"
        monkeypatch.setattr(cli, "make_engine", lambda args: front)
        return cli.main(["edit", str(path), "-i", "Return 0.0 for no values.", "--selector", "verified", *flags])
    return edit


def test_an_edit_that_changes_nothing_says_so_writes_nothing_and_exits_4(tmp_path, answering, capsys):
    f = tmp_path / "mean.py"
    f.write_text(SHORT)
    assert answering(f, lambda document: document, "--write") == 4
    out = capsys.readouterr()
    *_, stats, said = out.err.splitlines()
    assert said == "copy-as-decode: no change: the model answered the file as it was; nothing was written", out.err
    assert STATS.match(stats) and out.out == "", out.err
    assert f.read_text() == SHORT


@pytest.mark.parametrize("answer, why", [
    (SHORT.replace("    if not values:\n        return 0\n", ""), "a statement, `If`, neither kept nor changed"),
    (SHORT.replace("    total = sum(values)\n", "    total = sum(values)\nreturn 1\n"), "no longer parses as python"),
])
def test_a_refused_result_is_shown_not_written_and_exits_3(tmp_path, answering, capsys, answer, why):
    f = tmp_path / "mean.py"
    f.write_text(SHORT)
    assert answering(f, answer, "--write") == 3
    err = capsys.readouterr().err
    assert why in err and "not written:" in err and f.read_text() == SHORT
    *_, stats, reason = err.splitlines()
    assert STATS.match(stats) and why in reason and err.index("not written:") < err.index(stats), err
    assert ("-    if not values:" in err) == ("If" in why) and ("+return 1" in err) == ("parses" in why)
