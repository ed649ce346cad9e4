"""Program items -> the token ids the model is fed after the prompt: what decoding feeds and training learns.

Each item's text is tokenized on its own (a gen whose text holds "</gen>" as the several gens it prints as), so
every copy tag ends on a token boundary; right after a copy tag come the copied lines, also tokenized on their
own: a slice of the whole document's tokens would break at tokens that span a line break (`):\\n\\n`). The
program ends with the end token. engine/decoding/decode.py splices `copied_ids`, engine/local.py and engine/remote/client.py
feed `forced_script` / `pieces`, and train/sequence.py builds its sequences from `pieces`, so the model is
trained on exactly the sequence it decodes.

`encode` is the caller's text -> ids function (engine/prompts/prompt.py `text_ids`: a special-token string in the
text stays text), passed in so that nothing here needs a tokenizer library.

Ids -> items is the other way round: decoded text read by core/program.py (engine/decoding/tracker.py as it comes).
"""
from collections.abc import Callable, Iterator
from typing import NamedTuple

from .program import Copy, Item, format_item, format_program, parse
from .resolver import copied

Encode = Callable[[str], list[int]]


class Piece(NamedTuple):
    item: Item
    sampled: list[int]  # the item's text: the tokens the model writes
    copied: list[int]   # a copy's lines, which the splice feeds after its tag; [] for anything else


def copied_ids(encode: Encode, lines: list[str], copy: Copy) -> list[int]:
    return encode(copied(lines, copy))


def pieces(encode: Encode, items: list[Item], lines: list[str]) -> Iterator[Piece]:
    for item in _printed(items):
        yield Piece(item, encode(format_item(item)), copied_ids(encode, lines, item) if isinstance(item, Copy) else [])


def forced_script(encode: Encode, items: list[Item], eos: int) -> list[int]:
    """The tokens a forced decode chooses: each item's, then the end token (the copied ones it splices itself)."""
    return [t for item in _printed(items) for t in encode(format_item(item))] + [eos]


def _printed(items: list[Item]) -> list[Item]:
    """The items as their printed text reads back: a gen whose text holds "</gen>" prints as several gens, and
    each is tokenized alone like any other item."""
    return parse(format_program(items, sep=""))
