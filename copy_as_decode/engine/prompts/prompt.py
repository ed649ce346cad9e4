"""Prompts, as token ids in the model's chat template: one for edit programs, one for plain rewrites."""
import re

from copy_as_decode.core.document import numbered, split_lines

_SLOT = "\ue000"  # a private-use character: marks where a message's content goes in the rendered template

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


# Where the instruction goes in a rewrite prompt (docs/benchmarks.md, "Prompt layout", measured with
# `bench edit --layout`):
# before the file, after it (a second edit of the same file with another instruction then reuses the file's
# cache), or on both sides. The program prompt keeps the file first: the shipped adapter was trained on it.
LAYOUTS = ("instruction-first", "file-first", "both")
DEFAULT_LAYOUT = "instruction-first"
# A window read before its instruction arrives (engine/read_ahead.py) can only be the start of a prompt that puts the
# file first: a prepared edit uses this layout, an unprepared one the default.
PREPARED_LAYOUT = "file-first"


def _user(instruction: str, body: str, layout: str = "file-first") -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"unknown prompt layout {layout!r}; choose one of {', '.join(LAYOUTS)}")
    file = f"File:\n{body}"
    if layout == "file-first":
        return f"{file}\n\nInstruction: {instruction}"
    return f"Instruction: {instruction}\n\n{file}" + (f"\n\nInstruction: {instruction}" if layout == "both" else "")


def program_messages(document_lines: list[str], instruction: str) -> list[dict]:
    msgs = [{"role": "system", "content": PROGRAM_SYSTEM}]
    for ex_instruction, ex_doc, ex_program in PROGRAM_EXAMPLES:
        msgs += [{"role": "user", "content": _user(ex_instruction, numbered(split_lines(ex_doc)))},
                 {"role": "assistant", "content": ex_program}]
    return msgs + [{"role": "user", "content": _user(instruction, numbered(document_lines))}]


CHOICE_SYSTEM = """You find where in a file an edit belongs. You are shown candidates from the file: functions, \
classes, methods or sections, each with the lines it spans and its first lines. Reply with the name of the one \
candidate that the instruction asks to change, exactly as it is listed, and nothing else."""


NEIGHBOUR_SYSTEM = """You place new code in a file. You are shown a new definition and the definitions of the \
file it goes among, in the file's order, each with its first line. The new one goes right after one of them: the \
one it belongs next to. Reply with that one's name, exactly as it is listed, and nothing else."""


def neighbour_prompt(tok, new: str, candidates: str) -> list[int]:
    """The prompt of the model's choice of the definition a new one goes right after (engine/apply.py)."""
    return prompt_ids(tok, [{"role": "system", "content": NEIGHBOUR_SYSTEM},
                            {"role": "user", "content": f"New definition:\n```\n{new}\n```\n\nCandidates:\n{candidates}"}])


def choice_prompt(tok, instruction: str, candidates: str) -> list[int]:
    """The prompt of the model's choice of a window among candidates (core/windows.py choice_text)."""
    return prompt_ids(tok, [{"role": "system", "content": CHOICE_SYSTEM},
                            {"role": "user", "content": f"Instruction: {instruction}\n\nCandidates:\n{candidates}"}])


def fence_for(document: str) -> str:
    """A code fence that no line of the document can close (CommonMark: a fence is closed only by a run of
    its own character at least as long). ``` when the document has no such run; else ~~~ when it has no
    tilde fence (measured with the 0.5B on a Markdown file: inside ````, it took the file's last ``` for
    the end of its block and dropped the lines after it; inside ~~~ it did not); else the character with
    the shorter longest run, one longer."""
    runs = {c: max((len(r) for r in re.findall(re.escape(c) + "+", document)), default=0) for c in "`~"}
    if runs["`"] < 3:
        return "```"
    char = min("~`", key=lambda c: runs[c])
    return char * max(3, runs[char] + 1)


def rewrite_messages(document: str, instruction: str, fence: str, layout: str = DEFAULT_LAYOUT) -> list[dict]:
    body = fence + "\n" + document + ("" if document.endswith("\n") or not document else "\n") + fence
    return [{"role": "system", "content": REWRITE_SYSTEM}, {"role": "user", "content": _user(instruction, body, layout)}]


def fence_closed(text: str, fence: str) -> bool:
    """Whether the rewrite has closed its block: a line that is exactly `fence` (spaces allowed), ended."""
    return re.search(rf"(?:^|\n){re.escape(fence)}[ \t]*\n", text) is not None


def rewrite_finished(text: str, fence: str, document: str) -> bool:
    """Whether a rewrite is the whole file rather than a part of it (which would delete the rest if applied):
    it keeps at least half of the document's non-blank lines, and either closes its block or, ended by end of
    sequence inside it, ends with the document's last non-blank line. Small models answer a long file's edit
    with the edited function or sentence alone, some of them closing the block after it."""
    body = fenced_text(text, fence)
    return covers(body, body != text, document)


def covers(body: str, closed: bool, document: str) -> bool:
    """rewrite_finished for a rewrite's text already out of its block (`closed`: the block was closed)."""
    out, doc = ([line.rstrip() for line in t.split("\n") if line.strip()] for t in (body, document))
    if not doc:  # nothing to lose: a new file's first text
        return True
    return 2 * len(out) >= len(doc) and (closed or out[-1:] == doc[-1:])


def fenced_text(text: str, fence: str) -> str:
    """The file part of a rewrite: everything before its closing fence (which may also be its last line)."""
    m = re.search(rf"(?:^|\n){re.escape(fence)}[ \t]*(?:\n|$)", text)
    return text if m is None else text[: m.start() + (1 if m.group().startswith("\n") else 0)]


def text_ids(tok, text: str) -> list[int]:
    """Token ids of document text: a special-token string in it ("<|im_end|>") stays ordinary text."""
    return tok(text, add_special_tokens=False, split_special_tokens=True)["input_ids"] if text else []


def prompt_ids(tok, messages: list[dict], prefix: str = "") -> list[int]:
    """The chat template's own markers as special tokens, every message's content (and `prefix`) as text; a
    content given as token ids (an answer as the model wrote it) goes in as those ids.

    The template is rendered with a placeholder per content, and the pieces are tokenized apart; a
    content never merges with a marker anyway (markers are special tokens), so this is how the whole
    prompt would tokenize if contents could not hold special-token strings.
    """
    slots = [{**m, "content": f"{_SLOT}{k}{_SLOT}"} for k, m in enumerate(messages)]
    rendered = tok.apply_chat_template(slots, tokenize=False, add_generation_prompt=True)
    ids, parts = [], rendered.split(_SLOT)
    for k, part in enumerate(parts):
        if k % 2:
            content = messages[int(part)]["content"]
            ids += content if isinstance(content, list) else text_ids(tok, content)
        elif part:
            ids += tok.encode(part, add_special_tokens=False)
    return ids + text_ids(tok, prefix)


def program_prompt(tok, lines: list[str], instruction: str) -> list[int]:
    return prompt_ids(tok, program_messages(lines, instruction))


def rewrite_prompt(tok, document: str, instruction: str, layout: str = DEFAULT_LAYOUT) -> tuple[list[int], str]:
    """The rewrite prompt's ids (the assistant turn opens the code block, so the file starts at once) and
    its fence."""
    return rewrite_turn(tok, document, instruction, layout)[:2]


def rewrite_head(tok, document: str, layout: str = DEFAULT_LAYOUT) -> list[int]:
    """The ids every rewrite prompt of `document` starts with, whatever its instruction (engine/read_ahead.py):
    where two instructions part, which cannot be later than where the instruction's text begins."""
    a, b = (rewrite_prompt(tok, document, said, layout)[0] for said in ("a", "b"))
    return a[:next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))]


def rewrite_turn(tok, document: str, instruction: str, layout: str = DEFAULT_LAYOUT,
                 after: list[dict] | None = None) -> tuple[list[int], str, list[dict]]:
    """rewrite_prompt's ids and fence, and its messages. `after`: an earlier rewrite's conversation, ending with
    its answer, which is `document` (a refinement of that answer): the instruction then comes as the next turn,
    so the prompt starts with all that rewrite fed the model, which its cache may still hold."""
    fence = fence_for(document)
    messages = (rewrite_messages(document, instruction, fence, layout) if after is None else
                after + [{"role": "user", "content": f"Instruction: {instruction}"}])
    return prompt_ids(tok, messages, fence + "\n"), fence, messages
