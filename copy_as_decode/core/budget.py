"""An edit's output budget: how many tokens its decode may sample, from the document's own bound (a rewrite
reproduces the document; a program adds at most a copy tag per line), the user's cap and the model's context.
The CLI, the worker and the server read a user's budget with `parse_budget`; engine/front.py plans each decode."""
from dataclasses import dataclass

from copy_as_decode.core.contract import AUTO, ContextError


def parse_budget(value) -> int | None:
    """`auto` (or None) -> None, a positive integer -> itself; anything else is a ValueError."""
    if value is None or value == AUTO:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"max_new_tokens must be {AUTO!r} or a positive integer, not {value!r}")
    try:
        n = int(value)
    except ValueError:
        raise ValueError(f"max_new_tokens must be {AUTO!r} or a positive integer, not {value!r}") from None
    if n < 1:
        raise ValueError(f"max_new_tokens must be {AUTO!r} or a positive integer, not {value!r}")
    return n


@dataclass(frozen=True)
class Budget:
    limit: int     # tokens the decode may sample
    minimum: int   # the least a finished edit can need; below this the edit is refused before any work
    by_context: bool  # the limit is what the context leaves, not the document's own bound


def rewrite_bound(document_tokens: int) -> int:
    """A rewrite reproduces the document: its own token count, plus room for what the edit adds."""
    return document_tokens + max(128, document_tokens // 4)


def program_bound(document_tokens: int, n_lines: int, tag_tokens: int) -> int:
    """The grammar's copies are in order and disjoint, so a program copies at most `n_lines` ranges; with
    its gens no longer than a rewrite, it costs at most one copy tag per line plus a rewrite's bound."""
    return n_lines * tag_tokens + rewrite_bound(document_tokens)


def output_budget(bound: int, minimum: int, prompt_tokens: int, context: int | None, explicit: int | None) -> Budget:
    """The decode's output budget: the document's bound, at most `explicit`, at most what the context leaves.
    Raises ContextError when the context cannot hold even `minimum` tokens after the prompt."""
    left = context - prompt_tokens if context else None
    if left is not None and left < minimum:
        raise ContextError(f"document too long: the prompt is {prompt_tokens} tokens and the edit needs at least "
                           f"{minimum} more, beyond the model's context of {context} tokens")
    limit = bound if explicit is None else min(bound, explicit)
    if left is not None and left < limit:
        return Budget(left, minimum, True)
    return Budget(limit, minimum, False)
