"""Bugs of the HumanEvalFix types (operator misuse, value misuse, variable misuse, function misuse, missing
logic, excess logic) injected into a real Python or JavaScript function, and the instruction to fix them,
which for HINT_SHARE of the fixes says what is wrong in a user's words (`bug_hint`); and one-token bugs in a
function of any language core/parsers.py has a grammar for (`tree_bug`)."""
import ast
import difflib
import os
import random
import re
import tokenize
from dataclasses import dataclass

from copy_as_decode.core.document import split_lines

from .syntax import PyFunc, js_tokens, valid_python

BUG_TYPES = ("operator misuse", "value misuse", "variable misuse", "function misuse", "missing logic",
             "excess logic")


# ------------------------------------------------------------------------------------------- Python bugs

_PY_OPS = {"+": ("-",), "-": ("+",), "*": ("/", "+"), "/": ("*", "//"), "//": ("/", "%"), "%": ("//",),
           "<": ("<=", ">"), "<=": ("<", ">="), ">": (">=", "<"), ">=": (">", "<="), "==": ("!=",),
           "!=": ("==",), "+=": ("-=",), "-=": ("+=",), "**": ("*",), "and": ("or",), "or": ("and",),
           "in": ("not in",), "is": ("is not",)}
_FUNCS = {"min": "max", "max": "min", "any": "all", "all": "any", "lower": "upper", "upper": "lower",
          "startswith": "endswith", "endswith": "startswith", "lstrip": "rstrip", "rstrip": "lstrip",
          "find": "rfind", "rfind": "find", "index": "rindex", "floor": "ceil", "ceil": "floor",
          "append": "extend", "extend": "append", "keys": "values", "values": "keys", "sorted": "reversed",
          "split": "rsplit", "isdigit": "isalpha", "isalpha": "isdigit", "strip": "lstrip", "sum": "len",
          "items": "keys", "insert": "append", "pop": "popitem", "issubclass": "isinstance",
          "isinstance": "issubclass", "getattr": "hasattr", "join": "split", "str": "repr", "repr": "str",
          "int": "float", "list": "tuple", "tuple": "list", "isupper": "islower", "islower": "isupper"}


def _byte_col(line: str, col: int) -> int:
    return len(line.encode("utf-8")[:col].decode("utf-8", errors="ignore"))


def python_bug(text: str, bug_type: str, rng: random.Random) -> str | None:
    """`text` with one bug of `bug_type`, or None when this function offers no place for one."""
    f = PyFunc(text)
    toks = f.body_tokens()
    cands: list[str] = []
    if bug_type == "operator misuse":
        for k, t in toks:
            if t.string in _PY_OPS and t.type in (tokenize.OP, tokenize.NAME):
                nxt = f.tokens[k + 1].string if k + 1 < len(f.tokens) else ""
                prev = f.tokens[k - 1].string if k else ""
                if t.string in ("in", "is") and (nxt == "not" or prev == "not"):
                    continue
                cands += [f.replace(t, rng.choice(_PY_OPS[t.string]))]
    elif bug_type == "value misuse":
        for _, t in toks:
            if t.type == tokenize.NUMBER and re.fullmatch(r"[0-9]+", t.string):
                v = int(t.string)
                cands.append(f.replace(t, str(rng.choice([v + 1, v - 1] if v > 1 else [v + 1]))))
            elif t.type == tokenize.NAME and t.string in ("True", "False"):
                cands.append(f.replace(t, "False" if t.string == "True" else "True"))
            elif t.type == tokenize.STRING and re.fullmatch(r"([rbu]?)(['\"])([^'\"\\{}]{0,12})\2", t.string):
                m = re.fullmatch(r"([rbu]?)(['\"])([^'\"\\{}]{0,12})\2", t.string)
                body = m[3]
                new = (body[:-1] if len(body) > 1 and rng.random() < 0.5 else body + ("" if body == " " else " ")) \
                    if body else " "
                if new != body:
                    cands.append(f.replace(t, f"{m[1]}{m[2]}{new}{m[2]}"))
    elif bug_type == "variable misuse":
        names = f.locals
        for k, t in toks:
            prev = f.tokens[k - 1].string if k else ""
            nxt = f.tokens[k + 1].string if k + 1 < len(f.tokens) else ""
            if t.type == tokenize.NAME and t.string in names and prev != "." and nxt != "=" and len(names) > 1:
                cands.append(f.replace(t, rng.choice([n for n in names if n != t.string])))
    elif bug_type == "function misuse":
        for k, t in toks:
            nxt = f.tokens[k + 1].string if k + 1 < len(f.tokens) else ""
            if t.type == tokenize.NAME and t.string in _FUNCS and nxt == "(":
                cands.append(f.replace(t, _FUNCS[t.string]))
    elif bug_type == "missing logic":
        for s in f.stmts():
            if s.lineno == s.end_lineno and not isinstance(s, (ast.FunctionDef, ast.ClassDef)):
                cands.append("".join(f.lines[:s.lineno - 1] + f.lines[s.end_lineno:]))
        for n in ast.walk(f.fn):
            if isinstance(n, ast.BoolOp) and n.lineno == n.end_lineno and n.lineno >= f.body_start:
                line = f.lines[n.lineno - 1]
                a, b = _byte_col(line, n.values[-2].end_col_offset), _byte_col(line, n.end_col_offset)
                lines = list(f.lines)
                lines[n.lineno - 1] = line[:a] + line[b:]
                cands.append("".join(lines))
    elif bug_type == "excess logic":
        for s in f.stmts():
            line = f.lines[s.lineno - 1]
            if s.lineno != s.end_lineno and not isinstance(s, ast.If):
                continue
            if isinstance(s, ast.AugAssign) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                                                 and isinstance(s.value.func, ast.Attribute)
                                                 and s.value.func.attr in ("append", "add", "write", "extend")):
                cands.append("".join(f.lines[:s.lineno] + [line] + f.lines[s.lineno:]))
            elif isinstance(s, ast.If) and s.test.lineno == s.test.end_lineno and f.locals:
                end = _byte_col(line, s.test.end_col_offset)
                v = rng.choice(f.locals)
                extra = rng.choice([f" and {v}", f" and not {v}", f" or {v} is None"])
                lines = list(f.lines)
                lines[s.lineno - 1] = line[:end] + extra + line[end:]
                cands.append("".join(lines))
            elif isinstance(s, ast.Return) and s.value is not None and s.lineno == s.end_lineno and \
                    isinstance(s.value, (ast.BinOp, ast.Call, ast.Name)) and \
                    (isinstance(s.value, ast.BinOp) or "len" in ast.unparse(s.value)):
                end = _byte_col(line, s.value.end_col_offset)
                cands.append("".join(f.lines[:s.lineno - 1] + [line[:end] + rng.choice([" + 1", " - 1"])
                                                                          + line[end:]] + f.lines[s.lineno:]))
    else:
        raise ValueError(f"unknown bug type {bug_type!r}")
    cands = [c for c in cands if c != text and valid_python(c)]
    return rng.choice(cands) if cands else None


# ----------------------------------------------------------------------------------------------- JS bugs

_JS_OPS = {"===": ("!==",), "!==": ("===",), "<": ("<=", ">"), "<=": ("<",), ">": (">=", "<"), ">=": (">",),
           "+": ("-",), "-": ("+",), "&&": ("||",), "||": ("&&",), "+=": ("-=",), "-=": ("+=",), "*": ("/",),
           "++": ("--",), "--": ("++",)}
_JS_FUNCS = {"push": "unshift", "unshift": "push", "startsWith": "endsWith", "endsWith": "startsWith",
             "toLowerCase": "toUpperCase", "toUpperCase": "toLowerCase", "min": "max", "max": "min",
             "some": "every", "every": "some", "indexOf": "lastIndexOf", "lastIndexOf": "indexOf",
             "trimStart": "trimEnd", "trimEnd": "trimStart", "shift": "pop", "pop": "shift", "slice": "splice",
             "filter": "find", "find": "filter", "keys": "values", "values": "keys", "floor": "ceil",
             "ceil": "floor", "concat": "push", "includes": "startsWith", "has": "get", "resolve": "reject"}
_JS_KEYWORDS = {"var", "let", "const", "function", "return", "if", "else", "for", "while", "do", "new", "this",
                "typeof", "instanceof", "in", "of", "true", "false", "null", "undefined", "async", "await",
                "throw", "try", "catch", "finally", "break", "continue", "switch", "case", "default", "class",
                "extends", "super", "delete", "void", "yield", "static", "get", "set"}


def js_bug(text: str, bug_type: str, rng: random.Random) -> str | None:
    """As python_bug, for a JavaScript function (its braces stay balanced)."""
    lines = split_lines(text)
    toks = [t for t in js_tokens(lines) if t[0] > 0]  # not the header line
    declared = sorted({m[1] for m in re.finditer(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)", text)}
                      | {p for p in re.findall(r"[A-Za-z_$][\w$]*", lines[0][lines[0].find("("):])
                         if p not in _JS_KEYWORDS})

    def sub(t, new):
        i, a, b, _ = t
        out = list(lines)
        out[i] = lines[i][:a] + new + lines[i][b:]
        return "".join(out)

    cands = []
    for k, t in enumerate(toks):
        s = t[3]
        prev = toks[k - 1][3] if k else ""
        nxt = toks[k + 1][3] if k + 1 < len(toks) else ""
        if bug_type == "operator misuse" and s in _JS_OPS:
            cands.append(sub(t, rng.choice(_JS_OPS[s])))
        elif bug_type == "value misuse":
            if re.fullmatch(r"[0-9]+", s):
                v = int(s)
                cands.append(sub(t, str(rng.choice([v + 1, v - 1] if v > 1 else [v + 1]))))
            elif s in ("true", "false"):
                cands.append(sub(t, "false" if s == "true" else "true"))
        elif bug_type == "variable misuse" and s in declared and prev != "." and nxt not in ("=", ":") \
                and len(declared) > 1 and prev not in ("const", "let", "var"):
            cands.append(sub(t, rng.choice([d for d in declared if d != s])))
        elif bug_type == "function misuse" and s in _JS_FUNCS and prev == "." and nxt == "(":
            cands.append(sub(t, _JS_FUNCS[s]))
    if bug_type == "missing logic":
        for i in range(1, len(lines) - 1):
            s = lines[i].strip()
            if s.endswith(";") and not s.startswith(("//", "/*", "*", "return", "}")) and s.count("(") == s.count(")") \
                    and "{" not in s and "}" not in s:
                cands.append("".join(lines[:i] + lines[i + 1:]))
        for i, a, b, s in toks:
            if s in ("&&", "||"):  # drop "&& rest" up to the closing paren of an if condition
                line = lines[i]
                m = re.match(r"\s*(?:if|while)\s*\((.*)\)\s*\{?\s*$", line)
                if m and line.find(")", b) == line.rfind(")") and line.count("(") == 1:
                    out = list(lines)
                    out[i] = line[:a].rstrip() + line[line.rfind(")"):]
                    cands.append("".join(out))
    elif bug_type == "excess logic":
        for i in range(1, len(lines) - 1):
            s = lines[i].strip()
            if re.fullmatch(r"[\w$.\[\]]+\s*(\+\+|--|\+=.*|-=.*|\.push\(.*\));", s):
                cands.append("".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]))
            m = re.fullmatch(r"(\s*(?:if|while)\s*\()(.*)(\)\s*\{\s*\n?)", lines[i])
            if m and m[2].count("(") == m[2].count(")") and declared:
                v = rng.choice(declared)
                out = list(lines)
                out[i] = m[1] + m[2] + rng.choice([f" && {v}", f" && !{v}", f" || {v} === undefined"]) + m[3]
                cands.append("".join(out))
    cands = [c for c in cands if c != text and c.count("{") == text.count("{")]
    return rng.choice(cands) if cands else None


# ----------------------------------------------------------------------------------------- instructions

_FIX = ["Fix bugs in {name}.", "Fix bugs in {name}.", "Fix bugs in {name}.", "Fix the bug in `{name}`.",
        "There is a bug in {name}; fix it."]
_FIX_MANY = ["Fix the bugs in {names}.", "Fix bugs in {names}.", "There are bugs in {names}; fix them."]
HINT_SHARE = 0.5  # share of bug fixes whose instruction says what is wrong


def fix_instruction(names: list[str], hints: list[str | None], rng: random.Random) -> str:
    """Fix the bugs in the named functions; for HINT_SHARE of them, where every fix has a hint, also what is
    wrong (in each function, when there are several)."""
    if len(names) == 1:
        instr = rng.choice(_FIX).format(name=names[0])
    else:
        instr = rng.choice(_FIX_MANY).format(names=", ".join(f"`{n}`" for n in names[:-1]) + f" and `{names[-1]}`")
    if rng.random() < HINT_SHARE and all(hints):
        said = hints[0] if len(names) == 1 else "; ".join(f"in `{n}`, {h}" for n, h in zip(names, hints))
        instr = f"{instr.rstrip('.')}: {said}."
    return instr


def bug_hint(before: str, after: str) -> str | None:
    """What a one-line fix changes, in a user's words (`i < n` should be `i <= n`; `x += 1` should not be
    there; `return y` is missing), or None for a larger change."""
    a, b = split_lines(before), split_lines(after)
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1:
        return None
    tag, i1, i2, j1, j2 = ops[0]
    if tag == "replace" and i2 - i1 == 1 and j2 - j1 == 1:
        old, new = _changed_words(a[i1].strip(), b[j1].strip())
        return f"`{old}` should be `{new}`"
    if tag == "delete" and i2 - i1 == 1:
        return f"`{a[i1].strip()}` should not be there"
    if tag == "insert" and j2 - j1 == 1:
        return f"`{b[j1].strip()}` is missing"
    return None


def _changed_words(x: str, y: str) -> tuple[str, str]:
    """The differing middle of two lines, widened to whole space-separated words on both sides."""
    p = len(os.path.commonprefix([x, y]))
    s = min(len(os.path.commonprefix([x[::-1], y[::-1]])), len(x) - p, len(y) - p)
    start = max(x.rfind(" ", 0, p), y.rfind(" ", 0, p)) + 1
    end_x, end_y = x.find(" ", len(x) - s), y.find(" ", len(y) - s)
    return x[start:end_x if end_x >= 0 else len(x)], y[start:end_y if end_y >= 0 else len(y)]


# ------------------------------------------------------------------------ bugs read off a tree-sitter tree

# One token of a function changed (TypeScript, Go, Rust, Java, C, C++: the grammars of core/parsers.py), each
# in a class a user would describe (synthesis/lang_corpus.py words the instructions from it).
TREE_SWAPS = {
    "boundary": {"<": "<=", "<=": "<", ">": ">=", ">=": ">"},
    "inverted": {"==": "!=", "!=": "==", "===": "!==", "!==": "==="},
    "logic": {"&&": "||", "||": "&&"},
    "arithmetic": {"+": "-", "-": "+", "+=": "-=", "-=": "+=", "++": "--", "--": "++"},
}
# the nodes whose operator token is a swap candidate; `<` elsewhere is a type's brackets, `-` a sign
_OPERATED = {"binary_expression", "augmented_assignment_expression", "assignment_statement",
             "compound_assignment_expr", "assignment_expression", "update_expression", "inc_statement",
             "dec_statement"}
_INTEGERS = {"number", "int_literal", "integer_literal", "decimal_integer_literal", "number_literal"}
_NOT_VALUES = ("case", "enum", "attribute", "annotation", "array_declarator", "type", "preproc")


@dataclass(frozen=True)
class TreeBug:
    line: int      # 1-based line of the changed token
    kind: str      # boundary, inverted, logic, arithmetic, constant, boolean
    subject: str   # the operand or name the token acts on, as written (for the instruction)
    other: str     # the other operand ("" where there is none)


def tree_bug(document: str, language: str, lines: tuple[int, int], rng: random.Random) -> tuple[str, TreeBug] | None:
    """`document` with one token changed on one of `lines` (first, last; 1-based, both inside one function
    body) and what the change is, or None when those lines offer no place. The changed document parses with
    no error the original lacks (core/syntax_check.py)."""
    from copy_as_decode.core.parsers import parse
    from copy_as_decode.core.syntax_check import new_errors
    source = document.encode()
    found: dict[str, list] = {}
    stack = [parse(document, language).root_node]
    while stack:
        node = stack.pop()
        if node.end_point[0] + 1 < lines[0] or node.start_point[0] + 1 > lines[1]:
            continue
        stack += node.children
        if node.child_count or not lines[0] <= node.start_point[0] + 1 <= lines[1]:
            continue
        change = _tree_change(node, source)
        if change is not None:
            found.setdefault(change[1].kind, []).append(change)
    for kind in rng.sample(sorted(found), len(found)):  # a class first, so that each is drawn as often
        for (start, end, new), bug in rng.sample(found[kind], len(found[kind])):
            changed = (source[:start] + new.encode() + source[end:]).decode()
            if not new_errors(document, changed, language):
                return changed, bug
    return None


def _tree_change(leaf, source: bytes) -> tuple[tuple[int, int, str], TreeBug] | None:
    """The token swap this leaf offers: (byte start, byte end, new text) and the bug it makes, or None."""
    text = leaf.text.decode()
    parent = leaf.parent
    line = leaf.start_point[0] + 1
    if parent is not None and parent.type in _OPERATED:
        for kind, swaps in TREE_SWAPS.items():
            if text not in swaps or (kind == "arithmetic" and re.search(r"[\"'`]", parent.text.decode())):
                continue  # `+` joining strings is no arithmetic
            operands = [c for c in parent.named_children if c.id != leaf.id]
            words = [_short(c) for c in operands] + ["", ""]
            return (leaf.start_byte, leaf.end_byte, swaps[text]), TreeBug(line, kind, words[0], words[1])
        return None
    if any(n in t for t in _ancestors(leaf, 4) for n in _NOT_VALUES):
        return None
    subject = _subject(leaf)
    if not re.fullmatch(r"[A-Za-z_][\w.]*(\(\))?", subject) or subject in ("true", "false", "null", "nil", "return"):
        return None  # nothing a user would name the value by
    if leaf.type in _INTEGERS and re.fullmatch(r"[0-9]{1,3}", text):
        v = int(text)
        return (leaf.start_byte, leaf.end_byte, str(v + 1 if v < 2 else v - 1)), TreeBug(line, "constant", subject, "")
    if text in ("true", "false"):
        return (leaf.start_byte, leaf.end_byte, "false" if text == "true" else "true"), \
            TreeBug(line, "boolean", subject, "")
    return None


def _ancestors(node, n: int) -> list[str]:
    out = []
    while node.parent is not None and len(out) < n:
        node = node.parent
        out.append(node.type)
    return out


def _short(node) -> str:
    """An operand as a user would quote it: its text when short and on one line, else its first name."""
    text = node.text.decode()
    if len(text) <= 32 and "\n" not in text:
        return text
    names = re.findall(r"[A-Za-z_]\w*", text)
    return names[0] if names else ""


def _subject(leaf) -> str:
    """What a literal is the value of: the name it is assigned or passed to, else its statement's first name."""
    node = leaf.parent
    while node is not None and node.parent is not None and not node.type.endswith(("statement", "declaration")):
        for field in ("left", "name", "field", "key", "function", "pattern"):
            target = node.child_by_field_name(field)
            if target is not None and not target.start_byte <= leaf.start_byte < target.end_byte:
                return _short(target)  # never the literal itself, nor what holds it (it would say the value)
        node = node.parent
    names = re.findall(r"[A-Za-z_]\w*", node.text.decode()) if node is not None else []
    return names[1] if len(names) > 1 and names[0] in ("return", "var", "let", "const", "if") else \
        names[0] if names else ""
