"""A stand-in for `copy-as-decode worker` that speaks the same protocol (docs/worker-protocol.md) without a model.

The instruction of an `edit` IS the edit program, resolved against the document with core.resolver, so tests
know the exact result. Lines at its start that begin with "#" steer the double instead:

    #slow S [N]      N progress steps (default 100) of S seconds each before answering; cancellable
    #crash           exit at once with status 3 (after a line on stderr)
    #error CODE MSG  answer with that error (without error data)
    #refuse [STOP]   resolve the program, then refuse it as the real worker does (1004, the result in
                     `data.text`): as a deletion nobody asked for (stop `skipped`), or with STOP `unparsed`
                     as a result with new parse errors

and misbehave as a broken worker would:

    #garbage         write lines that are no JSON-RPC message (text, a JSON number) before answering
    #malformed KIND  break the protocol, KIND one of: `error` (an error that is a string), `id` (the answer's
                     id a list), `progress` (a progress whose params are a list); then answer as usual
    #wrongid         answer with an id the client never sent
    #hang            never answer, ignoring `cancel`, `shutdown`, the end of input and SIGTERM

and say where the edit lands (docs/worker-protocol.md, `locate` and the progress fields `place` and
`partial`):

    #place A-B NAME  before anything else, a progress with `place` {"lines": [A, B], "symbols": [NAME]}
    #stream S        before answering, a progress with `partial` per line of the new text of the window
                     (`lines`, else the #place lines, else the document), S seconds apart; cancellable
    #pick A-B:NAME ...   `locate` answers not decisive, with these candidates (in this order)
    #decided A-B:NAME    `locate` answers decisive, with this candidate (a place the model chose)

Any other instruction's `locate` is decisive with no candidates: the selection, or the whole document.

A `prepare` answers {"lines" (the selection, else the whole document), "symbols": [], "tokens" (the
document's characters), "cached": 0, "seconds", "at"} after S seconds in cancellable steps when the document's
first line is `#prepare S`, else at once; like the real worker's, it stops (cancelled) as soon as another
request waits, and logs "fake worker: prepare ID stopped".

An instruction without a line break (what an editor's one-line input box gives) may spell line breaks as
the two characters `\\n`: `#slow 0.05 20\\n<gen>x\\n</gen>`.

With `lines` [A, B] (the selection), or a `place` (the first of its windows), the program edits those lines
only, as a windowed edit does, and the rest of the document is kept; stats echo `lines`, `place` and `at` (the
cursor) as sent.

Each #slow step and each generated character counts as one sampled token. Like the real worker it takes
`max_new_tokens` "auto" (the default: no limit here) or a positive integer; an edit that would sample more is
answered with INCOMPLETE (1004), the contract's message and data {"stop": "cap", "limit", "stats"}. A program
that does not parse or resolve is answered with error 1003. Results are {"text", "program", "stop", "stats"},
plus, as the real worker's, "status": "unchanged" and why in "message" when the text is the document as sent;
stats add `model`, `device`, `dtype`, `pid`, `selector` and `max_new_tokens` (as sent) so tests can see which
process and which settings served an edit.

After `shutdown`, as the real worker does, the running edit stops at its next step and queued ones are
cancelled before the process exits (here also at the end of its input). An edit stopped early logs
"fake worker: edit ID stopped (cancelled|shutdown)" on stderr, so tests can tell which came first.
"""
import argparse
import json
import os
import queue
import signal
import sys
import threading
import time

from copy_as_decode.core import contract
from copy_as_decode.core.budget import parse_budget
from copy_as_decode.core.contract import (
    BAD_PARAMS,
    BAD_PROGRAM,
    E_CANCELLED,
    ENGINE_ERROR,
    INCOMPLETE,
    NO_METHOD,
    PARSE_ERROR,
)
from copy_as_decode.core.document import split_lines, with_line_endings
from copy_as_decode.core.program import Copy, CopySpan, Gen, ProgramSyntaxError, parse
from copy_as_decode.core.resolver import ResolveError, resolve

out_lock = threading.Lock()
jobs: "queue.Queue[dict | None]" = queue.Queue()
state_lock = threading.Lock()
current = {"id": None}
cancelled: set = set()
queued: set = set()
stopping = threading.Event()  # `shutdown` arrived
# what #refuse says, by stop, as the real worker's messages do (core/deletions.py, core/syntax_check.py)
REFUSALS = {contract.SKIPPED: "the model's answer deletes lines 2-3 unasked",
            contract.UNPARSED: "the result no longer parses where the document did: line 2"}


def send(msg: dict) -> None:
    send_raw(json.dumps(msg))  # ASCII, as the real worker writes


def send_raw(line: str) -> None:
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def parse_instruction(instruction: str) -> tuple[list[list[str]], str]:
    """The directives at the instruction's start (each split in up to 3 words) and the program after them."""
    if "\n" not in instruction:
        instruction = instruction.replace("\\n", "\n")
    directives, program = [], instruction
    while program.startswith("#"):
        line, _, program = program.partition("\n")
        directives.append(line[1:].split(maxsplit=2))
    return directives, program


def answer(rid, result=None, error=None) -> None:
    msg = {"jsonrpc": "2.0", "id": rid}
    if error is not None:
        msg["error"] = error
    else:
        msg["result"] = result
    send(msg)


def run_edit(req: dict, info: dict) -> None:
    rid, params = req["id"], req.get("params") or {}
    document, instruction = params.get("document"), params.get("instruction")
    if not isinstance(document, str) or not isinstance(instruction, str):
        return answer(rid, error={"code": BAD_PARAMS, "message": "document and instruction must be strings"})
    try:
        limit = parse_budget(params.get("max_new_tokens"))
    except ValueError as e:
        return answer(rid, error={"code": BAD_PARAMS, "message": str(e)})
    directives, program = parse_instruction(instruction)
    t0 = time.perf_counter()
    sampled = spliced = 0

    def stats(stop: str, forwards: int) -> dict:
        total = time.perf_counter() - t0
        return {"stop": stop, "budget": limit or 0, "sampled": sampled, "spliced": spliced, "forwards": forwards,
                "prefill_s": 0.0, "decode_s": total, "splice_s": 0.0, "mask_s": 0.0, "total_s": total,
                "prompt_tokens": len(document), **info,
                "selector": params.get("selector"), "max_new_tokens": params.get("max_new_tokens"),
                "lines": params.get("lines"), "place": params.get("place"), "at": params.get("at")}

    def incomplete():
        e = contract.IncompleteEdit(contract.CAP, limit)
        return answer(rid, error={"code": INCOMPLETE, "message": str(e), "data": {
            "stop": e.stop, "limit": e.limit, "stats": stats(e.stop, sampled)}})

    bounds = params.get("lines") or (params["place"]["windows"][0]["lines"] if params.get("place") else None)
    first, last = bounds or (1, len(split_lines(document)))
    for d in directives:
        if d[0] == "place":
            first, last = bounds or [int(n) for n in d[1].split("-")]
            send({"jsonrpc": "2.0", "method": "progress", "params": {
                "id": rid, "sampled": 0, "spliced": 0, "budget": limit or 0, "text_chars": 0, "window": "",
                "place": {"lines": [first, last], "symbols": d[2:], "window": 1, "of": 1, "reason": "scripted"}}})
    for d in directives:
        if d[0] == "garbage":
            send_raw("fake worker: a line that is no message")
            send_raw("42")
        if d[0] == "malformed":
            send_raw(json.dumps({"jsonrpc": "2.0", "id": rid, "error": "boom"} if d[1] == "error" else
                                {"jsonrpc": "2.0", "id": [rid], "result": None} if d[1] == "id" else
                                {"jsonrpc": "2.0", "method": "progress", "params": [rid]}))
        if d[0] == "hang":
            print(f"fake worker: edit {rid} hangs", file=sys.stderr, flush=True)
            threading.Event().wait()
        if d[0] == "crash":
            print("fake worker: crashing as asked", file=sys.stderr, flush=True)
            os._exit(3)
        if d[0] == "error":
            return answer(rid, error={"code": int(d[1]), "message": d[2] if len(d) > 2 else "engine failure"})
        if d[0] == "slow":
            step, n = float(d[1]), int(d[2]) if len(d) > 2 else 100
            for _ in range(n):
                with state_lock:
                    why = "cancelled" if rid in cancelled else "shutdown" if stopping.is_set() else None
                if why:
                    print(f"fake worker: edit {rid} stopped ({why})", file=sys.stderr, flush=True)
                    return answer(rid, error={"code": E_CANCELLED, "message": "request cancelled"})
                time.sleep(step)
                sampled += 1
                if limit is not None and sampled > limit:
                    return incomplete()
                send({"jsonrpc": "2.0", "method": "progress",
                      "params": {"id": rid, "sampled": sampled, "spliced": spliced, "budget": limit or 0,
                                 "text_chars": 0}})
    lines = split_lines(document)
    try:
        items = parse(program)
        part = resolve(items, "".join(lines[first - 1:last]))
        text = with_line_endings(document, "".join(lines[:first - 1]) + part + "".join(lines[last:]))
    except (ProgramSyntaxError, ResolveError) as e:
        return answer(rid, error={"code": BAD_PROGRAM, "message": f"program could not be resolved: {e}"})
    for d in directives:
        if d[0] == "stream":
            shown = split_lines(part)
            for k in range(1, len(shown) + 1):
                with state_lock:
                    if rid in cancelled or stopping.is_set():
                        print(f"fake worker: edit {rid} stopped (cancelled)", file=sys.stderr, flush=True)
                        return answer(rid, error={"code": E_CANCELLED, "message": "request cancelled"})
                send({"jsonrpc": "2.0", "method": "progress", "params": {
                    "id": rid, "sampled": k, "spliced": 0, "budget": limit or 0, "text_chars": 0, "window": "",
                    "partial": {"lines": [first, last], "text": "".join(shown[:k])}}})
                time.sleep(float(d[1]))
    for d in directives:
        if d[0] == "refuse":
            stop = d[1] if len(d) > 1 else contract.SKIPPED
            why = REFUSALS[stop]
            return answer(rid, error={"code": INCOMPLETE, "message": f"{why}; nothing was changed", "data": {
                "stop": stop, "limit": limit or 0, "stats": stats(stop, 1), "text": text}})
    for item in items:
        if isinstance(item, Gen):
            sampled += len(item.text)
        elif isinstance(item, Copy):
            spliced += sum(len(x) for x in lines[item.start - 1:item.end])
        elif isinstance(item, CopySpan):
            spliced += 1
    if limit is not None and sampled > limit:
        return incomplete()
    send({"jsonrpc": "2.0", "method": "progress",
          "params": {"id": rid, "sampled": sampled, "spliced": spliced, "budget": limit or 0,
                     "text_chars": len(text)}})
    result = {"text": text, "program": program, "stop": contract.EOS, "stats": stats(contract.EOS, len(items))}
    if text == document:
        result.update(status=contract.UNCHANGED, message="the model answered the text as it was")
    answer(rid + 1000 if ["wrongid"] in directives else rid, result)


def _spans(words: list[str]) -> list[dict]:
    """`A-B:NAME` words as candidates."""
    out = []
    for word in words:
        span, _, name = word.partition(":")
        a, _, b = span.partition("-")
        out.append({"lines": [int(a), int(b)], "symbol": name, "first": f"def {name}():", "p": None})
    return out


def run_locate(req: dict) -> None:
    """`locate`: scripted by #pick and #decided; else the selection or the whole document, decided."""
    rid, params = req["id"], req.get("params") or {}
    document, instruction = params.get("document"), params.get("instruction")
    if not isinstance(document, str) or not isinstance(instruction, str):
        return answer(rid, error={"code": BAD_PARAMS, "message": "document and instruction must be strings"})
    for d in parse_instruction(instruction)[0]:
        if d[0] in ("pick", "decided"):
            candidates = _spans(" ".join(d[1:]).split())
            return answer(rid, {"windows": [{"lines": candidates[0]["lines"], "symbols": [candidates[0]["symbol"]]}],
                                "reason": "scripted", "decisive": d[0] == "decided", "candidates": candidates})
    lines = params.get("lines") or [1, max(1, len(split_lines(document)))]
    answer(rid, {"windows": [{"lines": lines, "symbols": []}], "reason": "the selection" if params.get("lines")
                 else "scripted: the whole document", "decisive": True, "candidates": []})


def run_prepare(req: dict) -> None:
    rid, params = req["id"], req.get("params") or {}
    document = params.get("document")
    if not isinstance(document, str):
        return answer(rid, error={"code": BAD_PARAMS, "message": "document must be a string"})
    first = (document.split("\n", 1)[0].split() or [""])
    end, start = time.monotonic() + (float(first[1]) if first[0] == "#prepare" else 0.0), time.monotonic()
    while time.monotonic() < end:
        with state_lock:
            stop = req["id"] in cancelled or stopping.is_set() or not jobs.empty()  # it never delays an edit
        if stop:
            print(f"fake worker: prepare {rid} stopped", file=sys.stderr, flush=True)
            return answer(rid, error={"code": E_CANCELLED, "message": "cancelled"})
        time.sleep(0.02)
    answer(rid, {"lines": params.get("lines") or [1, max(1, len(split_lines(document)))], "symbols": [],
                 "tokens": len(document), "cached": 0, "seconds": time.monotonic() - start, "at": params.get("at")})


def model_loop(info: dict) -> None:
    while (req := jobs.get()) is not None:
        with state_lock:
            queued.discard(req["id"])
            if req["id"] in cancelled:
                cancelled.discard(req["id"])
                continue  # answered when it was cancelled
            if stopping.is_set():
                answer(req["id"], error={"code": E_CANCELLED, "message": "cancelled"})
                continue
            current["id"] = req["id"]
        try:
            if req.get("method") == "locate":
                run_locate(req)
            elif req.get("method") == "prepare":
                run_prepare(req)
            else:
                run_edit(req, info)
        except Exception as e:  # a failed request never takes the worker down
            answer(req["id"], error={"code": ENGINE_ERROR, "message": f"{type(e).__name__}: {e}"})
        with state_lock:
            current["id"] = None
            cancelled.discard(req["id"])


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="fake")
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    info = {"model": args.model, "device": args.device, "dtype": args.dtype, "pid": os.getpid()}
    print(f"fake worker {os.getpid()}: model {args.model} ready", file=sys.stderr, flush=True)
    model = threading.Thread(target=model_loop, args=(info,), daemon=True)
    model.start()
    for raw in sys.stdin:
        try:
            msg = json.loads(raw)
        except ValueError:
            answer(None, error={"code": PARSE_ERROR, "message": "parse error"})
            continue
        method, rid, params = msg.get("method"), msg.get("id"), msg.get("params")
        if method in ("edit", "locate", "prepare"):
            instruction = (params or {}).get("instruction")
            if isinstance(instruction, str) and ["hang"] in parse_instruction(instruction)[0]:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)  # here: only the main thread may set it
            with state_lock:
                queued.add(rid)
            jobs.put(msg)
        elif method == "cancel":
            target = (params or {}).get("id")
            with state_lock:
                waiting = target in queued
                if waiting or current["id"] == target:
                    cancelled.add(target)
            if waiting:
                answer(target, error={"code": E_CANCELLED, "message": "request cancelled"})
            answer(rid, None)
        elif method == "ping":
            answer(rid, {"model": args.model, "device": args.device, "dtype": args.dtype, "context": None})
        elif method == "shutdown":
            answer(rid, None)
            break
        else:
            answer(rid, error={"code": NO_METHOD, "message": f"unknown method {method!r}"})
    stopping.set()
    jobs.put(None)
    model.join()
    os._exit(0)


if __name__ == "__main__":
    main()
