"""`bench edit` end to end with the tiny model: every selector side by side, the exactness columns filled."""
import argparse
import json

from copy_as_decode.bench import edit_bench


def test_edit_bench_runs_every_selector_side_by_side(tmp_path, capsys):
    p = argparse.ArgumentParser()
    edit_bench.add_arguments(p)
    out = tmp_path / "edit.json"
    args = p.parse_args(["--model", "tiny", "--limit", "2", "--corpora", "humanevalfix-python", "--max-new-tokens",
                         "24", "--selectors", *edit_bench.SELECTORS, "--json", str(out)])
    assert edit_bench.run(args) == 0
    report = json.loads(out.read_text())
    rows = report["corpora"]["humanevalfix-python"]["cases"]
    by = {(r["id"], r["selector"]): r for r in rows}
    ids = {r["id"] for r in rows}
    assert len(ids) == 2 and len(rows) == 2 * len(edit_bench.SELECTORS)
    for i in ids:
        warm, cold = by[i, "grammar"], by[i, "grammar-cold"]
        # the cached prompt head changes time, never what is decoded
        assert (warm["sampled"], warm["forwards"]) == (cold["sampled"], cold["forwards"])
        for sel in ("grammar", "grammar-cold", "verified", "full"):  # the random model never finishes: no edit
            row = by[i, sel]
            assert (row["complete"], row["stop"], row["sampled"], row["exact"]) == (False, "cap", 24, False)
    summary = report["corpora"]["humanevalfix-python"]["summary"]
    assert set(summary) == set(edit_bench.SELECTORS)
    assert summary["verified"]["complete"] == 0
    assert "grammar-cold" in capsys.readouterr().out
