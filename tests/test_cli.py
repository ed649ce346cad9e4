"""The command line: byte-exact output, one-line errors, never a traceback."""
import subprocess
import sys

import pytest

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


def test_edit_writes_the_forced_result_through_the_cli(tmp_path):
    """`edit` runs the engine end to end (tiny model, grammar selector) and --write saves what the diff shows."""
    f = tmp_path / "a.py"
    f.write_text("x = 1\ny = 2\n")
    diff = run("edit", f, "-i", "rename", "--model", "tiny", "--selector", "grammar", "--max-new-tokens", "24")
    assert diff.returncode == 0, diff.stderr.decode()
    assert b"sampled" in diff.stderr and f.read_text() == "x = 1\ny = 2\n"
    wrote = run("edit", f, "-i", "rename", "--model", "tiny", "--selector", "grammar", "--max-new-tokens", "24", "--write")
    assert wrote.returncode == 0
    result = f.read_text()
    if diff.stdout.startswith(b"(no change)"):
        assert result == "x = 1\ny = 2\n"
    else:
        assert all(line[1:] in result for line in diff.stdout.decode().splitlines()[2:] if line.startswith("+"))
