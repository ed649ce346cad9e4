"""The written-answer corpus: answers to developers' requests about real files, written as a chat writes them by
a writer who was given only the file and the request (never the merge code), with the file each answer means.

    cases/data/chat_written/LANGUAGE-NAME/   one real file of a public project (meta.json: its path there,
        original.EXT                         origin and license, and each answer's request and shapes)
        answer-ID.md                         the whole answer, as the chat wrote it
        expected-ID.diff                     the change the answer means, and nothing else: a unified diff of
                                             original.EXT (the expected file is the original with it applied)

Development cases come from the files in DEVELOPMENT. Every other file's answers are held out, in batches (its
meta.json's `batch`, 1 when it says none; `--where batch=N`): batch 1 was measured once, then read to write
rules; batch 2 was written afterwards, measured once, then read; batch 3 (one file in each outlined language)
was written after the rules batch 2 gave, measured once, then read; batch 4 (again one file in each language)
was written after the rules batch 3 gave, measured once, then read; batch 5 (again one file in each language)
was written after the rules batch 4 gave, measured once, then read; batch 6 (one file in each language again)
was written after the rules batch 5 gave, measured once, then read; batch 7 (one file in each language again)
was written after the rules batch 6 gave, measured once, then read; batch 8 (one file in each language again)
was written after the rules batch 7 gave, measured once, then read in part.
"""
import json
import re

from .corpora import DATA

ROOT = DATA / "chat_written"
DEVELOPMENT = ("csharp-converter", "ruby-thor-shell-basic", "go-intlogger", "rust-walkdir", "c-ujson-decoder",
               "java-stringtokenizer", "typescript-retryer", "lua-inspect")


def load() -> list[dict]:
    """Every answer as a case: id, language, path (the file's path in its project), before, after, block (the
    answer), request, style (its shapes, joined by "+"), source (the folder), lines, development, batch."""
    cases = []
    for folder in sorted(p for p in ROOT.iterdir() if (p / "meta.json").is_file()):
        meta = json.loads((folder / "meta.json").read_text())
        original = next(folder.glob("original.*"))
        before = original.read_text()
        for a in meta["answers"]:
            cases.append({"id": f"{folder.name}/{a['id']}", "language": meta["language"], "path": meta["path"],
                          "before": before, "after": patched(before, (folder / f"expected-{a['id']}.diff").read_text()),
                          "block": (folder / f"answer-{a['id']}.md").read_text(), "request": a["request"],
                          "style": "+".join(a.get("shapes", [])), "source": folder.name,
                          "lines": before.count("\n"), "development": folder.name in DEVELOPMENT,
                          "batch": meta.get("batch", 1)})
    return cases


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def patched(text: str, diff: str) -> str:
    """`text` with a unified diff of it applied; ValueError where the diff's old lines are not the text's."""
    old, out, at = text.splitlines(keepends=True), [], 0
    lines = diff.splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.startswith("@@"))
    while k < len(lines):
        m = _HUNK.match(lines[k])
        start = int(m.group(1)) - (m.group(2) != "0")  # an empty old side counts from the line before
        out += old[at:start]
        at, k = start, k + 1
        while k < len(lines) and not lines[k].startswith("@@"):
            sign, line = lines[k][0], lines[k][1:]
            if sign in " -":
                if old[at] != line:
                    raise ValueError(f"the diff's line {k + 1} is not the text's line {at + 1}")
                at += 1
            if sign in " +":
                out.append(line)
            k += 1
    return "".join(out + old[at:])
