"""The `copy-as-decode` command line."""
import argparse
import sys


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="copy-as-decode")
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("models", help="manage built-in models").add_subparsers(dest="action", required=True)
    m.add_parser("install").add_argument("name")
    args = p.parse_args(argv)
    if args.cmd == "models":
        from copy_as_decode.engine import models
        try:
            print(models.install(args.name))
        except models.ModelError as e:
            print(f"copy-as-decode: {e}", file=sys.stderr)
            return 1
    return 0
