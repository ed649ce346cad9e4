"""The `copy-as-decode` command line. Every failure is one line on stderr and a non-zero exit:
2 for bad input or a failed edit; 3 for an edit that did not finish, was refused (it no longer parses, or drops
lines or a statement unasked: the refused diff follows on stderr) or has no decided place (the candidates are
listed; at a terminal the user picks one instead, and a cancelled pick is exit 3); 4 for an edit or apply whose
result is the file as it was; 130 when interrupted. Nothing is written but on exit 0. Every edit that ran the
model ends with its stats line, whichever way it ended.

Only the subcommand that runs a model imports torch: `program`, `resolve`, `models list` and `--help` start fast.
"""
import argparse
import difflib
import importlib
import os
import signal
import sys
import threading
from dataclasses import replace
from pathlib import Path

from copy_as_decode.core import contract
from copy_as_decode.engine.make import make_engine
from copy_as_decode.engine.options import DEFAULT_MODEL, EDIT, WORKER, add_arguments, budget

BENCHES = {"ceiling": "ceiling", "roundtrip": "roundtrip", "kernel": "kernel", "edit": "edit_bench",
           "lsp-latency": "lsp_latency", "serve": "serve_bench", "forwards": "forwards", "apply": "apply_bench",
           "apply-endpoint": "apply_endpoint_bench", "places": "places"}


OWN_PARSERS = {"serve": "copy_as_decode.server.lsp", "serve-apply": "copy_as_decode.server.apply_endpoint",
               "train": "copy_as_decode.train.commands"}


class UserError(contract.EditError):
    pass


def read_text(path: str) -> str:
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise UserError(f"{path}: {e.strerror or e}") from None
    if b"\x00" in data:
        raise UserError(f"{path}: binary file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"{path}: not UTF-8 (byte {e.start})") from None


def write_stdout(text: str) -> None:
    sys.stdout.buffer.write(text.encode("utf-8"))  # bytes, so CRLF and a missing final newline survive
    sys.stdout.flush()


def writable(path: str) -> None:
    """Checked before any decoding, so a file that cannot be saved costs no model run."""
    target = Path(path)
    if not os.access(target, os.W_OK) or not os.access(target.parent, os.W_OK | os.X_OK):
        raise UserError(f"{path}: cannot write here (permission denied); nothing was changed")


def line_span(value: str) -> tuple[int, int]:
    a, sep, b = value.partition("-")
    try:
        span = int(a), int(b if sep else a)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected lines A-B, not {value!r}") from None
    if not 1 <= span[0] <= span[1]:
        raise argparse.ArgumentTypeError(f"expected lines A-B with 1 <= A <= B, not {value!r}")
    return span


def line_number(value: str) -> int:
    try:
        line = int(value)
    except ValueError:
        line = 0
    if line < 1:
        raise argparse.ArgumentTypeError(f"expected a line number >= 1, not {value!r}")
    return line


def cmd_program(args) -> int:
    from copy_as_decode.core.oracle import line_oracle, token_oracle
    from copy_as_decode.core.program import format_program
    oracle = token_oracle if args.token_level else line_oracle
    write_stdout(format_program(oracle(read_text(args.old), read_text(args.new))) + "\n")
    return 0


def cmd_resolve(args) -> int:
    from copy_as_decode.core.resolver import resolve
    write_stdout(resolve(read_text(args.program), read_text(args.old)))
    return 0


INTERRUPTED = threading.Event()


def _interrupt(signum, frame):
    """Ctrl-C: raised here, and remembered. One raised while a C library runs Python code (llama.cpp's log
    callback) is only printed by ctypes and lost; the edit's next check (Bar.check, between two forwards or two
    pieces of a prefill) raises it again."""
    INTERRUPTED.set()
    raise KeyboardInterrupt


class Bar(contract.Hooks):
    """Sampled tokens against the budget on stderr: the bar's end is where the edit would be cut off. It shows
    from the first progress on, so work without a model (an apply the parser places) prints no bar. Its check
    stops the edit at Ctrl-C."""

    def __init__(self, desc: str):
        self.desc, self.bar = desc, None

    def check(self) -> None:
        if INTERRUPTED.is_set():
            raise KeyboardInterrupt

    def progress(self, stats, text):
        if self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=None, unit="tok", desc=self.desc, file=sys.stderr, dynamic_ncols=True)
        self.bar.total, self.bar.n = stats.budget or None, stats.sampled
        if stats.windows:
            self.bar.set_description(stats.windows, refresh=False)
        self.bar.set_postfix(copied=stats.spliced, refresh=True)

    def place(self, place: dict) -> None:
        """Where the edit lands, before its decode: "editing lines 40-58 (fib)"."""
        first, last = place["lines"]
        which = f"window {place['window']}/{place['of']}: " if place.get("of", 1) > 1 else ""
        what = f"the whole file (lines {first}-{last}): {place.get('reason', '')}" if place.get("whole") else \
            f"lines {first}-{last}" + (f" ({', '.join(place['symbols'])})" if place["symbols"] else "")
        line = f"editing {which}{what}"
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def diff_text(path: str, document: str, text: str) -> str:
    return "".join(difflib.unified_diff(document.splitlines(True), text.splitlines(True), f"a/{path}", f"b/{path}"))


def put_result(args, document: str, text: str) -> None:
    """The edited text written to args.path (--write), else its unified diff on stdout."""
    if args.write:
        try:
            Path(args.path).write_bytes(text.encode("utf-8"))
        except OSError as e:
            raise UserError(f"{args.path}: {e.strerror or e}; nothing was changed") from None
    else:
        write_stdout(diff_text(args.path, document, text) or "(no change)\n")


def deletes(stats) -> str:
    return f"deletes {stats.deleted_lines} non-blank line{'s' if stats.deleted_lines != 1 else ''}"


def cmd_edit(args) -> int:
    document = read_text(args.path)
    if args.write:
        writable(args.path)
    engine = make_engine(args)
    from copy_as_decode.core.detect_language import of_file
    from copy_as_decode.engine.request import EditRequest
    from copy_as_decode.engine.selectors import edits_windows
    request = engine.resolve(EditRequest(document, args.instruction, args.selector, max_new_tokens=args.max_new_tokens,
                                         lines=args.lines, at=args.at, language=of_file(args.path, document)))
    bar = Bar(request.selector)
    try:
        if edits_windows(request.selector) and request.lines is None and request.at is None:
            place = placed(engine, request, bar, args.first_candidate)
            if place is None:
                return contract.EXIT_INCOMPLETE
            request = replace(request, place=place)
        result = engine.run(replace(request, hooks=bar))
    except contract.IncompleteEdit as e:
        bar.close()
        if e.stop in contract.REVIEWABLE and e.text is not None:  # what was refused, for the user to judge
            print(f"refused ({e.stop}), not written:", file=sys.stderr)
            sys.stderr.write(diff_text(args.path, document, e.text))
        if e.stats is not None:  # before the reason, which main prints as the last line
            print_stats(engine, e.stats)
        raise
    finally:
        bar.close()
    s = result.stats
    if result.text == document:
        print_stats(engine, s)
        what = f"lines {s.windows}" if s.windows[:1].isdigit() else "the file"
        print(f"copy-as-decode: no change: the model answered {what} as it was; nothing was written", file=sys.stderr)
        return contract.EXIT_UNCHANGED
    put_result(args, document, result.text)
    print_stats(engine, s)
    where = f"windows {s.windows}" if edits_windows(s.selector) else s.windows
    print(f"{where + '; ' if where else ''}{deletes(s)}", file=sys.stderr)
    return 0


def print_stats(engine, s) -> None:
    """What the model did and what it cost, one line on stderr after every edit that ran it: written, no change
    or refused (scripts read its "N forwards, T s")."""
    print(f"{engine.model_name} ({engine.dtype}), {s.selector}: stopped at {s.stop}; {s.sampled} sampled + "
          f"{s.spliced} copied tokens in {s.forwards} forwards, "
          f"{s.total_s:.2f} s (prefill {s.prefill_s:.2f}, decode {s.decode_s:.2f}, splice {s.splice_s:.2f}, "
          f"mask {s.mask_s:.2f})", file=sys.stderr)


def placed(engine, request, bar: Bar, first: bool):
    """Where an edit that names no lines lands (engine/locate.py), found once: the place the edit then takes
    as it is (EditRequest's `place`). A guess is never written: when the place is not decided, `first`
    (--first-candidate) takes the first candidate, a terminal asks the user to pick one, as editors do, and
    anywhere else the candidates are listed with their lines and nothing is edited (None), as after a
    cancelled pick."""
    from copy_as_decode.engine.locate import locate
    place = locate(engine, request.lf, request.instruction, language=request.language, hooks=bar)
    if place.decisive:
        return place.plan
    bar.close()
    if first:
        print(f"copy-as-decode: the place is not decided ({place.reason}); the first candidate taken "
              "(--first-candidate)", file=sys.stderr)
        return place.picked(0, f"the first candidate: {place.candidates[0].symbol}")
    print(f"copy-as-decode: the place is not decided ({place.reason}); candidates:", file=sys.stderr)
    for k, c in enumerate(place.candidates, 1):
        p = f", p={c.p:.2f}" if c.p is not None else ""
        print(f"  {k}. lines {c.start}-{c.end} ({c.symbol}{p}): {c.first}", file=sys.stderr)
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        print("nothing was changed; pass --at LINE, --lines A-B or --first-candidate", file=sys.stderr)
        return None
    k = asked(len(place.candidates))
    if k is None:
        print("copy-as-decode: no place picked; nothing was changed", file=sys.stderr)
        return None
    return place.picked(k, f"the user's pick: {place.candidates[k].symbol}")


def asked(n: int) -> int | None:
    """The candidate (0-based, of `n`) the user picks at the terminal: Enter the first, a number that one, and
    anything else asks again; None when the user cancels (q, Ctrl-C, the end of input)."""
    line = ""
    try:
        while True:
            print(f"edit which? [1-{n}, Enter: 1, q: cancel] ", end="", file=sys.stderr, flush=True)
            line = _typed_line()
            answer = line.strip().lower()
            if not line or answer in ("q", "quit"):
                break
            if not answer:
                return 0
            if answer.isdigit() and 1 <= int(answer) <= n:
                return int(answer) - 1
    except KeyboardInterrupt:
        line = ""
    if not line.endswith("\n"):  # Ctrl-C or Ctrl-D left the cursor after the question
        print(file=sys.stderr)
    return None


def _typed_line() -> str:
    """The next line typed, waited for in short polls: Ctrl-C's SIGINT may land on another thread (tqdm's monitor),
    and then only a return to Python code in the main thread runs its handler; a blocked read never returns."""
    import select
    while not select.select([sys.stdin], [], [], 0.2)[0]:
        if INTERRUPTED.is_set():
            raise KeyboardInterrupt
    return sys.stdin.readline()


def cmd_apply(args) -> int:
    from copy_as_decode.core.detect_language import of_file
    from copy_as_decode.engine.apply import ALREADY, apply
    from copy_as_decode.engine.request import EditRequest
    document = read_text(args.path)
    if args.block in (None, "-"):
        try:
            block = sys.stdin.buffer.read().decode("utf-8")
        except UnicodeDecodeError as e:
            raise UserError(f"the block on stdin is not UTF-8 (byte {e.start})") from None
    else:
        block = read_text(args.block)
    if args.write:
        writable(args.path)
    bar = Bar("apply")
    request = EditRequest(document, block=block, language=of_file(args.path, document), path=args.path, hooks=bar,
                          max_new_tokens=args.max_new_tokens, at=args.at)
    try:  # the model is loaded only for a part whose place the block does not say exactly (engine/apply.py)
        result = apply(request, None if args.no_model else lambda: make_engine(args))
    finally:
        bar.close()
    for left in result.left_out:  # an answer's blocks for other files, commands, usage examples
        print(f"not merged: {left}", file=sys.stderr)
    if result.unchanged:
        print(f"copy-as-decode: {ALREADY}", file=sys.stderr)
        return contract.EXIT_UNCHANGED
    put_result(args, document, result.text)
    s = result.stats
    print(f"{s.selector}: {s.windows or 'no change'}; {s.sampled} sampled + {s.spliced} copied tokens in "
          f"{s.forwards} forwards, {s.total_s:.2f} s; {deletes(s)}", file=sys.stderr)
    return 0


def cmd_worker(args) -> int:
    from copy_as_decode.engine.worker import Worker
    Worker(make_engine(args)).serve()
    return 0


def cmd_models(args) -> int:
    from copy_as_decode.engine.backends import models
    if args.action == "install":
        print(models.install(args.name))
    else:
        for name in models.NAMES:
            where = models.ADAPTERS / name if name in models.ADAPTED else models.cache_dir(name)
            trained = f" (trained to write programs: {models.ADAPTED[name].base} + adapter)" if name in models.ADAPTED else ""
            print(f"{name}\t{'installed' if models.is_installed(name) else 'not installed'}\t{where}{trained}")
    return 0


def _delegate(module: str, prog: str, argv: list[str]) -> int:
    """Subcommands with their own modules parse their own options, so only the chosen one is imported."""
    mod = importlib.import_module(module)
    p = argparse.ArgumentParser(prog=prog, description=(mod.__doc__ or "").strip().split("\n")[0])
    mod.add_arguments(p)
    return mod.run(p.parse_args(argv)) or 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="copy-as-decode", description="Fast LLM file edits by copying instead of rewriting.")
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("program", help="print the oracle program that turns OLD into NEW")
    s.add_argument("old"), s.add_argument("new")
    s.add_argument("--token-level", action="store_true", help="also copy spans inside changed lines")
    s.set_defaults(func=cmd_program)

    s = sub.add_parser("resolve", help="apply PROGRAM to OLD and print the result byte-exactly")
    s.add_argument("program"), s.add_argument("old")
    s.set_defaults(func=cmd_resolve)

    s = sub.add_parser("edit", help="edit a file with a model")
    s.add_argument("path")
    s.add_argument("--instruction", "-i", required=True)
    from copy_as_decode.engine.selectors import AUTO_HELP, OFFERED, SELECTORS
    s.add_argument("--selector", choices=OFFERED, default=contract.DEFAULT_SELECTOR,
                   help=f"{contract.AUTO} (default): {AUTO_HELP}; "
                        + "; ".join(f"{n}: {SELECTORS[n].help}" for n in OFFERED[1:]))
    s.add_argument("--lines", type=line_span, metavar="A-B",
                   help="edit only lines A..B (1-based, inclusive; the selection): a windowed edit of them")
    s.add_argument("--at", type=line_number, metavar="LINE",
                   help="the cursor's line (1-based): the function, method or section there is edited, unless the "
                        "instruction names another")
    s.add_argument("--max-new-tokens", type=budget, default=None, metavar="N|auto",
                   help="upper bound on sampled tokens (default auto: from the document's length); an edit that "
                        "does not finish within it changes nothing (exit code 3)")
    s.add_argument("--write", action="store_true", help="write the result to PATH instead of printing a diff")
    s.add_argument("--first-candidate", action="store_true",
                   help="where the place of the edit is not decided (no --lines or --at, nothing named, the search "
                        "and the model unsure), edit the first candidate without asking (for scripts); without it a "
                        "terminal asks which candidate, and anything else lists them and exits with code 3")
    add_arguments(s, EDIT)
    s.set_defaults(func=cmd_edit)

    s = sub.add_parser("apply", help="merge a chat's answer (its code blocks for this file, lazy markers allowed) "
                                     "into a file")
    s.add_argument("path")
    s.add_argument("block", nargs="?", help="the file holding the answer or one code block (default, or -: stdin)")
    s.add_argument("--write", action="store_true", help="write the result to PATH instead of printing a diff")
    s.add_argument("--no-model", action="store_true",
                   help="place only what the parser can; a block whose place is not certain fails (exit code 2)")
    s.add_argument("--max-new-tokens", type=budget, default=None, metavar="N|auto",
                   help="upper bound on tokens the model samples for the parts it places")
    s.add_argument("--at", type=line_number, metavar="LINE",
                   help="the cursor's line (1-based): a new definition whose place the answer does not say goes "
                        "after the definition there")
    add_arguments(s, EDIT)
    s.set_defaults(func=cmd_apply)

    s = sub.add_parser("worker", help="serve edits over JSON-RPC on stdio (docs/worker-protocol.md)")
    add_arguments(s, WORKER)
    s.set_defaults(func=cmd_worker)

    s = sub.add_parser("serve", help="run the language server (stdio; --tcp for debugging)", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)

    s = sub.add_parser("serve-apply", help="merge code blocks for fast-apply clients: an OpenAI-compatible endpoint "
                                           "taking Morph's format (docs/apply-endpoint.md)", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)

    s = sub.add_parser("train", help="training data and LoRA fine-tuning for the grammar selector", add_help=False)
    s.add_argument("rest", nargs=argparse.REMAINDER)

    s = sub.add_parser("models", help="list or install built-in models")
    s.add_argument("action", choices=("list", "install"))
    s.add_argument("name", nargs="?", default=DEFAULT_MODEL)
    s.set_defaults(func=cmd_models)

    s = sub.add_parser("bench", help="benchmarks: print a table, write JSON")
    s.add_argument("name", choices=BENCHES)
    s.add_argument("rest", nargs=argparse.REMAINDER)
    return p


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] and argv[0] in OWN_PARSERS:  # their options go to their own parser (REMAINDER drops leading --opts)
        args = argparse.Namespace(func=lambda a: _delegate(OWN_PARSERS[argv[0]], f"copy-as-decode {argv[0]}", argv[1:]))
    elif argv[:1] == ["bench"] and len(argv) > 1 and argv[1] in BENCHES:
        args = argparse.Namespace(func=lambda a: _delegate(f"copy_as_decode.bench.{BENCHES[argv[1]]}",
                                                           f"copy-as-decode bench {argv[1]}", argv[2:]))
    else:
        args = build_parser().parse_args(argv)
    from copy_as_decode.core.program import ProgramSyntaxError
    from copy_as_decode.core.resolver import ResolveError
    INTERRUPTED.clear()
    before = signal.getsignal(signal.SIGINT)
    if before is signal.default_int_handler:  # not where Ctrl-C is ignored (a background job)
        signal.signal(signal.SIGINT, _interrupt)
    try:
        return args.func(args)
    except contract.IncompleteEdit as e:
        where = getattr(e.stats, "windows", None)  # which part of the file the model was rewriting
        print(f"copy-as-decode: {e}" + (f" ({where})" if where else ""), file=sys.stderr)
        return contract.EXIT_INCOMPLETE
    except (contract.EditError, ProgramSyntaxError, ResolveError, ValueError) as e:
        print(f"copy-as-decode: {e}", file=sys.stderr)
        return contract.EXIT_ERROR
    except KeyboardInterrupt:
        print("copy-as-decode: interrupted", file=sys.stderr)
        return contract.EXIT_INTERRUPTED
    finally:
        signal.signal(signal.SIGINT, before)


if __name__ == "__main__":
    sys.exit(main())
