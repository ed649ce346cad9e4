"""While an edit decodes, in a real (headless) Neovim: the plugin declares the features `pick`, `preview` and
`place`; the server (tests/e2e/standin_server.py, which plays the server's side on a scripted timeline) asks
where the edit should go, and vim.ui.select lists the places while their lines are highlighted and numbered;
the chosen place is highlighted with its label; the new text streams in as an inline diff of extmarks (removed
lines in DiffDelete, new lines as DiffAdd virtual lines) while the buffer stays as it was; the reviewed edit is
decided in place hunk by hunk (gh, gH, ga), and the buffer and the file hold exactly the accepted hunks.

Screen captures (text, and PNGs drawn from their cells) go to $COPY_AS_DECODE_ARTIFACTS; with
$COPY_AS_DECODE_DOC_IMG (docs/img) the PNGs also go there."""
import json
import sys

import pytest
from editor_e2e import (
    E2E,
    FIXTURES,
    PREVIEW_FIXTURE,
    PREVIEW_INSTRUCTION,
    PREVIEW_PICK,
    keep_screenshots,
    standin_events,
    standin_script,
    with_preview_hunks,
)
from test_neovim_e2e import run_neovim
from test_vscode_e2e import ARTIFACTS

sys.path.insert(0, str(E2E))
from screen_png import render  # noqa: E402


def lines_with(marks, group):
    return sorted({line for line, what in marks if what == group})


@pytest.mark.editor
def test_neovim_place_pick_preview_review(tmp_path):
    standin = standin_script(tmp_path, review=True)
    screens = ARTIFACTS / "neovim-preview"
    screens.mkdir(parents=True, exist_ok=True)
    # accept the docstring (its virtual lines follow line 4), reject the comment (line 7 once the docstring is
    # in), accept the rest
    decide = [{"line": 4, "keys": "gh"}, {"line": 7, "keys": "gH"}, {"line": 1, "keys": "ga"}]
    spec = {"sync": str(standin["sync"]), "pick": PREVIEW_PICK, "decide": decide, "screens": str(screens),
            "streaming_lines": 3}  # the middle preview, where the server waits
    report = run_neovim(tmp_path, PREVIEW_FIXTURE, "command", PREVIEW_INSTRUCTION, {"review": "always"},
                        CAD_CMD=json.dumps(standin["cmd"]), CAD_PREVIEW=json.dumps(spec),
                        CAD_CURSOR=json.dumps({"line": 20, "character": 4}), **standin["env"])
    log = report["log"] + "\n--- report\n" + json.dumps({k: v for k, v in report.items() if k != "log"}, indent=1,
                                                         default=str)
    events = standin_events(standin["log"])
    assert events[0] == {"event": "initialize", "clientFeatures": ["pick", "preview", "place"]}, log
    assert {"event": "pick", "index": PREVIEW_PICK} in events, log
    assert report["pick_items"] == ["1. variance — lines 18-23, at the cursor",
                                    "2. mean — lines 4-8, named in the instruction"], log
    pick = "\n".join(report["screens"]["pick"])
    assert "1: variance?" in pick and "2: mean?" in pick, log  # both places numbered in the buffer
    marks = report["marks"]
    # the place: lines 4-8 highlighted, the label after line 4
    assert lines_with(marks["place"], "CopyAsDecodePlace") == [4, 5, 6, 7, 8], log
    assert [4, "virt_text  ← editing 4-8 (mean) "] in marks["place"], log
    # half-way: the docstring as a virtual line under `def mean`, nothing struck, the rest still the place
    assert [4, 'below """The arithmetic mean of `values`; 0.0 when there are none.""" CopyAsDecodeAdded'] in \
        marks["streaming"], log
    assert lines_with(marks["streaming"], "CopyAsDecodeRemoved") == [], log
    assert lines_with(marks["streaming"], "CopyAsDecodePlace") == [6, 7, 8], log
    # the review in place: the two replaced lines in DiffDelete, their new lines under them, the keys above
    assert lines_with(marks["review"], "CopyAsDecodeRemoved") == [6, 8], log
    assert [6, "below for v in values:  # ints or floats CopyAsDecodeAdded"] in marks["review"], log
    assert sum(1 for _, what in marks["review"] if what.startswith("above gh accept · gH reject")) == 3, log
    assert report["text_in_review"] == (FIXTURES / PREVIEW_FIXTURE).read_text(encoding="utf-8"), log
    # the buffer and the file hold the docstring and the new return, not the comment
    expected = with_preview_hunks([0, 2])
    assert report["status"] == "applied", log
    assert report["text"] == expected, log
    assert report["path"].read_text(encoding="utf-8") == expected, log
    assert {"event": "applyEdit", "applied": True, "failureReason": None} in events, log
    pngs = {f"neovim-{name}.png": render(screens / f"neovim-{name}.json", screens / f"neovim-{name}.png")
            for name in ("pick", "place", "streaming", "review")}
    keep_screenshots(pngs)
