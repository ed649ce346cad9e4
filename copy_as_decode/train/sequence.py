"""One training example as the exact token sequence the engine decodes, with its loss mask.

The engine (engine/decoding/decode.py, forced-program mode) feeds: the program prompt; then each program item
tokenized on its own; right after a copy tag's last token, the copied lines tokenized in isolation;
finally it stops at the chat end token. A training sequence is built from the same tokens (core/codec.py)
so that the model learns in the very context it will decode in:

    input_ids = prompt + item_1 [+ copied_1] + item_2 [+ copied_2] ... + <|im_end|>
    labels    = -100 on the prompt and on every copied token; the token itself everywhere else

so the loss falls only on tokens the model samples: the program text and its final end token.
"""
from dataclasses import dataclass

from copy_as_decode.core.codec import pieces
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Copy, Gen, parse
from copy_as_decode.engine.backends import models
from copy_as_decode.engine.prompts import prompt

IGNORE = -100


@dataclass
class Sequence:
    input_ids: list[int]
    labels: list[int]
    prompt_len: int

    @property
    def n_labels(self) -> int:
        return sum(label != IGNORE for label in self.labels)


def serialize(tok, instruction: str, document: str, program: str, eos: int | None = None) -> Sequence:
    lines = split_lines(document)
    ids = prompt.program_prompt(tok, lines, instruction)
    labels = [IGNORE] * len(ids)
    n = len(ids)
    items = parse(program)
    if span := next((item for item in items if not isinstance(item, (Copy, Gen))), None):
        raise ValueError(f"the engine's programs have line copies and gens only, not {span}")
    for _, sampled, copied in pieces(lambda text: prompt.text_ids(tok, text), items, lines):
        ids += sampled + copied
        labels += sampled + [IGNORE] * len(copied)
    end = models.eos_id(tok) if eos is None else eos
    ids.append(end)
    labels.append(end)
    return Sequence(ids, labels, n)


def serialize_example(tok, example) -> Sequence:
    """`example`: a train.data.Example or any object with instruction, before and program."""
    return serialize(tok, example.instruction, example.before, example.program)
