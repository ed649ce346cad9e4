"""What `copy-as-decode serve-apply` adds to a merge: the endpoint's latency over engine/apply.py's apply called in
process, on the apply corpus's long files (synthesis/apply_blocks.py).

    copy-as-decode bench apply-endpoint [--cases all|development|heldout] [--lines LO-HI] [--limit N]
                                        [--repeat R] [--json OUT]

The server runs as a user runs it, in its own process (`serve-apply --port 0 --no-model`); the client is one
keep-alive HTTP/1.1 connection that sends Morph's request (the file and the block in one user message, as JSON)
and reads the answer's content back. A request's time runs from before its body is encoded to after the answer is
decoded: what a fast-apply client waits. Each case is merged `--repeat` times each way, in turn (in process, then
over HTTP), and the medians are compared: added = endpoint - in process. Beside it `door`: a request's time less
the merge's own time in the server (its Server-Timing header), on the same request: what HTTP and JSON cost,
without the noise of two merges on a shared machine. Only cases the merge places without a
model are run (a case that needs the model or is refused answers an error, not a merge); every answer must be the
in-process merge, byte for byte.

OUT (JSON): the options, a summary per case set (development, held-out, all) and every case's medians.
"""
import http.client
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

CASE_SETS = ("all", "development", "heldout")


def add_arguments(p) -> None:
    from copy_as_decode.cases.corpora import line_range
    p.add_argument("--cases", choices=CASE_SETS, default="all",
                   help="development, held-out (synthesis/apply_blocks.py says which) or all cases; reported apart")
    p.add_argument("--lines", type=line_range, default=(300, 3000), metavar="LO-HI",
                   help="only files of LO..HI lines (default 300-3000)")
    p.add_argument("--limit", type=int, default=40, help="at most this many cases, spread over the corpus (default 40)")
    p.add_argument("--repeat", type=int, default=3, help="timed merges of each case, each way (default 3)")
    p.add_argument("--json", default="results/apply-endpoint.json")


def chosen(args) -> list[dict]:
    """The cases of the set and the line range whose merge needs no model, spread to --limit."""
    from copy_as_decode.cases.corpora import spread
    from copy_as_decode.synthesis.apply_blocks import build
    lo, hi = args.lines
    cases = [c for c in build() if lo <= c["lines"] <= hi
             and (args.cases == "all" or c["development"] == (args.cases == "development"))]
    # twice the cases asked for, spread, are merged once to find those placed without a model (all of them, each
    # merged once, would take minutes); those are spread again to --limit
    placed = [c for c in spread(cases, 2 * args.limit) if merged(c) is not None] if cases else []
    return spread(placed, args.limit) if placed else []


def merged(case: dict) -> str | None:
    """The in-process merge, as the endpoint calls it (no model, no language: the request says none), or None
    when it is refused or needs a model."""
    from copy_as_decode.core.contract import EditError
    from copy_as_decode.engine.apply import apply
    from copy_as_decode.engine.request import EditRequest
    try:
        return apply(EditRequest(case["before"], block=case["block"])).text
    except (EditError, ValueError):
        return None


class Server:
    """`copy-as-decode serve-apply` in a process of its own, and one keep-alive connection to it."""

    def __enter__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "copy_as_decode.cli", "serve-apply", "--port", "0",
                                      "--no-model"], stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        if "listening on " not in line:
            self.proc.kill()
            raise RuntimeError(f"serve-apply did not start: {line.strip() or self.proc.wait()}")
        url = urlsplit(line.split("listening on ")[1].split()[0])
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
        return self

    def merge(self, case: dict) -> tuple[str, float]:
        """The merged file, and the seconds the server says its merge took (its Server-Timing header)."""
        body = json.dumps({"model": "copy-as-decode-apply", "messages": [{"role": "user", "content": (
            f"<instruction>apply the block</instruction>\n<code>{case['before']}</code>\n"
            f"<update>{case['block']}</update>")}]}).encode("utf-8")
        self.conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
        response = self.conn.getresponse()
        answer = json.loads(response.read())
        if response.status != 200:
            raise RuntimeError(f"{case['id']}: {response.status} {answer['error']['message']}")
        timing = dict(part.split("=") for part in response.getheader("Server-Timing").split(";")[1:])
        return answer["choices"][0]["message"]["content"], float(timing["dur"]) / 1e3

    def __exit__(self, *exc):
        self.conn.close()
        self.proc.terminate()
        self.proc.wait(30)


def timed(call) -> tuple[float, str]:
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def run_case(case: dict, server: Server, repeat: int) -> dict:
    inproc, endpoint, door, same = [], [], [], True
    for _ in range(repeat):
        s, want = timed(lambda: merged(case))
        inproc.append(s)
        s, (got, merge_s) = timed(lambda: server.merge(case))
        endpoint.append(s)
        door.append(s - merge_s)
        same = same and got == want
    a, b = statistics.median(inproc), statistics.median(endpoint)
    return {"id": case["id"], "language": case["language"], "style": case["style"], "lines": case["lines"],
            "bytes": len(case["before"].encode("utf-8")), "development": case["development"],
            "in_process_s": a, "endpoint_s": b, "added_s": b - a, "door_s": statistics.median(door), "same": same}


def summary(rows: list[dict]) -> dict:
    if not rows:
        return {}
    added = sorted(r["added_s"] for r in rows)
    return {"cases": len(rows), "median_lines": statistics.median(r["lines"] for r in rows),
            "median_in_process_s": statistics.median(r["in_process_s"] for r in rows),
            "median_endpoint_s": statistics.median(r["endpoint_s"] for r in rows),
            "median_added_s": statistics.median(added), "p90_added_s": added[int(0.9 * (len(added) - 1))],
            "median_ratio": statistics.median(r["endpoint_s"] / r["in_process_s"] for r in rows),
            "median_door_s": statistics.median(r["door_s"] for r in rows),
            "max_door_s": max(r["door_s"] for r in rows),
            "different_answers": sum(not r["same"] for r in rows)}


def run(args) -> int:
    from copy_as_decode.bench.columns import print_table
    cases = chosen(args)
    if not cases:
        print("bench apply-endpoint: no case matches", file=sys.stderr)
        return 2
    with Server() as server:
        server.merge(cases[0])  # the server's first request imports the merge: out of the timings
        rows = [run_case(c, server, args.repeat) for c in cases]
    sets = {"development": [r for r in rows if r["development"]], "heldout": [r for r in rows if not r["development"]],
            "all": rows}
    report = {"options": {k: v for k, v in vars(args).items() if k != "func"},
              "summary": {name: summary(rs) for name, rs in sets.items() if rs}, "cases": rows}
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1, default=str))
    columns = [("cases", "<12"), ("n", ">4"), ("lines", ">6"), ("in-process ms", ">13"), ("endpoint ms", ">11"),
               ("added ms", ">9"), ("added p90 ms", ">12"), ("ratio", ">6"), ("door ms", ">8"), ("door max ms", ">11"),
               ("different", ">9")]
    print_table(columns, [(name, s["cases"], f"{s['median_lines']:.0f}", f"{1e3 * s['median_in_process_s']:.1f}",
                           f"{1e3 * s['median_endpoint_s']:.1f}", f"{1e3 * s['median_added_s']:.1f}",
                           f"{1e3 * s['p90_added_s']:.1f}", f"{s['median_ratio']:.2f}", f"{1e3 * s['median_door_s']:.1f}",
                           f"{1e3 * s['max_door_s']:.1f}", s["different_answers"])
                          for name, s in report["summary"].items()], note="   (medians over cases)")
    print(f"wrote {out}")
    return 0
