"""An edit whose place is not decided, at a terminal: the command asks which candidate and edits the one picked, on
the model it loaded and the place it found, once; elsewhere it lists them and exits 3, unless told to take the
first (--first-candidate). Driven as a user drives it: in its own process, on a pseudo-terminal."""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_cli import LONG

pytestmark = pytest.mark.model

SCRIPTED = [sys.executable, str(Path(__file__).with_name("scripted_cli.py"))]
REAL = [sys.executable, "-m", "copy_as_decode.cli"]
UNDECIDED = "The function that adds 41 should add 42."  # names no function: the search's hits are close
QUESTION = "edit which? [1-"
CANDIDATE = re.compile(r"^  (\d)\. lines (\d+)-(\d+) \((\w+)", re.M)
STATS = re.compile(r"^scripted \(none\), windowed: stopped at fence; 3 sampled \+ \d+ copied tokens in \d+ "
                   r"forwards, \d+\.\d\d s ", re.M)


def at_terminal(command: list[str], keys: bytes | None, timeout: float = 120) -> tuple[int, str]:
    """`command` run on a pseudo-terminal (its stdin, stdout and stderr), `keys` typed once it asks which candidate
    (None: nothing typed): its exit code and what the terminal showed."""
    pid, fd = pty.fork()
    if pid == 0:  # Ctrl-C as an interactive shell gives it to its foreground job, whatever the suite inherited
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execv(command[0], command)
    shown, deadline = b"", time.monotonic() + timeout
    try:
        while True:
            if keys is not None and QUESTION.encode() in shown:
                os.write(fd, keys)
                keys = None
            if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"no answer in {timeout} s:\n{shown.decode(errors='replace')}")
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the command closed the terminal, it has exited
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), shown.decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.fixture
def long_file(tmp_path):
    f = tmp_path / "long.py"
    f.write_text(LONG)
    return f


def edit(path: Path, *flags: str) -> list[str]:
    return [*SCRIPTED, "edit", str(path), "-i", UNDECIDED, "--write", *flags]


def candidates(shown: str) -> list[tuple[int, int, str]]:
    found = [(int(a), int(b), name) for _, a, b, name in CANDIDATE.findall(shown)]
    assert len(found) >= 2, shown
    return found


def changed_lines(path: Path) -> set[int]:
    before, after = LONG.splitlines(), path.read_text().splitlines()
    assert len(before) == len(after)
    return {k for k, (a, b) in enumerate(zip(before, after), 1) if a != b}


@pytest.mark.parametrize("keys, picked", [(b"\r", 0), (b"7\r2\r", 1)])
def test_at_a_terminal_the_user_picks_the_candidate_and_the_edit_lands_there(long_file, keys, picked):
    """Enter takes the first; a number that one (one out of range asks again). The edit takes the picked place as
    it is: the model loaded once, the place searched for once."""
    code, shown = at_terminal(edit(long_file), keys)
    assert code == 0, shown
    start, end, name = candidates(shown)[picked]
    assert shown.count(QUESTION) == keys.count(b"\r"), shown
    assert f"editing lines {start}-{end} ({name})" in shown and STATS.search(shown), shown
    assert changed_lines(long_file) and changed_lines(long_file) <= set(range(start, end + 1)), shown
    assert "loads 1, searches 1" in shown


@pytest.mark.parametrize("keys", [b"q\r", b"\x03", b"\x04"], ids=["q", "ctrl-c", "end of input"])
def test_a_cancelled_pick_writes_nothing_and_exits_3(long_file, keys):
    code, shown = at_terminal(edit(long_file), keys)
    assert code == 3, shown
    assert shown.rstrip().splitlines()[-2] == "copy-as-decode: no place picked; nothing was changed", shown
    assert long_file.read_text() == LONG and "editing" not in shown and "interrupted" not in shown


def test_without_a_terminal_the_candidates_are_listed_and_nothing_is_edited(long_file):
    done = subprocess.run(edit(long_file), capture_output=True, stdin=subprocess.DEVNULL)
    err = done.stderr.decode()
    assert done.returncode == 3 and len(candidates(err)) >= 2 and QUESTION not in err, err
    assert "nothing was changed; pass --at LINE, --lines A-B or --first-candidate\n" in err
    assert long_file.read_text() == LONG and "editing" not in err


@pytest.mark.parametrize("terminal", [False, True])
def test_first_candidate_takes_the_first_without_asking(long_file, terminal):
    command = edit(long_file, "--first-candidate")
    if terminal:
        code, shown = at_terminal(command, None)
    else:
        done = subprocess.run(command, capture_output=True, stdin=subprocess.DEVNULL)
        code, shown = done.returncode, done.stderr.decode()
    assert code == 0 and QUESTION not in shown and "the first candidate taken (--first-candidate)" in shown, shown
    start, end, name = next((int(a), int(b), n) for a, b, n in re.findall(r"editing lines (\d+)-(\d+) \((\w+)\)", shown))
    assert changed_lines(long_file) and changed_lines(long_file) <= set(range(start, end + 1))
    assert "loads 1, searches 1" in shown and STATS.search(shown), shown


def test_the_real_command_edits_the_picked_place_on_its_model(long_file):
    """The tiny model chooses, the user picks the first, and the edit decodes there (cut off by its budget)."""
    code, shown = at_terminal([*REAL, "edit", str(long_file), "-i", UNDECIDED, "--model", "tiny", "--threads", "1",
                               "--max-new-tokens", "3"], b"\r", timeout=300)
    start, end, name = candidates(shown)[0]
    assert code == 3 and f"editing lines {start}-{end} ({name})" in shown, shown
    assert shown.rstrip().endswith(f"nothing was changed (window 1/1: lines {start}-{end} ({name}))"), shown
    assert re.search(r"^tiny \(\w+\), \w+: stopped at cap; .* forwards, \d+\.\d\d s ", shown, re.M), shown
