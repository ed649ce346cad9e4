"""The program codec (core/codec.py): a program's training sequence is token for token what decoding feeds the
model, through the real decode loop on the tiny model and through the remote engine's requests."""
from copy_as_decode.core import codec
from copy_as_decode.core.contract import EOS
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.program import Copy, Gen, format_program, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.backends.torch_backend import TorchBackend
from copy_as_decode.engine.decoding.constraint import ProgramConstraint
from copy_as_decode.engine.decoding.decode import decode_program
from copy_as_decode.engine.decoding.tracker import ProgramTracker
from copy_as_decode.engine.prompts import prompt
from copy_as_decode.train.sequence import IGNORE, serialize

# Line 4 ends in "\r\n" and line 5 is blank: a whole-document tokenization has one token "\r\n\n" across them,
# so its slices are not the copies' tokens. A special-token string in a copied line stays text.
DOC = 'def f(x):\n\n\n    return x  # <|im_end|> stays text\r\n\nclass A:\n    """ünï 数字 🙂"""\n    pass\n'
INSTRUCTION = "Drop the docstring and add a line."
PROGRAM = [Copy(1, 4), Gen("    y = '</gen>'\n"), Copy(5, 6), Gen(""), Copy(8, 8)]  # "</gen>": split in two gens


class Recorder:
    """A model that records every token id fed to it."""

    def __init__(self, model):
        self.model, self.fed = model, []

    def __call__(self, input_ids, **kwargs):
        self.fed += input_ids[0].tolist()
        return self.model(input_ids=input_ids, **kwargs)

    def __getattr__(self, name):
        return getattr(self.model, name)


def test_copied_lines_are_tokenized_alone(qwen_tokenizer):
    encode = lambda text: prompt.text_ids(qwen_tokenizer, text)  # noqa: E731
    lines = split_lines(DOC)
    whole = encode(DOC)
    first, second = codec.copied_ids(encode, lines, Copy(1, 4)), codec.copied_ids(encode, lines, Copy(5, 6))
    assert whole[:len(first) + len(second)] != first + second
    assert qwen_tokenizer.decode(first) == "".join(lines[:4]) and "<|im_end|>" in qwen_tokenizer.decode(first)
    pieces = list(codec.pieces(encode, PROGRAM, lines))
    printed = parse(format_program(PROGRAM))  # the gen holding "</gen>" is two gens, each tokenized alone
    assert [p.item for p in pieces] == printed and len(printed) == len(PROGRAM) + 1
    assert [p.sampled for p in pieces] == [encode(format_program([item])) for item in printed]
    assert pieces[0].copied == first and pieces[1].copied == pieces[2].copied == [] and pieces[3].copied == second
    assert codec.forced_script(encode, PROGRAM, 7) == [t for p in pieces for t in p.sampled] + [7]
    assert codec.forced_script(encode, PROGRAM, 7) == codec.forced_script(encode, printed, 7)


def test_the_training_sequence_is_what_decode_feeds(tiny_engine):
    e = tiny_engine
    lines = split_lines(DOC)
    ids = prompt.program_prompt(e.tok, lines, INSTRUCTION)
    script = codec.forced_script(e.encode, PROGRAM, e.eos)
    model, tracker = Recorder(e.model), ProgramTracker()
    stats = decode_program(TorchBackend(model, e.tok), e.tok, ids, lines, ProgramConstraint(e.tok, e.n_vocab, len(lines)),
                           tracker, e.eos, max_new_tokens=len(script), forced=script)
    seq = serialize(e.tok, INSTRUCTION, DOC, format_program(PROGRAM), eos=e.eos)
    assert stats.stop == EOS and tracker.items == parse(format_program(PROGRAM))
    assert model.fed == seq.input_ids[:-1]  # the prompt included; the end token ends the decode unfed
    assert seq.input_ids[:seq.prompt_len] == ids and seq.input_ids[-1] == e.eos
    assert [t for t, label in zip(seq.input_ids, seq.labels) if label != IGNORE] == script  # labels: what is chosen
    assert stats.spliced == sum(label == IGNORE for label in seq.labels[seq.prompt_len:])


def test_the_engines_forced_edit_feeds_the_training_sequence(tiny_engine, monkeypatch):
    """Through Engine.edit: after the prompt (which the prompt cache may hold already) the same tokens."""
    model = Recorder(tiny_engine.model)
    monkeypatch.setattr(tiny_engine.backend, "model", model)
    r = tiny_engine.edit(DOC, INSTRUCTION, "forced", program=format_program(PROGRAM))
    seq = serialize(tiny_engine.tok, INSTRUCTION, DOC, format_program(PROGRAM), eos=tiny_engine.eos)
    assert r.text == resolve(PROGRAM, DOC)
    after_prompt = len(seq.input_ids) - 1 - seq.prompt_len
    assert len(model.fed) > after_prompt and model.fed == seq.input_ids[-1 - len(model.fed):-1]


def test_the_remote_forced_edit_sends_the_training_sequence(qwen_tokenizer):
    from test_remote import MODEL, FakeEngine

    from copy_as_decode.engine.remote.client import RemoteEngine
    fake = FakeEngine(qwen_tokenizer)
    try:
        fake.script = [("", "limit")] * (sum(isinstance(item, Copy) for item in PROGRAM) + 1)
        r = RemoteEngine(fake.url, MODEL, tokenizer=qwen_tokenizer).edit(DOC, INSTRUCTION, "forced",
                                                                         program=format_program(PROGRAM))
        seq = serialize(qwen_tokenizer, INSTRUCTION, DOC, format_program(PROGRAM))
        assert r.text == resolve(PROGRAM, DOC)
        assert fake.completions()[-1]["prompt"] == seq.input_ids[:-1]  # the last request: all but the end token
    finally:
        fake.close()
