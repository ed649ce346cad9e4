"""engine/apply.py on what chats write about a place: a `case` split into two, the opening of a block rewritten
with its close kept, a field or a constant after the one the prose names, a helper under a block with no prose
of its own, the names prose gives (`a`/`b`, Ruby's `name!`, an `impl` header), and the blocks that are a user's
code rather than the file's. Each merged result is compared with the file a developer means, byte for byte;
each refusal names its reason."""
import pytest

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.core.contract import IncompleteEdit
from copy_as_decode.engine.apply import apply, guarantee
from copy_as_decode.engine.request import EditRequest


def merged(document: str, answer: str, language: str, path: str | None = None) -> str:
    return apply(EditRequest(document, block=answer, language=language, path=path)).text


GO = """package log

const (
\tred    = 31
\tyellow = 33
\tgray   = 37
)

func color(level int) int {
\tvar c int
\tswitch level {
\tcase DebugLevel, TraceLevel:
\t\tc = gray
\tcase WarnLevel:
\t\tc = yellow
\tcase ErrorLevel, FatalLevel, PanicLevel:
\t\tc = red
\tdefault:
\t\tc = 0
\t}
\treturn c
}
"""


def test_a_case_split_in_two_replaces_the_file_s_case_and_its_new_constant_is_merged():
    answer = """Add a color (gofmt realigns the block):

```go
const (
\tred     = 31
\tyellow  = 33
\tmagenta = 35
\tgray    = 37
)
```

Then split the case:

```go
\tswitch level {
\t// ... debug and warn unchanged ...
\tcase ErrorLevel:
\t\tc = red
\tcase FatalLevel, PanicLevel:
\t\tc = magenta
\t// ... default unchanged ...
\t}
```
"""
    want = GO.replace("\tred    = 31\n\tyellow = 33\n\tgray   = 37\n",
                      "\tred     = 31\n\tyellow  = 33\n\tmagenta = 35\n\tgray    = 37\n").replace(
        "\tcase ErrorLevel, FatalLevel, PanicLevel:\n\t\tc = red\n",
        "\tcase ErrorLevel:\n\t\tc = red\n\tcase FatalLevel, PanicLevel:\n\t\tc = magenta\n")
    assert merged(GO, answer, "go", "log.go") == want


def test_the_guarantee_refuses_the_file_s_case_kept_beside_the_cases_split_from_it():
    block = "\tswitch level {\n\t// ...\n\tcase ErrorLevel:\n\t\tc = red\n\tcase FatalLevel, PanicLevel:\n\t\tc = 35\n" \
            "\t// ...\n\t}\n"
    kept = GO.replace("\tcase ErrorLevel, FatalLevel, PanicLevel:\n\t\tc = red\n",
                      "\tcase ErrorLevel, FatalLevel, PanicLevel:\n\tcase ErrorLevel:\n\t\tc = red\n"
                      "\tcase FatalLevel, PanicLevel:\n\t\tc = 35\n")
    assert "keeps the branch `case ErrorLevel, FatalLevel, PanicLevel:`" in guarantee(GO, [block], kept, "go")


def test_a_php_member_access_is_no_branch():
    doc = "<?php\nclass A {\n    function f($o) {\n        $this->a = $o['a'] ?? $this->a;\n" \
          "        $this->b = $o['b'] ?? $this->b;\n    }\n}\n"
    answer = "```php\n        $this->a = $o['a'] ?? $this->a;\n        $this->t = (int) ($o['t'] ?? $this->t);\n" \
             "        $this->b = $o['b'] ?? $this->b;\n```\n"
    assert merged(doc, answer, "php", "A.php") == doc.replace(
        "        $this->b", "        $this->t = (int) ($o['t'] ?? $this->t);\n        $this->b")


KOTLIN = """class Manager {
    fun download(url: String) {
        val request = Request(url)

        //Attempt to add cookie, if it exists
        var urlObj: URL? = null
        try {
            urlObj = URL(url)
            val cookie = CookieManager.getInstance().getCookie(urlObj.host)
            request.addRequestHeader("Cookie", cookie)
        } catch (e: MalformedURLException) {
            Log.w(TAG, "Error getting cookie for DownloadManager", e)
        }

        request.setTitle(url)
    }

    fun open(url: String) {
        try {
            start(URL(url))
        } catch (e: IOException) {
            Log.w(TAG, "Error opening", e)
        }
    }
}
"""
KOTLIN_BLOCK = """        //Attempt to add cookie, if it exists
        try {
            request.addCookiesFor(URL(url))
        } catch (e: MalformedURLException) {
            Log.w(TAG, "Error getting cookie for DownloadManager", e)
        }
"""


def test_a_rewritten_opening_replaces_the_file_s_and_keeps_its_close():
    answer = f"The block in `download` becomes:\n\n```kotlin\n{KOTLIN_BLOCK}```\n"
    start, end = KOTLIN.index("        //Attempt"), KOTLIN.index("\n        request.setTitle")
    assert merged(KOTLIN, answer, "kotlin", "Manager.kt") == KOTLIN[:start] + KOTLIN_BLOCK + KOTLIN[end:]


def test_the_guarantee_refuses_the_block_s_lines_beside_the_file_s_they_stand_for():
    beside = KOTLIN.replace("        //Attempt to add cookie, if it exists\n", KOTLIN_BLOCK)
    assert "twice" in guarantee(KOTLIN, [KOTLIN_BLOCK], beside, "kotlin")


def test_a_field_goes_after_the_field_the_prose_names_with_the_struct_s_spacing():
    doc = "package t\n\ntype Formatter struct {\n\t// DisableColors turns colors off\n\tDisableColors bool\n\n" \
          "\t// CallerPrettyfier rewrites the caller\n\tCallerPrettyfier func(string) string\n\n\tonce sync.Once\n}\n"
    answer = "Add the field to `Formatter`, right after `CallerPrettyfier`:\n\n```go\n" \
             "\t// CallerShortFile reports only the base name\n\tCallerShortFile bool\n```\n"
    assert merged(doc, answer, "go", "t.go") == doc.replace(
        "string) string\n\n", "string) string\n\n\t// CallerShortFile reports only the base name\n"
                              "\tCallerShortFile bool\n\n")


def test_a_constant_goes_right_after_the_statement_the_prose_names_in_a_tight_group():
    doc = "local _M = {}\n-- timeout\n_M.TIMEOUT = 60\n-- user agent\n_M.USERAGENT = 'x'\n\nlocal SCHEMES = {}\n\n" \
          "return _M\n"
    answer = "Put it at the top, right after `_M.USERAGENT`:\n\n```lua\n-- codes we follow\n" \
             "local CODES = {\n    [301] = true, [308] = true\n}\n```\n"
    assert merged(doc, answer, "lua", "http.lua") == doc.replace(
        "_M.USERAGENT = 'x'\n", "_M.USERAGENT = 'x'\n-- codes we follow\nlocal CODES = {\n    [301] = true, [308] = true\n}\n")


JAVA = """package x;

public abstract class Receiver {

    private final Manager mManager;

    static String getSubnet(int mask) {
        return "";
    }

    public void update() {
        mManager.go();
    }
}
"""


def test_a_helper_under_a_block_with_no_prose_goes_where_the_prose_above_both_says():
    answer = """Add a constant at the top of the class, plus a helper below `getSubnet`:

```java
public abstract class Receiver {

    private static final int LIMIT = 3;

    private final Manager mManager;
    // ... rest unchanged ...
```

```java
    private static boolean isCandidate(int n) {
        return n < LIMIT;
    }
```
"""
    want = JAVA.replace("{\n\n    private final", "{\n\n    private static final int LIMIT = 3;\n\n    private final") \
        .replace('return "";\n    }\n', 'return "";\n    }\n\n    private static boolean isCandidate(int n) {\n'
                 '        return n < LIMIT;\n    }\n')
    assert merged(JAVA, answer, "java", "x/Receiver.java") == want


RUBY = """class Request
  def execute
    run
  end

  private

  def parse_url_with_auth!(url)
    url
  end

  def run
    1
  end
end
"""


def test_a_ruby_name_with_a_bang_is_a_place_the_prose_gives():
    answer = "Put it in the `private` section, right after `parse_url_with_auth!`:\n\n```ruby\n" \
             "    def unescape(value)\n      value && URI.decode(value)\n    end\n```\n"
    assert merged(RUBY, answer, "ruby", "lib/request.rb") == RUBY.replace(
        "    url\n  end\n", "    url\n  end\n\n  def unescape(value)\n    value && URI.decode(value)\n  end\n")


RUST = """pub struct Set {
    mask: u32,
}

impl Set {
    pub const fn add(&self, b: u8) -> Self {
        Set { mask: self.mask | 1 << b }
    }

    pub const fn remove(&self, b: u8) -> Self {
        Set { mask: self.mask & !(1 << b) }
    }
}

pub struct Encode<'a> {
    bytes: &'a [u8],
}

impl<'a> fmt::Display for Encode<'a> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("x")
    }
}

pub fn encode(b: &[u8]) -> Encode<'_> {
    Encode { bytes: b }
}
"""


@pytest.mark.parametrize("prose, block, after", [
    ("Add a `union` method next to `add`/`remove`:",
     "    pub const fn union(&self, o: &Set) -> Self {\n        Set { mask: self.mask | o.mask }\n    }\n",
     "        Set { mask: self.mask & !(1 << b) }\n    }\n"),
    ("Put this right after the `impl fmt::Display for Encode` block:",
     "impl<'a> fmt::Debug for Encode<'a> {\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
     "        f.write_str(\"e\")\n    }\n}\n",
     "        f.write_str(\"x\")\n    }\n}\n"),
])
def test_the_last_of_names_joined_by_a_slash_and_an_impl_s_header_are_places(prose, block, after):
    got = merged(RUST, f"{prose}\n\n```rust\n{block}```\n", "rust", "src/lib.rs")
    assert got == RUST.replace(after, after + "\n" + block)


def test_the_paragraph_right_above_a_block_gives_its_place_and_a_before_after_pair_is_one_place():
    doc = "static int a(void) {\n    return 1;\n}\n\nstatic void backref(void) {\n}\n\nstatic void render(void) {\n" \
          "    backref();\n}\n"
    answer = "The attributes go in after `href` and before `render`'s closing.\n\n" \
             "First add a helper above `render()` (right after `backref()` is fine):\n\n" \
             "```c\nstatic int external(void) {\n    return 0;\n}\n```\n"
    assert merged(doc, answer, "c", "html.c") == doc.replace(
        "static void backref(void) {\n}\n", "static void backref(void) {\n}\n\nstatic int external(void) {\n"
                                           "    return 0;\n}\n")


def test_an_include_the_prose_names_is_the_block_s_import_not_a_file_it_is_for():
    doc = '#include "houdini.h"\n#include "html.h"\n\nint f(void) {\n    return 0;\n}\n'
    answer = 'Include `utf8.h`. `html.c` does not pull it in yet:\n\n```c\n#include "houdini.h"\n#include "utf8.h"\n' \
             '#include "html.h"\n```\n'
    assert merged(doc, answer, "c", "src/html.c") == doc.replace('"houdini.h"\n', '"houdini.h"\n#include "utf8.h"\n')


TS = """export function fetchBaseQuery(responseHandler: string) {
  if (responseHandler === 'json') {
    return 1
  }
  return 0
}
"""


@pytest.mark.parametrize("usage", [
    "getUsers: builder.query<User[], number>({\n  query: (id) => ({ url: 'users', params: { id } }),\n}),\n",
    "<Stack.Screen\n  name=\"Details\"\n  options={{ gestureEnabled: true }}\n/>\n",
])
def test_an_entry_or_an_element_of_something_the_file_does_not_know_is_a_usage_example(usage):
    answer = "```ts\nexport function fetchBaseQuery(responseHandler: string) {\n  if (responseHandler === 'blob') {\n" \
             "    return 2\n  }\n  if (responseHandler === 'json') {\n    return 1\n  }\n  return 0\n}\n```\n\n" \
             f"Then an endpoint can use it:\n\n```ts\n{usage}```\n"
    r = apply(EditRequest(TS, block=answer, language="typescript", path="src/fetchBaseQuery.ts"))
    assert r.text == TS.replace("  if (responseHandler === 'json')",
                                "  if (responseHandler === 'blob') {\n    return 2\n  }\n  if (responseHandler === 'json')")
    assert len(r.left_out) == 1 and "usage example" in r.left_out[0]


def test_an_indented_fragment_holding_a_line_of_the_file_is_the_file_s_code_not_an_example():
    doc = "function get(value, parser) {\n  if (parser) {\n    if (isRegExp(parser)) {\n" \
          "      return parser.exec(value);\n    }\n\n    throw new TypeError('parser must be regexp');\n  }\n}\n"
    answer = "Add the string case before the error:\n\n```js\n    if (isRegExp(parser)) {\n" \
             "      return parser.exec(value);\n    }\n\n    if (isString(parser)) {\n" \
             "      return getParameter(value, parser);\n    }\n\n" \
             "    throw new TypeError('parser must be regexp|string');\n```\n"
    assert merged(doc, answer, "javascript", "lib/h.js") == doc.replace(
        "    throw new TypeError('parser must be regexp');",
        "    if (isString(parser)) {\n      return getParameter(value, parser);\n    }\n\n"
        "    throw new TypeError('parser must be regexp|string');")


def test_a_split_that_leaves_a_value_of_the_file_s_case_to_no_branch_is_refused():
    with pytest.raises(IncompleteEdit) as e:  # PanicLevel would go to `default`, which no one asked
        apply(EditRequest(GO, block="```go\n\tcase ErrorLevel:\n\t\tc = red\n\tcase FatalLevel:\n\t\tc = 35\n```\n",
                          language="go", path="log.go"))
    assert "drops `PanicLevel`" in str(e.value) and "nothing was written" in str(e.value)


PYTHON = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
HELPER = "def d():\n    return 4\n"


def test_a_new_definition_among_many_goes_at_the_end_only_when_the_prose_says_so():
    answer = f"Add this at the bottom of the file:\n\n```python\n{HELPER}```\n"
    assert merged(PYTHON, answer, "python", "m.py") == PYTHON + "\n\n" + HELPER
    with pytest.raises(MergeError) as e:  # no word of where: one place of many, not the end by default
        merged(PYTHON, f"```python\n{HELPER}```\n", "python", "m.py")
    assert "`d` is new and the answer does not say where it goes among the 3 definitions of the file" in str(e.value)
    at_b = apply(EditRequest(PYTHON, block=f"```python\n{HELPER}```\n", language="python", path="m.py", at=6))
    assert at_b.text == PYTHON.replace("return 2\n", "return 2\n\n\n" + HELPER)  # the cursor's line says where


def test_a_rewritten_last_line_of_a_statement_written_over_several_replaces_the_file_s():
    doc = "function url(params, serialize) {\n  const query = serialize\n    ? serialize(params)\n" \
          "    : new URLSearchParams(params).toString()\n  return query\n}\n"
    answer = "Replace it with:\n\n```ts\n  const query = serialize\n    ? serialize(params)\n" \
             "    : defaultSerializer(params)\n```\n"
    assert merged(doc, answer, "typescript", "src/url.ts") == doc.replace(
        "new URLSearchParams(params).toString()", "defaultSerializer(params)")


def test_a_type_the_prose_names_is_its_declaration_not_its_impls_and_a_new_impl_brings_its_own_fmt():
    doc = "pub struct Decode<'a> {\n    bytes: &'a [u8],\n}\n\nimpl<'a> Decode<'a> {\n    pub fn len(&self) -> usize {\n" \
          "        self.bytes.len()\n    }\n}\n\nimpl<'a> fmt::Display for Decode<'a> {\n" \
          "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        f.write_str(\"d\")\n    }\n}\n"
    new = "pub struct Invalid {\n    pub position: usize,\n}\n\nimpl fmt::Display for Invalid {\n" \
          "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        write!(f, \"at {}\", self.position)\n" \
          "    }\n}\n"
    answer = f"Put this right after the `Decode` struct:\n\n```rust\n{new}```\n"
    assert merged(doc, answer, "rust", "src/lib.rs") == doc.replace("    bytes: &'a [u8],\n}\n",
                                                                    "    bytes: &'a [u8],\n}\n\n" + new)


LUA = """local mtype = math.type

local function show(value)
    if type(value) ~= "number" then
        return tostring(value)
    elseif (_VERSION ~= "Lua 5.3" or mtype(value) == "integer") and value % 1 == 0 then
        return ("%d"):format(value)
    end
    return ("%.14g"):format(value)
end

return show
"""


def test_part_of_a_line_quoted_before_its_rewrite_is_a_quote_and_a_path_heading_says_whose_block_it_is():
    fixed = LUA.replace('(_VERSION ~= "Lua 5.3" or mtype(value) == "integer")', '(not mtype or mtype(value) == "integer")')
    function = fixed[fixed.index("local function"):fixed.index("\nreturn show")]
    answer = f"""It decides whether a number is an integer with:

```lua
(_VERSION ~= "Lua 5.3" or mtype(value) == "integer") and value % 1 == 0
```

which is wrong on 5.4. So:

```lua
{function}```

### `spec/show_spec.lua`

A test for it:

```lua
assert(show(1.0) == "1.0")
```
"""
    r = apply(EditRequest(LUA, block=answer, language="lua", path="show.lua"))
    assert r.text == fixed and len(r.left_out) == 2
    assert "quote" in r.left_out[0] and "for spec/show_spec.lua" in r.left_out[1]
