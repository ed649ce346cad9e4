"""While an edit decodes, in real VS Code (code-server + Chromium): the extension declares the features
`pick`, `preview` and `place`; the server (tests/e2e/standin_server.py, which plays the server's side on a
scripted timeline) asks where the edit should go, and the quick pick lists the places with the focused one
highlighted in the editor; the chosen place is highlighted with its label; the new text streams in as an inline
diff (struck-through old lines, new lines after them) while the document stays as it was; the reviewed edit is
decided hunk by hunk with CodeLens, and the saved file holds exactly the accepted hunks.

Screenshots go to $COPY_AS_DECODE_ARTIFACTS; with $COPY_AS_DECODE_DOC_IMG (docs/img) also there."""
import json

import pytest
from editor_e2e import (
    PREVIEW_FIXTURE,
    PREVIEW_INSTRUCTION,
    PREVIEW_PICK,
    keep_screenshots,
    standin_events,
    standin_script,
    with_preview_hunks,
)
from test_vscode_e2e import run_vscode


@pytest.mark.editor
def test_vscode_place_pick_preview_review(tmp_path):
    standin = standin_script(tmp_path, review=True)
    # accept the docstring, reject the comment (now the first pending hunk), accept the rest
    decide = [["accept", 0], ["reject", 0], ["accept", "all"]]
    spec = {"sync": str(standin["sync"]), "pick": PREVIEW_PICK, "decide": decide}
    report = run_vscode(tmp_path, PREVIEW_FIXTURE, "palette", PREVIEW_INSTRUCTION, {"review": "always"},
                        CAD_CMD=json.dumps(standin["cmd"]), CAD_PREVIEW=json.dumps(spec),
                        CAD_CURSOR=json.dumps({"line": 20, "character": 4}), **standin["env"])
    log = report["log"] + "\n--- report\n" + json.dumps({k: v for k, v in report.items() if k != "log"}, indent=1, default=str)
    events = standin_events(standin["log"])
    assert events[0] == {"event": "initialize", "clientFeatures": ["pick", "preview", "place"]}, log
    assert {"event": "pick", "index": PREVIEW_PICK} in events, log
    # the quick pick: label and detail of each place, in the server's order
    assert report["pickItems"] == [["variance", "lines 18-23, at the cursor"],
                                   ["mean", "lines 4-8, named in the instruction"]], log
    # the focused candidate is highlighted (its label after its first line); then the place, with the label
    assert any(x.startswith("def mean(values):") and "pick this place?" in x for x in report["pickLines"]), log
    assert any(x.startswith("def mean(values):") and "editing 4-8 (mean)" in x for x in report["placeLines"]), log
    assert not any(x.startswith("[-]") for x in report["placeLines"]), log
    # half-way: the docstring shows after `def mean`, no old line struck yet (the comment's line not reached)
    assert any(x.startswith("def mean(values):") and '"""The arithmetic mean' in x for x in report["streamLines"]), log
    assert not any(x.startswith("[-]") for x in report["streamLines"]), log
    # the review in place: the two replaced lines struck, each with its new line after it
    struck = [x for x in report["reviewLines"] if x.startswith("[-]")]
    assert [" ".join(x.split("\u2192")[0].split()) for x in struck] == [
        "[-] for v in values:", "[-] return total / len(values)"], log
    assert "# ints or floats" in struck[0] and "max(len(values), 1)" in struck[1], log
    first_review = report["lenses"][2]
    assert first_review[:2] == ["Accept all (3)", "Reject all"] and first_review.count("Accept") == 3, log
    # the document never changed before the decisions; the saved file holds the docstring and the new return
    assert report["outcome"] == "applied", log
    assert report["path"].read_text(encoding="utf-8") == with_preview_hunks([0, 2]), log
    assert {"event": "applyEdit", "applied": True, "failureReason": None} in events, log
    shots = {s.rsplit("-", 1)[-1]: s for s in report["screenshots"]}
    keep_screenshots({f"vscode-{name}.png": shots[f"{name}.png"] for name in ("pick", "place", "streaming", "review")})
