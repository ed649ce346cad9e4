"""Edits with a known right answer, made from real code and prose found on this machine: what both the
training data (train/data.py) and the long-file benchmark (synthesis/long_corpus.py) are built from.

- sources: functions, paragraphs and whole files harvested from installed packages, never a benchmark file
- syntax: Python and JavaScript functions read as text (definitions, docstrings, tokens, names)
- bugs: HumanEvalFix-type bugs injected into a function, and the instruction to fix them
- edits: instructed edits of a function or of paragraphs
- long_edits: localized edits of a whole file
- decontaminate: keeping the lines of evaluation documents out
"""
