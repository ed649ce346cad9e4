"""Bugs of the HumanEvalFix types (operator misuse, value misuse, variable misuse, function misuse, missing
logic, excess logic) injected into a real Python or JavaScript function, and the instruction to fix them,
which for HINT_SHARE of the fixes says what is wrong in a user's words (`bug_hint`)."""
import ast
import difflib
import os
import random
import re
import tokenize

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
