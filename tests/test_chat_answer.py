"""core/chat_answer.py: a chat's answer read into the blocks that change the file and those that do not; and
the placement the answer's words and blocks say (core/block_merge.py through engine/apply.py)."""
import pytest

from copy_as_decode.core import chat_answer
from copy_as_decode.core.chat_answer import CHANGE, OTHER, USAGE
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest

FILE = '''"""Settings."""
import json
import sys


class Config:
    def __init__(self, path):
        self.path = path

    def like(self, other):
        return self.path == other.path

    def load(self):
        with open(self.path) as f:
            return json.load(f)


class Cache:
    def __init__(self):
        self.items = {}

    def load(self):
        return dict(self.items)


def main(argv):
    config = Config(argv[1])
    print(config.load())
'''


def kinds(answer: str, path: str | None = "pkg/config.py") -> list[str]:
    return [b.kind for b in chat_answer.read(answer, FILE, "python", path).blocks]


def test_a_bare_block_is_one_block_as_it_is():
    read = chat_answer.read("def main(argv):\n    pass\n", FILE, "python")
    assert not read.fenced and [b.text for b in read.blocks] == ["def main(argv):\n    pass\n"]


def test_fences_of_every_style_are_read_and_prose_is_left_out():
    answer = ("Here you go.\n\n```python pkg/config.py\ndef main(argv):\n    pass\n```\n\n"
              "1. Then:\n   ~~~py\n   import os\n   ~~~\n\nDone.\n")
    read = chat_answer.read(answer, FILE, "python", "pkg/config.py")
    assert [b.text for b in read.changes] == ["def main(argv):\n    pass\n", "import os\n"]


def test_a_block_for_another_file_is_listed_not_merged():
    assert kinds("```python tests/test_config.py\ndef test_x():\n    pass\n```\n") == [OTHER]
    assert kinds("In `tests/test_config.py`:\n```python\ndef test_x():\n    pass\n```\n") == [OTHER]
    assert kinds("```python\n# tests/test_config.py\ndef test_x():\n    pass\n```\n") == [OTHER]
    assert kinds("```python pkg/config.py\ndef main(argv):\n    pass\n```\n") == [CHANGE]
    assert kinds("```js\nconst x = 1\n```\n") == [OTHER]


def test_commands_output_and_usage_examples_are_left_out():
    answer = ("```python\ndef main(argv):\n    pass\n```\n\n```bash\npython -m pytest\n```\n\n"
              "```\nValueError: bad path\n```\n\n```python\nfrom pkg.config import Config\n\n"
              "print(Config('x').load())\n```\n\n```python\ndef test_load():\n    assert Config('x')\n```\n")
    assert kinds(answer) == [CHANGE, USAGE, USAGE, USAGE, USAGE]


def test_an_import_alone_is_a_change():
    assert kinds("First:\n```python\nimport os\n```\nThen:\n```python\ndef main(argv):\n    pass\n```\n") == \
        [CHANGE, CHANGE]


def test_the_prose_says_where_a_new_definition_goes():
    [block] = chat_answer.read("Add this to `Config`, right after `like()`:\n```python\n    def size(self):\n"
                               "        return 0\n```\n", FILE, "python").blocks
    assert ("after", "like") in block.hints and ("named", "Config") in block.hints
    merged = apply(EditRequest(FILE, block="Add this to `Config`, right after `like()`:\n```python\n    def size(self):\n"
                                           "        return 0\n```\n", language="python")).text
    assert "        return self.path == other.path\n\n    def size(self):\n        return 0\n\n    def load(self):\n" \
        in merged


def test_a_name_defined_twice_goes_to_the_definition_the_block_matches_best():
    block = "    def load(self):\n        with open(self.path) as f:\n            return json.load(f) or {}\n"
    merged = apply(EditRequest(FILE, block=block, language="python")).text
    assert merged == FILE.replace("return json.load(f)\n", "return json.load(f) or {}\n")


def test_an_import_and_a_helper_in_two_blocks_are_one_change():
    answer = ("First add the import:\n\n```python\nimport os\n```\n\nThen the helper and its caller:\n\n"
              "```python\ndef exists(path):\n    return os.path.exists(path)\n\n\ndef main(argv):\n"
              "    if not exists(argv[1]):\n        return\n    config = Config(argv[1])\n    print(config.load())\n```\n")
    merged = apply(EditRequest(FILE, block=answer, language="python")).text
    assert merged.startswith('"""Settings."""\nimport json\nimport os\nimport sys\n')  # the sorted place
    assert "\n\n\ndef exists(path):\n    return os.path.exists(path)\n\n\ndef main(argv):\n    if not exists" in merged


def test_a_block_already_in_the_file_is_unchanged():
    result = apply(EditRequest(FILE, block="```python\ndef main(argv):\n    config = Config(argv[1])\n    print(config.load())\n"
                                           "```\n", language="python"))
    assert result.unchanged and result.text == FILE


@pytest.mark.parametrize("language, document, block, expect", [
    ("javascript", "const z = require('z')\nconst {\n  x,\n} = require('x')\nconst c = 1\n\nfunction f () {\n  return c\n}\n",
     "const b = require('b')\n", "const {\n  x,\n} = require('x')\nconst b = require('b')\nconst c = 1\n"),
    ("python", "import os\nfrom typing import Any\n\nX = 1\n", "import json\n", "import json\nimport os\n"),
])
def test_a_new_import_goes_into_the_import_block(language, document, block, expect):
    # the requires are not sorted: after the last one (a destructuring over three lines); the imports are
    assert expect in apply(EditRequest(document, block=block, language=language)).text


TS = '''import * as fs from "fs";

export class Store {
  private items: Map<string, number> = new Map();

  get(key: string): number | undefined {
    return this.items.get(key);
  }

  put(key: string, value: number): void {
    this.items.set(key, value);
  }
}
'''
GO = 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc (s *Store) Get(key string) int {\n\treturn s.items[key]\n}\n\n' \
     'func main() {\n\tfmt.Println(os.Args)\n}\n'
RUST = '''use std::collections::HashMap;

impl Store {
    pub fn get(&self, key: &str) -> Option<&i32> {
        self.items.get(key)
    }
}
'''
JAVA = '''import java.util.Map;

public class Store {
    public Integer get(String key) {
        return items.get(key);
    }

    public void put(String key, Integer value) {
        items.put(key, value);
    }
}
'''


@pytest.mark.parametrize("language, document, answer, old, new", [
    ("typescript", TS, 'Add, right after `get()`:\n```ts\n  has(key: string): boolean {\n    return this.items.has(key);\n'
     '  }\n```\n', "    return this.items.get(key);\n  }\n\n",
     "    return this.items.get(key);\n  }\n\n  has(key: string): boolean {\n    return this.items.has(key);\n  }\n\n"),
    ("go", GO, '```go\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n)\n```\n\n```go\nfunc (s *Store) Get(key string) int {\n'
     '\treturn s.items[strings.ToLower(key)]\n}\n```\n',
     '\t"os"\n)\n\nfunc (s *Store) Get(key string) int {\n\treturn s.items[key]',
     '\t"os"\n\t"strings"\n)\n\nfunc (s *Store) Get(key string) int {\n\treturn s.items[strings.ToLower(key)]'),
    ("rust", RUST, '```rust\nuse std::fmt;\n```\n\n```rust\nimpl Store {\n    // ... existing code ...\n\n'
     '    pub fn len(&self) -> usize {\n        self.items.len()\n    }\n}\n```\n',
     "HashMap;\n\nimpl Store {", "HashMap;\nuse std::fmt;\n\nimpl Store {"),
    ("java", JAVA, '```java\n    public Integer get(String key) {\n        return items.getOrDefault(key, 0);\n    }\n```\n',
     "return items.get(key);", "return items.getOrDefault(key, 0);"),
])
def test_answers_for_the_tree_sitter_languages_are_placed_by_their_outline(language, document, answer, old, new):
    assert old in document
    result = apply(EditRequest(document, block=answer, language=language)).text
    assert new in result and result.replace(new, old) == document or language == "rust" and new in result \
        and "    pub fn len(&self) -> usize {\n        self.items.len()\n    }\n}\n" in result


def test_an_answer_whose_lazy_body_ends_before_the_file_s_body_does_is_refused_not_guessed():
    from copy_as_decode.core.contract import IncompleteEdit
    # the block's docstring end does not parse alone, so its body is anchored by its lines, not its outline
    before = 'def pick(values):\n    """Ints.\n    """\n    out = [x for x in values if x]\n    log(out)\n    return values\n'
    answer = ('Return the filtered list:\n\n```python\ndef pick(values):\n    # ... existing code ...\n'
              '    """\n    out = [x for x in values if x]\n    return out\n```\n')
    with pytest.raises(IncompleteEdit, match="ends with `return out`, but the result goes on in its body"):
        apply(EditRequest(before, block=answer, language="python", path="pick.py"))


def test_a_go_block_of_another_package_is_another_file():
    """A usage example as a Go program (`package main`, importing the file's package) is not merged into it."""
    go = "package toml\n\nimport \"reflect\"\n\nfunc isNil(rv reflect.Value) bool {\n\treturn rv.IsNil()\n}\n"
    answer = ("Fix:\n\n```go\nfunc isNil(rv reflect.Value) bool {\n\treturn !rv.IsValid() || rv.IsNil()\n}\n```\n\n"
              "Try it:\n\n```go\npackage main\n\nimport \"github.com/BurntSushi/toml\"\n\nfunc main() {\n"
              "\t_ = toml.NewEncoder(nil)\n}\n```\n")
    read = chat_answer.read(answer, go, "go", "toml/encode.go")
    assert [b.kind for b in read.blocks] == [CHANGE, OTHER]
    assert "in package main, not toml" in read.blocks[1].why


KOTLIN = """package demo

fun Enum<*>.toJSValue(): Any? {
  return name
}
"""


@pytest.mark.parametrize("lead", ["So for", "For enums like", "Example:", "## Usage", "Quick check:"])
def test_a_block_the_prose_offers_as_a_case_or_an_example_is_not_merged(lead):
    answer = f"""Fall back to the name:

```kotlin
fun Enum<*>.toJSValue(): Any? {{
  return ordinal.toString()
}}
```

{lead}

```kotlin
enum class Quality(val width: Int, val height: Int) {{
  HD(1280, 720)
}}
```
"""
    read = chat_answer.read(answer, KOTLIN, "kotlin", "Convert.kt")
    assert [b.kind for b in read.blocks] == [CHANGE, USAGE]
    assert "Quality" in read.blocks[1].why or "example" in read.blocks[1].why


def test_a_case_the_change_uses_is_merged_though_the_prose_runs_on_into_it():
    answer = """For enums like

```kotlin
enum class Quality(val width: Int) {
  HD(1280)
}
```

pass them through:

```kotlin
fun Enum<*>.toJSValue(): Any? {
  return if (this is Quality) width else name
}
```
"""
    read = chat_answer.read(answer, KOTLIN, "kotlin", "Convert.kt")
    assert [b.kind for b in read.blocks] == [CHANGE, CHANGE]


def test_a_heading_that_names_another_path_makes_its_block_another_file_s():
    answer = """## 1. `lib/receiver.js`

```js
function check() {}
```

## 2. `lib/constants.js`: allow the new value

```js
const BINARY_TYPES = ['nodebuffer', 'uint8array'];
```
"""
    read = chat_answer.read(answer, "function check() { return 1; }\n", "javascript", "lib/receiver.js")
    assert [b.kind for b in read.blocks] == [CHANGE, OTHER]


def test_output_that_shares_only_brackets_with_the_file_is_output():
    answer = """```lua
print(json.encode({ name = "x" }, { indent = true }))
```

```
{
  "name":"x"
}
```
"""
    document = "local json = {}\nfunction json.encode(t)\n  return {\n  }\nend\nreturn json\n"
    read = chat_answer.read(answer, document, "lua", "dkjson.lua")
    assert read.blocks[1].kind == USAGE and read.blocks[1].why == "output, not code"


GO = """package color

func (c *Color) Equals(c2 *Color) bool {
\tif len(c.params) != len(c2.params) {
\t\treturn false
\t}
\treturn true
}
"""


@pytest.mark.parametrize("lead, quote", [
    ("This is the current code:", GO[GO.index("func"):]),
    ("Right now it checks:", "\tif len(c.params) != len(c2.params) {\n\t\treturn false\n\t// ...\n"),
])
def test_the_file_s_code_quoted_as_it_stands_above_its_rewrite_is_not_merged(lead, quote):
    answer = f"""{lead}

```go
{quote}```

The fix:

```go
func (c *Color) Equals(c2 *Color) bool {{
\tif c == nil || c2 == nil {{
\t\treturn c == c2
\t}}
\tif len(c.params) != len(c2.params) {{
\t\treturn c2 == nil
\t}}
\treturn true
}}
```
"""
    read = chat_answer.read(answer, GO, "go", "color.go")
    assert [b.kind for b in read.blocks] == [USAGE, CHANGE]
    assert apply(EditRequest(GO, block=answer, language="go", path="color.go")).text == GO.replace(
        "bool {\n", "bool {\n\tif c == nil || c2 == nil {\n\t\treturn c == c2\n\t}\n", 1).replace(
        "return false", "return c2 == nil")


def test_a_command_line_that_runs_the_file_itself_is_not_merged():
    answer = """```sh
-s|--state-dir)  opt_state_dir="$2"; shift 2 ;;
```

Try it:

```
ucfr -n -v -s /tmp/ucf-test mypkg /etc/mypkg/mypkg.conf
```
"""
    document = "#!/bin/sh\ncase \"$1\" in\n--state-dir)  opt_state_dir=\"$2\"; shift 2 ;;\nesac\n"
    read = chat_answer.read(answer, document, "bash", "usr/bin/ucfr")
    assert [b.kind for b in read.blocks] == [CHANGE, USAGE] and read.blocks[1].why == "a command that runs the file"
