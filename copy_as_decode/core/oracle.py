"""Oracle programs: the cheapest-to-generate program turning document a into document b.

Cost = tokens the model must sample. Copied text is free, but each copy costs its tag, and each gen
costs its tags plus its text. So a lone blank line between two gens is generated, not copied.

The core is a weighted alignment of two sequences (lines, or sub-line pieces for the token oracle):
an exact dynamic programme over the whole grid when it is small enough; otherwise candidate blocks found
patience-diff style (common prefix/suffix, lines unique on both sides, exact DP on small pieces), from
which a linear DP keeps those worth a tag.
"""
import bisect
import difflib
import re
from collections.abc import Callable, Sequence
from itertools import accumulate

import numpy as np

from .document import split_lines
from .program import Copy, CopySpan, Gen, Item
from .resolver import indent_width, resolve, shift

# Tag prices in Qwen tokens (one digit per token): `<copy lines="12-34"/>` is 6 tokens plus the digits,
# `<copy from="12:4" to="12:30"/>` 10 plus the digits; "<gen>", "</gen>" take about 5 with the text's edges.
COPY_TAG_TOKENS = 6
MOVE_TAG_TOKENS = 10  # ` indent="-4"` adds about 4
MOVE_CANDIDATES = 32
SPAN_TAG_TOKENS = 10
GEN_TAG_TOKENS = 5
# The grid DP runs when len(xs) * len(ys) and len(ys) (its Python-level rows) stay under these (~20 MB, ~0.3 s).
EXACT_DP_MAX_CELLS = 2_000_000
EXACT_DP_MAX_ROWS = 5_000

# Lossless word-ish split, close to how byte-level BPE groups text: " word", " +=", runs of spaces.
_PIECE = re.compile(r" ?\w+| ?[^\w\s]+|\s+")


def estimate_tokens(text: str) -> int:
    """Code averages ~3.4 characters per Qwen token (measured on HumanEvalFix)."""
    return -(-len(text) * 2 // 7)


def split_pieces(text: str) -> list[str]:
    return _PIECE.findall(text)


def line_oracle(a: str, b: str, cost: Callable[[str], int] = estimate_tokens, moves: bool = True) -> list[Item]:
    """Cheapest program of line copies and gens; `cost(text)` prices generating one line of b. With `moves`,
    the lines left to gens that are input lines elsewhere, shifted alike (a method moved out of its class),
    become moved copies where that is cheaper (`_moved`); the in-order copies are chosen first, exactly."""
    xs, ys = split_lines(a), split_lines(b)
    copy_cost = COPY_TAG_TOKENS + 2 * len(str(len(xs)))
    runs = _align(xs, ys, [cost(y) for y in ys], copy_cost, GEN_TAG_TOKENS)
    items = _to_items(runs, ys, lambda x, k: Copy(x + 1, x + k))
    if not moves:
        return items
    if not any(isinstance(item, Gen) for item in items):
        return items
    move_cost = MOVE_TAG_TOKENS + 2 * len(str(len(xs)))
    where: dict[str, list[int]] = {}  # a line without its indentation -> where the input has it
    for x, line in enumerate(xs):
        if line.strip():
            where.setdefault(line.lstrip(" \t"), []).append(x)
    return [part for item in items for part in
            (_moved(xs, where, item.text, cost, move_cost) if isinstance(item, Gen) else [item])]


def _moved(xs: list[str], where: dict[str, list[int]], text: str, cost: Callable[[str], int],
           move_cost: int) -> list[Item]:
    """A gen's text as gens and moved copies: greedily, the longest run of its lines that some input run
    gives under one shift, kept when generating it would cost more than the tag (plus the gen it splits).
    A line the input holds more than MOVE_CANDIDATES times (`}`, `return x`) is tried at its first ones."""
    ys = split_lines(text)
    out: list[Item] = []
    y = 0
    while y < len(ys):
        best = (0, 0, 0)  # (lines, x, shift)
        for x in where.get(ys[y].lstrip(" \t"), [])[:MOVE_CANDIDATES] if ys[y].strip() else []:
            by = indent_width(ys[y]) - indent_width(xs[x])
            if shift(xs[x], by) != ys[y]:
                continue
            k = 1
            while y + k < len(ys) and x + k < len(xs) and shift(xs[x + k], by) == ys[y + k]:
                k += 1
            best = max(best, (k, -x, by))
        k, x, by = best[0], -best[1], best[2]
        if k and sum(cost(line) for line in ys[y:y + k]) > move_cost + GEN_TAG_TOKENS:
            out.append(Copy(x + 1, x + k, by))
            y += k
        else:
            out.append(Gen(ys[y]))
            y += 1
    return merged(out)


def token_oracle(a: str, b: str, tokenize: Callable[[str], Sequence[str]] | None = None) -> list[Item]:
    """line_oracle, then inside each gen, runs of unchanged pieces of the lines it replaces become CopySpans.

    `tokenize` must split text into strings that concatenate back to it (e.g. a tokenizer's token texts);
    each piece counts as one token. The default is a word/punctuation/space split.
    """
    split = tokenize or split_pieces
    lines = split_lines(a)
    items = line_oracle(a, b, lambda text: len(split(text)))
    span_cost = SPAN_TAG_TOKENS + 2 * len(str(len(lines))) + 4  # + two column numbers of ~2 digits
    # the input lines a gen replaces lie between the copies around it
    next_start, following = [], len(lines) + 1
    for item in reversed(items):
        next_start.append(following)
        following = item.start if isinstance(item, Copy) and not item.moved else following
    out: list[Item] = []
    prev_end = 0
    for item, following in zip(items, reversed(next_start)):
        if isinstance(item, Gen):
            out.extend(_spans_in_gen(lines, prev_end, following - 1, item.text, split, span_cost))
        else:
            out.append(item)
            prev_end = prev_end if item.moved else item.end
    return out


def _spans_in_gen(lines: list[str], first: int, last: int, text: str, split, span_cost: int) -> list[Item]:
    """Align `text` against input lines first+1..last (the ones the gen replaces)."""
    region = "".join(lines[first:last])
    xs, ys = [p for p in split(region) if p], [p for p in split(text) if p]
    if "".join(xs) != region or "".join(ys) != text:
        raise ValueError("tokenize must return pieces that concatenate back to its input")
    starts = list(accumulate((len(line) for line in lines[first:last]), initial=0))
    offsets = list(accumulate((len(x) for x in xs), initial=0))

    def position(offset: int) -> tuple[int, int]:  # region offset -> (1-based line, column)
        k = bisect.bisect_right(starts, offset) - 1
        return first + k + 1, offset - starts[k]

    def span(x: int, k: int) -> CopySpan:
        end_line, end_col = position(offsets[x + k] - 1)  # the last copied character, so B stays on its line
        return CopySpan(*position(offsets[x]), end_line, end_col + 1)

    runs = _align(xs, ys, [1] * len(ys), span_cost, GEN_TAG_TOKENS)
    return _to_items(runs, ys, span)


def copied_fraction(items: list[Item], a: str, tokenize: Callable[[str], Sequence] = split_pieces) -> float:
    """Share of the output's tokens that copies supply; each item's text is tokenized on its own,
    as the engine does. 0.0 for an empty output."""
    lines = split_lines(a)
    copied = generated = 0
    for item in items:
        n = len(tokenize(resolve([item], lines, monotone=False)))
        if isinstance(item, Gen):
            generated += n
        else:
            copied += n
    return copied / (copied + generated) if copied + generated else 0.0


def matching_runs(xs: list, ys: list) -> list[tuple[int, int, int]]:
    """Monotone runs (x, y, k) with xs[x:x+k] == ys[y:y+k] covering as many ys as it can: a longest common
    subsequence on small inputs, anchored blocks on large ones. Tags are free here (a plain diff)."""
    return _align(xs, ys, [1] * len(ys), 0, 0)


def _to_items(runs, ys: list[str], copy_items) -> list[Item]:
    """Matched runs (x, y, k) -> copies for the runs, one gen for each stretch of ys between them."""
    items: list[Item] = []
    y_done = 0
    for x, y, k in runs + [(0, len(ys), 0)]:
        if y > y_done:
            items.append(Gen("".join(ys[y_done:y])))
        if k:
            items.append(copy_items(x, k))
        y_done = y + k
    return merged(items)


def merged(items: list[Item]) -> list[Item]:
    """Adjacent gens as one, and copies of consecutive lines with the same shift as one (a program prints the
    same either way; one item is fewer tags)."""
    out: list[Item] = []
    for item in items:
        last = out[-1] if out else None
        if isinstance(item, Gen) and isinstance(last, Gen):
            out[-1] = Gen(last.text + item.text)
        elif isinstance(item, Copy) and isinstance(last, Copy) and item.start == last.end + 1 and \
                item.indent == last.indent:
            out[-1] = Copy(last.start, item.end, item.indent)
        else:
            out.append(item)
    return out


def _align(xs: list, ys: list, ycost: list[int], copy_cost: int, gen_cost: int) -> list[tuple[int, int, int]]:
    """Monotone runs (x, y, k): xs[x:x+k] == ys[y:y+k] copied; all other ys generated. The cost is minimal
    exactly when the grid is small, else minimal over the candidate blocks that _anchors finds."""
    if _small(len(xs), len(ys)):
        return _exact(xs, ys, ycost, copy_cost, gen_cost)
    return _select(_anchors(xs, ys, ycost, copy_cost, gen_cost), len(ys), ycost, copy_cost, gen_cost)


def _small(nx: int, ny: int) -> bool:
    return nx * ny <= EXACT_DP_MAX_CELLS and ny <= EXACT_DP_MAX_ROWS


def _anchors(xs: list, ys: list, ycost: list[int], copy_cost: int, gen_cost: int) -> list[tuple[int, int, int]]:
    """Candidate blocks in O(n log n)-ish time, patience-diff style: peel off the common prefix and suffix,
    cut the rest at lines that occur exactly once on each side (longest increasing run of them), and
    repeat inside each piece; a piece small enough goes to the exact DP, one without such lines to difflib."""
    blocks = []
    todo = [(0, len(xs), 0, len(ys))]
    while todo:
        x0, x1, y0, y1 = todo.pop()
        p = 0
        while x0 + p < x1 and y0 + p < y1 and xs[x0 + p] == ys[y0 + p]:
            p += 1
        s = 0
        while x0 + p < x1 - s and y0 + p < y1 - s and xs[x1 - 1 - s] == ys[y1 - 1 - s]:
            s += 1
        blocks += [(x0, y0, p), (x1 - s, y1 - s, s)]
        x0, y0, x1, y1 = x0 + p, y0 + p, x1 - s, y1 - s
        if x0 == x1 or y0 == y1:
            continue
        if _small(x1 - x0, y1 - y0):
            runs = _exact(xs[x0:x1], ys[y0:y1], ycost[y0:y1], copy_cost, gen_cost)
            blocks += [(x + x0, y + y0, k) for x, y, k in runs]
            continue
        anchors = _unique_common(xs, x0, x1, ys, y0, y1)
        if not anchors:
            matcher = difflib.SequenceMatcher(None, xs[x0:x1], ys[y0:y1], autojunk=False)
            blocks += [(x + x0, y + y0, k) for x, y, k in matcher.get_matching_blocks()]
            continue
        blocks += [(x, y, 1) for x, y in anchors]
        cuts = [(x0 - 1, y0 - 1)] + anchors + [(x1, y1)]
        todo += [(xa + 1, xb, ya + 1, yb) for (xa, ya), (xb, yb) in zip(cuts, cuts[1:])]
    blocks.sort()
    merged: list[tuple[int, int, int]] = []
    for x, y, k in blocks:
        if not k:
            continue
        if merged and merged[-1][0] + merged[-1][2] == x and merged[-1][1] + merged[-1][2] == y:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + k)
        else:
            merged.append((x, y, k))
    return merged


def _unique_common(xs, x0, x1, ys, y0, y1) -> list[tuple[int, int]]:
    """Positions (x, y) of lines occurring once in xs[x0:x1] and once in ys[y0:y1], longest chain monotone in both."""
    seen_x: dict = {}
    for x in range(x0, x1):
        seen_x[xs[x]] = -1 if xs[x] in seen_x else x
    seen_y: dict = {}
    for y in range(y0, y1):
        if seen_x.get(ys[y], -1) >= 0:
            seen_y[ys[y]] = -1 if ys[y] in seen_y else y
    pairs = sorted((seen_x[v], y) for v, y in seen_y.items() if y >= 0)
    # longest increasing subsequence of y over pairs sorted by x (patience sorting)
    tails: list[int] = []  # tails[k]: index in pairs of the smallest y ending a chain of length k+1
    tail_ys: list[int] = []
    prev = [-1] * len(pairs)
    for i, (_, y) in enumerate(pairs):
        k = bisect.bisect_left(tail_ys, y)
        if k:
            prev[i] = tails[k - 1]
        if k == len(tails):
            tails.append(i)
            tail_ys.append(y)
        else:
            tails[k], tail_ys[k] = i, y
    chain = []
    i = tails[-1] if tails else -1
    while i >= 0:
        chain.append(pairs[i])
        i = prev[i]
    return chain[::-1]


def _select(blocks, ny: int, ycost: list[int], copy_cost: int, gen_cost: int) -> list[tuple[int, int, int]]:
    """The subset of monotone blocks whose copying minimises cost, in linear time.

    A gen run is paid when it closes: at a kept block with a non-empty gap before it, or at the end. The gap
    before block t is empty only if block t-1 was kept and ends where t starts, so the DP state is just
    "was the previous block kept". Each state holds (cost of all ys so far, kept blocks as a linked list).
    """
    csum = list(accumulate(ycost, initial=0))
    kept, dropped = (0, None), (float("inf"), None)
    prev_end = 0
    for x, y, k in blocks:
        gap = csum[y] - csum[prev_end]
        keep_from = min((kept[0] + gap + (gen_cost if y > prev_end else 0), kept[1]),
                        (dropped[0] + gap + gen_cost, dropped[1]),  # the dropped block's ys are in the gap
                        key=_first)
        drop_from = min(kept, dropped, key=_first)
        kept = (keep_from[0] + copy_cost, ((x, y, k), keep_from[1]))
        dropped = (drop_from[0] + gap + csum[y + k] - csum[y], drop_from[1])
        prev_end = y + k
    tail = csum[ny] - csum[prev_end]
    best = min((kept[0] + tail + (gen_cost if ny > prev_end else 0), kept[1]),
               (dropped[0] + tail + gen_cost, dropped[1]), key=_first)[1]
    out = []
    while best:
        out.append(best[0])
        best = best[1]
    return out[::-1]


def _first(state):
    return state[0]


def _exact(xs: list, ys: list, ycost: list[int], copy_cost: int, gen_cost: int) -> list[tuple[int, int, int]]:
    """Exact DP over the (ys consumed) x (xs consumed) grid, one numpy row per element of ys.

    Modes at each cell: C (a copy run is open: its last item copied xs[x-1] to ys[y-1], so extending it
    is free), G (a gen is open), X (nothing open: the start, or a copy run closed by skipping xs).
    Skipping xs is free: G stays G, C becomes X. Rows keep back-pointers for the traceback.
    """
    n, m = len(xs), len(ys)
    ids: dict = {}
    xid = np.array([ids.setdefault(v, len(ids)) for v in xs], dtype=np.int64)
    yid = [ids.get(v, -1) for v in ys]
    inf = np.iinfo(np.int64).max // 4
    pos = np.arange(n + 1)
    C = np.full(n + 1, inf, np.int64)
    G = np.full(n + 1, inf, np.int64)
    X = np.zeros(n + 1, np.int64)
    back = []  # per row y+1: (gen source mode per x, gen skip origin per x, copy source mode per x, X origin per x)
    for y in range(m):
        # gen ys[y] from (y, x) in any mode; 0=G, 1=C, 2=X
        g_from = np.stack([G, C + gen_cost, X + gen_cost])
        g_src = np.argmin(g_from, axis=0).astype(np.int8)
        g_pre = g_from[g_src, pos] + ycost[y]
        # copy xs[x] -> ys[y] from (y, x) into (y+1, x+1)
        c_from = np.stack([G[:-1] + copy_cost, C[:-1], X[:-1] + copy_cost])
        c_src = np.argmin(c_from, axis=0).astype(np.int8)
        c_val = np.where(xid == yid[y], c_from[c_src, pos[:-1]], inf)
        C = np.concatenate([[inf], c_val])
        c_src = np.concatenate([[1], c_src])
        # skipping xs: G keeps its mode, C closes into X
        G, g_org = _cummin(g_pre)
        X, x_org = _cummin(np.concatenate([[inf], C[:-1]]))
        back.append((g_src, g_org.astype(np.int32), c_src, (x_org - 1).astype(np.int32)))
    # end: trailing xs are skipped; a mode-C end is as good as X
    finals = np.stack([G, C, X])
    mode, x = np.unravel_index(np.argmin(finals), finals.shape)
    mode, x = int(mode), int(x)
    matched = []  # (x, y) pairs, reversed
    y = m
    while y > 0:
        g_src, g_org, c_src, x_org = back[y - 1]
        if mode == 0:  # G: ys[y-1] generated, from (y-1, g_org[x])
            x = int(g_org[x])
            mode = int(g_src[x])
        elif mode == 1:  # C: xs[x-1] copied to ys[y-1]
            matched.append((x - 1, y - 1))
            mode = int(c_src[x])
            x -= 1
        else:  # X: closed a copy run ending at x_org[x]
            x, mode = int(x_org[x]), 1
            continue
        y -= 1
    runs: list[list[int]] = []
    for x, y in reversed(matched):
        if runs and runs[-1][0] + runs[-1][2] == x and runs[-1][1] + runs[-1][2] == y:
            runs[-1][2] += 1
        else:
            runs.append([x, y, 1])
    return [tuple(r) for r in runs]


def _cummin(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Running minimum and, for each position, the last index at or before it where that minimum sits."""
    low = np.minimum.accumulate(v)
    origin = np.maximum.accumulate(np.where(v == low, np.arange(len(v)), 0))
    return low, origin
