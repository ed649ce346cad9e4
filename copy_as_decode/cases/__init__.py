"""The cases every research room reads: the corpora as (document, instruction, gold) cases, their files and cards
(data/), the held-out split and the functional checks. It stands on core/ alone, below synthesis/ (which writes
some of these files), bench/ (which measures on them) and train/ (which keeps them out of its data); the order is
drawn in tests/test_imports.py.

- corpora: loading a corpus by name or from a JSONL file in the case format, and the test runner its cases carry
- heldout: which HumanEvalFix cases the methods were developed on, and the held-out sample
- functional: running HumanEvalFix's own tests on an edited file
"""
