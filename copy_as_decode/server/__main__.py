"""`python -m copy_as_decode.server [--tcp HOST:PORT]`: the language server, as `copy-as-decode serve`."""
import argparse
import sys

from .lsp import add_arguments, serve

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m copy_as_decode.server", description=__doc__)
    add_arguments(parser)
    sys.exit(serve(parser.parse_args()))
