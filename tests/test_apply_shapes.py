"""engine/apply.py on the shapes chats write in languages beyond Python and JavaScript: a `switch` case shown
with its other cases elided, an `else if` rewritten, a helper shown alone, a constant a change needs, and what
an answer holds that is not the file's (a program's `main`, another public class, a quote of the old line).
Each merged result is compared with the file a developer means, byte for byte; each refusal says why."""
from copy_as_decode.core import chat_answer, lazy_block
from copy_as_decode.engine.apply import apply, guarantee
from copy_as_decode.engine.request import EditRequest

GO = """package logfmt

import (
\t"fmt"
\t"strconv"
)

func render(v interface{}) string {
\tswitch st := v.(type) {
\tcase string:
\t\treturn st
\tcase int:
\t\treturn strconv.Itoa(st)
\tcase []interface{}:
\t\treturn fmt.Sprintf(st[0].(string), st[1:]...)
\tdefault:
\t\treturn fmt.Sprint(st)
\t}
}

func join(parts []string) string {
\tout := ""
\tfor _, p := range parts {
\t\tout += p
\t}
\treturn out
}
"""


def merged(document: str, answer: str, language: str, path: str | None = None) -> str:
    return apply(EditRequest(document, block=answer, language=language, path=path)).text


def test_a_case_shown_inside_its_switch_with_the_others_elided_replaces_that_case():
    answer = """The panic is in this line:

```go
return fmt.Sprintf(st[0].(string), st[1:]...)
```

Guard it:

```go
\tswitch st := v.(type) {
\t// ... other cases unchanged ...
\tcase []interface{}:
\t\tif len(st) == 0 {
\t\t\treturn ""
\t\t}
\t\treturn fmt.Sprintf(fmt.Sprint(st[0]), st[1:]...)
\tdefault:
\t\t// ... unchanged ...
\t}
```
"""
    want = GO.replace("\t\treturn fmt.Sprintf(st[0].(string), st[1:]...)\n", "\t\tif len(st) == 0 {\n\t\t\treturn \"\"\n\t\t}\n"
                      "\t\treturn fmt.Sprintf(fmt.Sprint(st[0]), st[1:]...)\n")
    read = chat_answer.read(answer, GO, "go")
    assert [b.why for b in read.left_out] == ["a quote of the file's code as it is"]
    assert merged(GO, answer, "go") == want


def test_a_helper_shown_alone_goes_after_the_definition_that_calls_it():
    helper = "func quote(s string) string {\n\treturn strconv.Quote(s)\n}\n"
    caller = GO.replace("\t\treturn st\n", "\t\treturn quote(st)\n")
    want = caller.replace("}\n\nfunc join", "}\n\n" + helper + "\nfunc join")
    assert merged(caller, helper, "go") == want


def test_a_line_the_block_rewrote_never_stays_beside_its_replacement():
    doc = ("fn walk(d: &Dent) -> bool {\n    if d.depth() > 9 {\n        return false;\n"
           "    } else if d.depth() == 0 && d.is_symlink() {\n        return follow(d);\n    }\n    true\n}\n")
    block = ("fn walk(d: &Dent) -> bool {\n    if d.depth() > 9 {\n        return false;\n"
             "    } else if d.depth() == 0 && d.is_symlink() && d.follow_root {\n        return follow(d);\n"
             "    }\n    true\n}\n")
    # the old condition left as an empty branch before the new one: every line of the block is there, in order
    kept = doc.replace("    } else if d.depth() == 0 && d.is_symlink() {\n",
                       "    } else if d.depth() == 0 && d.is_symlink() {\n"
                       "    } else if d.depth() == 0 && d.is_symlink() && d.follow_root {\n")
    why = guarantee(doc, [block], kept, "rust", {"walk"})
    assert why is not None and "keeps line 4" in why and "which the block replaces" in why
    assert guarantee(doc, [block], block, "rust", {"walk"}) is None
    assert merged(doc, block, "rust") == block


JAVA = """package demo;

public class Counter {
    private int n;

    /**
     * Adds one.
     */
    public void add() {
        n++;
    }

    /**
     * Adds k.
     */
    public void add(int k) {
        n += k;
    }
}
"""


def test_one_overload_is_replaced_and_a_usage_class_is_left_out():
    answer = """Only the `add(int)` overload needs a check:

```java
    /**
     * Adds k; a negative k leaves the count unchanged.
     */
    public void add(int k) {
        if (k < 0) {
            return;
        }
        n += k;
    }
```

Use it like this:

```java
public class Main {
    public static void main(String[] args) {
        Counter c = new Counter();
        c.add(-3);
    }
}
```
"""
    want = JAVA.replace("     * Adds k.\n", "     * Adds k; a negative k leaves the count unchanged.\n").replace(
        "        n += k;\n", "        if (k < 0) {\n            return;\n        }\n        n += k;\n")
    result = apply(EditRequest(JAVA, block=answer, language="java", path="src/demo/Counter.java"))
    assert result.text == want
    assert len(result.left_out) == 1 and "main" in result.left_out[0]


def test_another_public_class_is_another_files():
    answer = "```java\npublic class Doubler extends Counter {\n    public void twice() {\n        add(2);\n    }\n}\n```\n"
    read = chat_answer.read(answer, JAVA, "java")
    assert read.changes == [] and "another public class" in read.left_out[0].why


def test_a_program_main_is_left_out_of_a_library():
    lib = "pub fn depth(v: &[u8]) -> usize {\n    v.len()\n}\n"
    answer = ("```rust\npub fn depth(v: &[u8]) -> usize {\n    v.len() + 1\n}\n```\n\nTry it:\n\n"
              "```rust\nuse walk::depth;\n\nfn main() {\n    println!(\"{}\", depth(b\"ab\"));\n}\n```\n")
    result = apply(EditRequest(lib, block=answer, language="rust", path="src/lib.rs"))
    assert result.text == lib.replace("v.len()", "v.len() + 1") and "main" in result.left_out[0]


def test_a_block_that_defines_what_a_change_uses_is_merged():
    doc = ('import json\nimport os\n\n\nclass Parser:\n    def parse(self, text):\n        return json.loads(text)\n')
    answer = ("First the logger:\n\n```python\nimport json\nimport logging\nimport os\n\nLOG = logging.getLogger(__name__)\n"
              "```\n\nThen use it:\n\n```python\n    def parse(self, text):\n        LOG.debug(\"parsing %d bytes\", len(text))\n"
              "        return json.loads(text)\n```\n")
    want = doc.replace("import json\nimport os\n", "import json\nimport logging\nimport os\n\nLOG = logging.getLogger(__name__)\n"
                       ).replace("        return json", "        LOG.debug(\"parsing %d bytes\", len(text))\n        return json")
    assert [b.kind for b in chat_answer.read(answer, doc, "python").blocks] == ["change", "change"]
    assert merged(doc, answer, "python") == want


def test_a_comment_that_says_unchanged_is_code_and_a_marker_line_is_not():
    doc_comment = "     * @throws NullPointerException if delim is null; the state is left unchanged.\n"
    assert not lazy_block.is_marker(doc_comment)
    assert not lazy_block.is_marker("    // keep the buffer unchanged when the write fails, so a retry sends it again\n")
    assert lazy_block.is_marker("    // ... other cases unchanged ...\n")
    assert lazy_block.is_marker("    // rest of the method is the same\n")


def test_a_new_case_goes_beside_the_others_and_takes_none_of_them():
    doc = ("int kind(char c) {\n    switch (c) {\n    case '\"':\n        return 1;\n    case '0':\n    case '1':\n"
           "        return 2;\n    default:\n        return 0;\n    }\n}\n")
    block = ("int kind(char c) {\n    switch (c) {\n    case '\"':\n        return 1;\n    case '\\'':\n        return 3;\n"
             "    // ... other cases unchanged ...\n    }\n}\n")
    want = doc.replace("        return 1;\n", "        return 1;\n    case '\\'':\n        return 3;\n")
    assert merged(doc, block, "c") == want


def test_a_result_that_drops_what_a_marker_keeps_is_refused():
    block = "\tswitch st := v.(type) {\n\t// ... other cases unchanged ...\n\tdefault:\n\t\treturn \"?\"\n\t}\n"
    right = GO.replace("\t\treturn fmt.Sprint(st)\n", "\t\treturn \"?\"\n")
    assert merged(GO, block, "go") == right
    dropped = right.replace("\tcase string:\n\t\treturn st\n", "")
    assert "drops" in guarantee(GO, [block], dropped, "go", {"render"})


def test_a_second_require_of_a_module_is_added_beside_the_first():
    doc = ("'use strict';\n\nvar fs = require('fs');\nvar Stream = require('stream').Stream;\nvar crypto = require('crypto');\n"
           "\nfunction pipe(a) {\n  return a instanceof Stream;\n}\n\nmodule.exports = pipe;\n")
    answer = ("Next to the stream require:\n\n```js\nvar fs = require('fs');\nvar Stream = require('stream').Stream;\n"
              "var Readable = require('stream').Readable;\nvar crypto = require('crypto');\n```\n\nThen:\n\n```js\n"
              "function pipe(a) {\n  return a instanceof Stream || a instanceof Readable;\n}\n```\n")
    want = doc.replace("var crypto", "var Readable = require('stream').Readable;\nvar crypto").replace(
        "  return a instanceof Stream;", "  return a instanceof Stream || a instanceof Readable;")
    assert merged(doc, answer, "javascript", "lib/pipe.js") == want


def test_a_shell_scripts_own_bash_block_is_its_code_and_a_command_is_not():
    script = "#!/bin/bash\nset -e\n\nusage() {\n    echo \"usage: $0 FILE\"\n}\n\nusage\n"
    answer = ("```bash\nusage() {\n    echo \"usage: $0 FILE [-v]\" >&2\n}\n```\n\nRun it:\n\n```bash\n$ ./tool.sh -h\n```\n")
    read = chat_answer.read(answer, script, "bash", "tool.sh")
    assert [b.kind for b in read.blocks] == ["change", "usage"]
    assert merged(script, answer, "bash", "tool.sh") == script.replace('FILE\"\n', 'FILE [-v]\" >&2\n')


def test_a_class_shown_indented_in_its_namespace_is_the_class_not_its_constructor():
    doc = ("namespace Demo\n{\n    public class Box\n    {\n        public Box() { }\n\n        public Box(int n) { N = n; }\n\n"
           "        public int N;\n\n        public int Get()\n        {\n            return N;\n        }\n    }\n}\n")
    block = ("    public class Box\n    {\n        // ... existing code ...\n\n        public int Get()\n        {\n"
             "            return N + 1;\n        }\n    }\n")
    assert merged(doc, block, "csharp") == doc.replace("return N;", "return N + 1;")


def test_a_usage_snippet_of_lines_the_file_has_everywhere_is_left_out():
    snippet = "```go\nf, err := os.Open(\"x\")\nif err != nil {\n\treturn err\n}\ndefer f.Close()\nrender(f)\n```\n"
    check = "\tif err != nil {\n\t\treturn err\n\t}\n"
    noisy = GO.replace("func join(", "func open(p string) error {\n\tf, err := os.Open(p)\n" + check * 3
                       + "\treturn f.Close()\n}\n\nfunc join(")
    answer = "Fix:\n\n```go\n" + GO_FIX + "```\n\nUse it:\n\n" + snippet
    read = chat_answer.read(answer, noisy, "go")
    assert [b.kind for b in read.blocks] == ["change", "usage"]


GO_FIX = "func join(parts []string) string {\n\treturn strings.Join(parts, \"\")\n}\n"


def test_imports_code_and_more_imports_shown_together_each_go_their_way():
    doc = "import json\nimport os\n\nfrom .util import slug\n\n\ndef name(x):\n    return slug(json.dumps(x))\n"
    answer = ("```python\nimport json\nimport logging\nimport os\n\nlogger = logging.getLogger(__name__)\n\n"
              "from .util import slug\n```\n\nThen:\n\n```python\ndef name(x):\n    logger.debug(\"naming %r\", x)\n"
              "    return slug(json.dumps(x))\n```\n")
    want = doc.replace("import json\nimport os\n", "import json\nimport logging\nimport os\n\n"
                       "logger = logging.getLogger(__name__)\n").replace(
        "    return slug", "    logger.debug(\"naming %r\", x)\n    return slug")
    assert merged(doc, answer, "python") == want
