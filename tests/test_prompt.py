"""The prompts: what the model is shown, and that the worked examples are themselves valid programs."""
import llguidance
import llguidance.hf

from copy_as_decode.core.document import split_lines
from copy_as_decode.core.grammar import program_matcher
from copy_as_decode.core.program import Copy, parse
from copy_as_decode.core.resolver import resolve
from copy_as_decode.engine.prompts import prompt


def test_program_prompt_shows_numbered_document_and_instruction(qwen_tokenizer):
    doc = "alpha\r\nbeta\nlast without newline"
    ids = prompt.program_prompt(qwen_tokenizer, split_lines(doc), "Do X.")
    text = qwen_tokenizer.decode(ids)
    tail = text[text.rindex("File:\n1| alpha"):]
    assert tail.startswith("File:\n1| alpha\n2| beta\n3| last without newline\n\n\nInstruction: Do X.")
    assert text.endswith("<|im_start|>assistant\n")
    assert '<copy lines="I-J"/>' in text and "<gen>TEXT</gen>" in text


def test_worked_examples_are_valid_programs_with_edits_at_different_lines(qwen_tokenizer):
    ll = llguidance.hf.from_tokenizer(qwen_tokenizer, n_vocab=151936,
                                      eos_token=qwen_tokenizer.convert_tokens_to_ids("<|im_end|>"))
    first_copies = set()
    for _, doc, program in prompt.PROGRAM_EXAMPLES:
        lines = split_lines(doc)
        items = parse(program)
        assert resolve(items, lines) != doc
        m = program_matcher(ll, len(lines))
        assert m.consume_tokens(qwen_tokenizer.encode(program, add_special_tokens=False)) and m.is_accepting()
        first_copies.add(next((i for i in items if isinstance(i, Copy)), None))
    assert len(first_copies) == len(prompt.PROGRAM_EXAMPLES)  # no line numbers the model could parrot


def test_rewrite_prompt_starts_the_file_inside_a_code_block(qwen_tokenizer):
    ids, fence = prompt.rewrite_prompt(qwen_tokenizer, "x = 1", "Rename x.")
    text = qwen_tokenizer.decode(ids)
    assert fence == "```" and "```\nx = 1\n```" in text
    assert text.endswith("<|im_start|>assistant\n```\n")


def test_prompt_tokenizes_like_the_whole_template_for_plain_text(qwen_tokenizer):
    """Tokenizing contents apart from the template changes nothing for text without special-token strings."""
    doc = split_lines("def f(x):\n    return x  # ünïcödé\n\n\nprint(f(1))\n")
    messages = prompt.program_messages(doc, "Rename f to g.")
    whole = qwen_tokenizer.encode(qwen_tokenizer.apply_chat_template(messages, tokenize=False,
                                                                     add_generation_prompt=True),
                                  add_special_tokens=False)
    assert prompt.prompt_ids(qwen_tokenizer, messages) == whole
