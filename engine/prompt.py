"""Prompts, as token ids in the model's chat template: one for edit programs, one for plain rewrites."""
from copy_as_decode.core.document import numbered, split_lines

PROGRAM_SYSTEM = """You edit files by writing an edit program instead of rewriting the file.
The file is shown with line numbers ("12| code"); the numbers are not part of the file.
An edit program is a sequence of two kinds of items:
  <copy lines="I-J"/>   copies lines I to J of the file unchanged (I <= J; both inclusive)
  <gen>TEXT</gen>       writes TEXT, new or changed lines, exactly as they should appear, each ending with a newline
Copy every unchanged line, write only what changes, keep the order of the file, and never copy a line twice.
Lines left out of every copy are deleted. Reply with the program only."""

# Edits at different lines, so the model does not learn one example's line numbers.
PROGRAM_EXAMPLES = [
    ("Make the greeting formal.",
     "def greet(name):\n    print(f\"hi {name}\")\n    return name\n\n\ngreet(\"Ada\")\n",
     '<copy lines="1-1"/>\n<gen>    print(f"Good morning, {name}.")\n</gen>\n<copy lines="3-6"/>'),
    ("Return the total instead of printing it.",
     "def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    print(s)\n",
     '<copy lines="1-4"/>\n<gen>    return s\n</gen>'),
    ("Add a title line.",
     "- milk\n- eggs\n- bread\n",
     '<gen># Shopping\n</gen>\n<copy lines="1-3"/>'),
]

REWRITE_SYSTEM = """You edit files. Reply with the complete edited file inside one ``` block: every line, \
changed or not, exactly as it should be saved, and nothing else."""


def _user(instruction: str, body: str) -> str:
    return f"Instruction: {instruction}\n\nFile:\n{body}"


def program_messages(document_lines: list[str], instruction: str) -> list[dict]:
    msgs = [{"role": "system", "content": PROGRAM_SYSTEM}]
    for ex_instruction, ex_doc, ex_program in PROGRAM_EXAMPLES:
        msgs += [{"role": "user", "content": _user(ex_instruction, numbered(split_lines(ex_doc)))},
                 {"role": "assistant", "content": ex_program}]
    return msgs + [{"role": "user", "content": _user(instruction, numbered(document_lines))}]


REWRITE_PREFIX = "```\n"  # the assistant turn starts inside the code block, so the file starts at once


def rewrite_messages(document: str, instruction: str) -> list[dict]:
    body = "```\n" + document + ("" if document.endswith("\n") or not document else "\n") + "```"
    return [{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": _user(instruction, body)}]


def prompt_ids(tok, messages: list[dict], prefix: str = "") -> list[int]:
    text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True) + prefix
    return tok.encode(text, add_special_tokens=False)


def shared_head(tok, ids: list[int], messages: list[dict]) -> int:
    """How many leading `ids` are the same for every edit: the template of all messages but the last (the
    system prompt and worked examples), when the prompt starts with exactly those tokens, else 0."""
    head = tok.encode(tok.apply_chat_template(messages[:-1], tokenize=False), add_special_tokens=False)
    return len(head) if ids[:len(head)] == head else 0
