"""A stand-in for `copy-as-decode worker` that speaks the same protocol (docs/worker-protocol.md) without a model.

The instruction of an `edit` IS the edit program, resolved against the document with core.resolver, so tests
know the exact result. Lines at its start that begin with "#" steer the double instead:

    #slow S [N]      N progress steps (default 100) of S seconds each before answering; cancellable
    #crash           exit at once with status 3 (after a line on stderr)
    #error CODE MSG  answer with that error

A program that does not parse or resolve is answered with error 1003. Stats add `model`, `device`, `dtype`,
`pid`, `selector` and `max_new_tokens` so tests can see which process and which settings served an edit.
"""
import argparse
import json
import os
import queue
import sys
import threading
import time

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Copy, CopySpan, Gen, ProgramSyntaxError, parse
from copy_as_decode.core.resolver import ResolveError, resolve

CANCELLED = -32800

out_lock = threading.Lock()
jobs: "queue.Queue[dict | None]" = queue.Queue()
state_lock = threading.Lock()
current = {"id": None}
cancelled: set = set()
queued: set = set()


def send(msg: dict) -> None:
    with out_lock:
        sys.stdout.write(json.dumps(msg, ensure_ascii=False) + "\n")
        sys.stdout.flush()


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
        return answer(rid, error={"code": -32602, "message": "document and instruction must be strings"})
    directives, program = [], instruction
    while program.startswith("#"):
        line, _, program = program.partition("\n")
        directives.append(line[1:].split(maxsplit=2))
    t0 = time.perf_counter()
    sampled = spliced = 0
    for d in directives:
        if d[0] == "crash":
            print("fake worker: crashing as asked", file=sys.stderr, flush=True)
            os._exit(3)
        if d[0] == "error":
            return answer(rid, error={"code": int(d[1]), "message": d[2] if len(d) > 2 else "engine failure"})
        if d[0] == "slow":
            step, n = float(d[1]), int(d[2]) if len(d) > 2 else 100
            for _ in range(n):
                with state_lock:
                    if rid in cancelled:
                        return answer(rid, error={"code": CANCELLED, "message": "request cancelled"})
                time.sleep(step)
                sampled += 1
                send({"jsonrpc": "2.0", "method": "progress",
                      "params": {"id": rid, "sampled": sampled, "spliced": spliced, "text_chars": 0}})
    try:
        items = parse(program)
        text = resolve(items, document)
    except (ProgramSyntaxError, ResolveError) as e:
        return answer(rid, error={"code": 1003, "message": f"program could not be resolved: {e}"})
    lines = split_lines(document)
    for item in items:
        if isinstance(item, Gen):
            sampled += len(item.text)
        elif isinstance(item, Copy):
            spliced += sum(len(x) for x in lines[item.start - 1:item.end])
        elif isinstance(item, CopySpan):
            spliced += 1
    send({"jsonrpc": "2.0", "method": "progress",
          "params": {"id": rid, "sampled": sampled, "spliced": spliced, "text_chars": len(text)}})
    total = time.perf_counter() - t0
    answer(rid, {"text": text, "program": program, "stats": {
        "sampled": sampled, "spliced": spliced, "forwards": len(items), "prefill_s": 0.0, "decode_s": total,
        "splice_s": 0.0, "mask_s": 0.0, "total_s": total, "prompt_tokens": len(document), **info,
        "selector": params.get("selector"), "max_new_tokens": params.get("max_new_tokens")}})


def model_loop(info: dict) -> None:
    while (req := jobs.get()) is not None:
        with state_lock:
            queued.discard(req["id"])
            if req["id"] in cancelled:
                cancelled.discard(req["id"])
                continue  # answered when it was cancelled
            current["id"] = req["id"]
        try:
            run_edit(req, info)
        except Exception as e:  # a failed request never takes the worker down
            answer(req["id"], error={"code": 1000, "message": f"{type(e).__name__}: {e}"})
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
    threading.Thread(target=model_loop, args=(info,), daemon=True).start()
    for raw in sys.stdin:
        try:
            msg = json.loads(raw)
        except ValueError:
            answer(None, error={"code": -32700, "message": "parse error"})
            continue
        method, rid, params = msg.get("method"), msg.get("id"), msg.get("params")
        if method == "edit":
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
                answer(target, error={"code": CANCELLED, "message": "request cancelled"})
            answer(rid, None)
        elif method == "ping":
            answer(rid, {"model": args.model, "device": args.device, "dtype": args.dtype})
        elif method == "shutdown":
            answer(rid, None)
            break
        else:
            answer(rid, error={"code": -32601, "message": f"unknown method {method!r}"})
    os._exit(0)


if __name__ == "__main__":
    main()
