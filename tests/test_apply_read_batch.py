"""engine/apply.py on shapes chats wrote for real files, each in a small file of its own: new `case` arms that a
marker follows (the file's arms stay), new lines a marker follows that are no edit of the file's next lines, a
shell `case` grown by two arms, a bare `...` under an `elif`, a TypeScript method with overload signatures
whose body repeats lines of the method before it, a class whose header gains an interface, a block the prose
says is for another file, a constant that comes with a new helper, a new class the prose puts after one inside
a namespace, Rust attributes shown without the doc comments above them, and a `.h` file of C++. Each merged
result is compared with the file a developer means, byte for byte."""
import pytest

from copy_as_decode.bench.apply_bench import request
from copy_as_decode.cases.chat_written import load
from copy_as_decode.core.detect_language import of_file
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest


def merged(document: str, answer: str, language: str, path: str | None = None) -> str:
    return apply(EditRequest(document, block=answer, language=language, path=path)).text


JS = """function escaped(json) {
  return json.replace(/[<>&]/g, function (c) {
    switch (c.charCodeAt(0)) {
      case 0x3c:
        return '\\\\u003c'
      case 0x26:
        return '\\\\u0026'
      /* istanbul ignore next: unreachable default */
      default:
        return c
    }
  })
}
"""


def test_new_cases_after_a_marker_for_the_file_s_cases_go_after_them_and_replace_none():
    answer = """Give the two separators cases of their own:

```js
function escaped(json) {
  return json.replace(/[<>&\\u2028]/g, function (c) {
    switch (c.charCodeAt(0)) {
      // ... existing 0x3c / 0x26 cases stay as they are ...
      case 0x2028:
        return '\\\\u2028'
      /* istanbul ignore next: unreachable default */
      default:
        return c
    }
  })
}
```
"""
    want = JS.replace("[<>&]", "[<>&\\u2028]").replace("        return '\\\\u0026'\n", "        return '\\\\u0026'\n"
                                                        "      case 0x2028:\n        return '\\\\u2028'\n")
    assert merged(JS, answer, "javascript") == want


RUST = """fn code(c: u8) -> u8 {
    match c {
        0 => 30,
        n => n,
    }
}

#[cfg(test)]
mod test {
    test!(fixed:        Fixed(100);          "hi" => "\\x1B[38;5;100mhi\\x1B[0m");
    test!(fixed_on:     Fixed(100).on(Red);  "hi" => "\\x1B[41;38;5;100mhi\\x1B[0m");
    test!(rgb:          RGB(70,130,180);     "hi" => "\\x1B[38;2;70;130;180mhi\\x1B[0m");
    test!(rgb_on_blue:  RGB(70,130,180).on(Blue); "hi" => "\\x1B[44;38;2;70;130;180mhi\\x1B[0m");
}
"""


def test_new_lines_a_marker_follows_are_added_not_edits_of_the_file_s_next_lines():
    answer = """Add tests next to the fixed ones:

```rust
    test!(fixed_on:     Fixed(100).on(Red);  "hi" => "\\x1B[41;38;5;100mhi\\x1B[0m");
    test!(fixed_low:    Fixed(1);            "hi" => "\\x1B[31mhi\\x1B[0m");
    test!(fixed_bright: Fixed(9);            "hi" => "\\x1B[91mhi\\x1B[0m");
    // ... rgb tests unchanged ...
```
"""
    at = '    test!(rgb:'
    want = RUST.replace(at, '    test!(fixed_low:    Fixed(1);            "hi" => "\\x1B[31mhi\\x1B[0m");\n'
                            '    test!(fixed_bright: Fixed(9);            "hi" => "\\x1B[91mhi\\x1B[0m");\n' + at)
    assert merged(RUST, answer, "rust") == want


BASH = """_complete() {
  case "${prev}" in
  --tiebreak)
    COMPREPLY=( $(compgen -W "length begin" -- "$cur") )
    return 0
    ;;
  --color)
    COMPREPLY=( $(compgen -W "dark light" -- "$cur") )
    return 0
    ;;
  esac
  return 0
}
"""


def test_shell_case_arms_added_before_a_marker_keep_the_file_s_arms():
    answer = """```bash
  case "${prev}" in
  --tiebreak)
    COMPREPLY=( $(compgen -W "length begin" -- "$cur") )
    return 0
    ;;
  --algo)
    COMPREPLY=( $(compgen -W "v1 v2" -- "$cur") )
    return 0
    ;;
  # ... the --color arm stays as it is ...
  esac
```
"""
    want = BASH.replace("  --color)", '  --algo)\n    COMPREPLY=( $(compgen -W "v1 v2" -- "$cur") )\n    return 0\n'
                                      "    ;;\n  --color)")
    assert merged(BASH, answer, "bash") == want


PY = """def loads(src):
    for char in src:
        if char.isalpha():
            key(char)
        elif char == "[":
            table(char)
            skip(char)
        elif char != "#":
            raise ValueError("Invalid statement")
    return src
"""


def test_a_bare_ellipsis_under_an_elif_stands_for_the_branch_s_body():
    answer = """```python
        if char.isalpha():
            key(char)
        elif char == "[":
            ...
        elif char == "=":
            raise ValueError("Missing key")
        elif char != "#":
            raise ValueError("Invalid statement")
```
"""
    want = PY.replace('        elif char != "#":', '        elif char == "=":\n            raise ValueError('
                                                     '"Missing key")\n        elif char != "#":')
    assert merged(PY, answer, "python") == want


TS = """export class Issues {
  issues: string[] = [];

  flatten(): string[];
  flatten(mapper?: (s: string) => string): string[] {
    const out: string[] = [];
    for (const sub of this.issues) {
      if (sub.length > 0) {
        out.push(mapper ? mapper(sub) : sub);
      }
    }
    return out;
  }

  get count() {
    return this.issues.length;
  }
}
"""


def test_a_new_method_with_overload_signatures_goes_whole_though_its_body_repeats_the_one_before():
    answer = """Add a sibling right after `flatten()`:

```ts
export class Issues {
  // ... everything up to and including flatten() stays unchanged ...

  flattenAll(): string[];
  flattenAll(mapper?: (s: string) => string): string[] {
    const out: string[] = [];
    for (const sub of this.issues) {
      if (sub.length > 0) {
        out.push(mapper ? mapper(sub) : sub.trim());
      }
    }
    return out;
  }

  get count() {
    return this.issues.length;
  }
}
```
"""
    method = TS[TS.index("  flatten():"):TS.index("\n  get count")]
    new = method.replace("flatten(", "flattenAll(").replace("mapper(sub) : sub", "mapper(sub) : sub.trim()")
    want = TS.replace(method, method + "\n" + new)
    assert merged(TS, answer, "typescript") == want


TS_CLASS = """import { Countable, Store } from './store';

export class Data implements Store {
  private data: Record<string, unknown> = {};

  export(): Record<string, unknown> {
    return this.data;
  }

  has(key: string): boolean {
    return key in this.data;
  }
}
"""


def test_a_class_header_the_block_adds_an_interface_to_takes_the_file_s_with_the_new_method():
    answer = """```ts
export class Data implements Store, Countable {
  // ... existing members ...

  export(): Record<string, unknown> {
    return this.data;
  }

  count(): number {
    return Object.keys(this.data).length;
  }

  // ... has() and the rest unchanged ...
}
```
"""
    want = TS_CLASS.replace("implements Store {", "implements Store, Countable {").replace(
        "    return this.data;\n  }\n", "    return this.data;\n  }\n\n  count(): number {\n"
                                      "    return Object.keys(this.data).length;\n  }\n")
    assert merged(TS_CLASS, answer, "typescript") == want


JAVA = """class Provider {
    String byRawId(String id) {
        Cursor c = resolver.query(id);
        String found = c.getString(0);
        c.close();
        return found;
    }
}
"""


def test_a_block_the_prose_says_is_for_a_separate_file_is_left_out():
    answer = """Close the cursor in a `finally`:

```java
    String byRawId(String id) {
        Cursor c = resolver.query(id);
        try {
            return c.getString(0);
        } finally {
            c.close();
        }
    }
```

In `Manager.add` (a separate file, shown only for context) you could reject instead:

```java
                String added = provider.byRawId(rawId);
                if (added == null) {
                    promise.reject("E_NOT_FOUND", "not found");
                    return;
                }
```
"""
    result = apply(EditRequest(JAVA, block=answer, language="java"))
    assert result.text == JAVA.replace("""        String found = c.getString(0);
        c.close();
        return found;
""", """        try {
            return c.getString(0);
        } finally {
            c.close();
        }
""")
    assert len(result.left_out) == 1 and "for another file, as the prose above it says" in result.left_out[0]


KOTLIN = """object Impl {
    @JvmStatic
    fun setLoop(loop: Boolean?) {
        manager.loop = loop
    }

    @JvmStatic
    fun setSourceName(name: String?) {
        var result = name
        if (result?.contains(".") == false) {
            result = "$result.json"
        }
        manager.name = result
    }
}
"""


def test_a_constant_shown_above_a_new_helper_goes_with_it_where_the_prose_puts_it():
    answer = """Add a small helper right above `setSourceName`:

```kotlin
    private val EXTENSIONS = setOf("json", "zip")

    private fun hasExtension(name: String): Boolean {
        return name.substringAfterLast('.', "") in EXTENSIONS
    }
```
"""
    want = KOTLIN.replace("    @JvmStatic\n    fun setSourceName", """    private val EXTENSIONS = setOf("json", "zip")

    private fun hasExtension(name: String): Boolean {
        return name.substringAfterLast('.', "") in EXTENSIONS
    }

    @JvmStatic
    fun setSourceName""")
    assert merged(KOTLIN, answer, "kotlin") == want


HEADER = """#pragma once

namespace details {

// day of month
template<typename Padder>
class d_formatter final : public flag_formatter
{
public:
    explicit d_formatter(padding_info padinfo)
        : flag_formatter(padinfo)
    {}
};

// Day of month, upper case
template<typename Padder>
class D_formatter final : public flag_formatter
{
public:
    explicit D_formatter(padding_info padinfo)
        : flag_formatter(padinfo)
    {}
};

} // namespace details
"""


def test_a_dot_h_file_of_cpp_is_read_as_cpp_and_a_new_class_goes_after_the_one_the_prose_names():
    assert of_file("include/pattern_formatter-inl.h", HEADER) == "cpp"
    assert of_file("zlib.h", "#ifndef Z_H\n#define Z_H\nint deflate(int level);\n#endif\n") == "c"
    answer = """Put it right after `d_formatter`:

```cpp
// day of year
template<typename Padder>
class j_formatter final : public flag_formatter
{
public:
    explicit j_formatter(padding_info padinfo)
        : flag_formatter(padinfo)
    {}
};
```
"""
    result = apply(EditRequest(HEADER, block=answer, language=of_file("pattern_formatter-inl.h", HEADER),
                               path="pattern_formatter-inl.h"))
    j = HEADER[HEADER.index("// day of month"):HEADER.index("// Day of month")].replace("d_formatter", "j_formatter") \
        .replace("// day of month", "// day of year")
    assert result.text == HEADER.replace("// Day of month", j + "// Day of month")


RUST_STRUCTS = """use crate::style::Style;

/// Like `ANSIString`, but only displays the style prefix.
///
/// For examples, see [`Style::prefix`].
#[derive(Clone, Copy, Debug)]
pub struct Prefix(Style);

/// Like `ANSIString`, but only displays the style suffix.
#[derive(Clone, Copy, Debug)]
pub struct Suffix(Style);
"""


def test_rust_attributes_shown_alone_keep_the_doc_comments_and_a_test_of_the_crate_from_outside_is_left_out():
    answer = """Derive it on both wrappers:

```rust
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prefix(Style);

// ...

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Suffix(Style);
```

Then in your own crate's tests:

```rust
use ansi_term::Prefix;

#[test]
fn prefix_matches() {
    assert_eq!(Style::new().prefix(), Prefix(Style::new()));
}
```
"""
    result = apply(EditRequest(RUST_STRUCTS, block=answer, language="rust", path="src/ansi.rs"))
    assert result.text == RUST_STRUCTS.replace("Debug)]", "Debug, PartialEq)]")
    assert len(result.left_out) == 1 and "it imports what the file defines" in result.left_out[0]


RUST_IMPL = """impl<L, R> Error for Either<L, R>
where
    L: Error,
    R: Error,
{
    #[allow(deprecated)]
    fn description(&self) -> &str {
        either!(*self, ref inner => inner.description())
    }

    #[allow(deprecated)]
    fn cause(&self) -> Option<&Error> {
        either!(*self, ref inner => inner.cause())
    }
}
"""


def test_an_impl_the_prose_says_the_block_replaces_is_replaced_whole_and_its_dropped_method_goes():
    answer = """Here's the updated impl (replace the existing `impl<L, R> Error for Either<L, R>` block):

```rust
impl<L, R> Error for Either<L, R>
where
    L: Error,
    R: Error,
{
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        either!(*self, ref inner => inner.source())
    }

    #[allow(deprecated)]
    fn description(&self) -> &str {
        either!(*self, ref inner => inner.description())
    }
}
```
"""
    want = RUST_IMPL[:RUST_IMPL.index("    #[allow")] + """    fn source(&self) -> Option<&(dyn Error + 'static)> {
        either!(*self, ref inner => inner.source())
    }

    #[allow(deprecated)]
    fn description(&self) -> &str {
        either!(*self, ref inner => inner.description())
    }
}
"""
    assert merged(RUST_IMPL, answer, "rust") == want


def test_a_usage_comment_that_ends_in_a_variadic_argument_is_the_code_s_not_a_marker():
    script = "#!/bin/bash\n\nup() {\n\tip link add \"$1\"\n}\n"
    answer = """Put it above `up`:

```bash
# Usage: del_rules PROTO MATCH DELETE-ARGS...
del_rules() {
\tip "$1" rule delete "${@:3}"
}
```
"""
    want = script.replace("up() {", "# Usage: del_rules PROTO MATCH DELETE-ARGS...\ndel_rules() {\n"
                                    "\tip \"$1\" rule delete \"${@:3}\"\n}\n\nup() {")
    assert merged(script, answer, "bash") == want


PHP_SWITCH = """<?php
class Builder
{
    public function startTag($name)
    {
        switch ($name) {
            case 'body':
                $this->mode = static::IM_IN_BODY;
                break;
            case 'svg':
                $this->mode = static::IM_IN_SVG;
                break;
            case 'math':
                $this->mode = static::IM_IN_MATHML;
                break;
        }
    }

    public function endTag($name)
    {
        switch ($name) {
            case 'body':
                $this->mode = static::IM_AFTER_BODY;
                break;
            case 'svg':
            case 'mathml':
                $this->mode = static::IM_IN_BODY;
                break;
        }
    }
}
"""


def test_a_fragment_goes_into_the_function_the_prose_names_though_a_line_of_it_stands_once_elsewhere():
    answer = """Fix the case label in `endTag()`:

```php
        switch ($name) {
            // ... the 'body' case unchanged ...
            case 'svg':
            case 'math':
                $this->mode = static::IM_IN_BODY;
                break;
        }
```
"""
    assert merged(PHP_SWITCH, answer, "php") == PHP_SWITCH.replace("case 'mathml':", "case 'math':")


C_LEXER = """/**
# Consume all text until the end of the line
*/
static void lex_until_newline(const char *&c, std::string &text,
                              unsigned &blanks)
{
    while (*c != '\\n')
        text += *c++;
}

static int check(const char *a)
{
    return a[0] == ' ';
}
"""


def test_a_header_shown_alone_under_a_new_comment_changes_the_comment_and_keeps_the_body():
    answer = """Fix the comments:

```cpp
/** Consume all text until the end of the line.
 *
 * text receives the rest of the line.
 */
static void lex_until_newline(const char *&c, std::string &text,
                              unsigned &blanks)
```

```cpp
/** Whether a starts with a space. */
static int check(const char *a) {
```
"""
    want = C_LEXER.replace("/**\n# Consume all text until the end of the line\n*/\n", "/** Consume all text until "
                           "the end of the line.\n *\n * text receives the rest of the line.\n */\n").replace(
        "\nstatic int check", "\n/** Whether a starts with a space. */\nstatic int check")
    assert merged(C_LEXER, answer, "cpp") == want


GO = """package version

import (
	"fmt"
	"regexp"
)

var (
	versionRegexp *regexp.Regexp
)

// Version represents a single version.
type Version struct {
	original string
}

func init() {
	versionRegexp = regexp.MustCompile("^v?[0-9]+$")
}

func (v *Version) String() string {
	return fmt.Sprint(v.original)
}
"""


def test_a_new_var_group_goes_where_the_prose_puts_it_not_into_the_file_s_var_group():
    answer = """Add compile-time checks right after the `Version` struct:

```go
// Version represents a single version.
type Version struct {
	original string
}

var (
	_ fmt.Stringer = (*Version)(nil)
)
```
"""
    want = GO.replace("\toriginal string\n}\n", "\toriginal string\n}\n\nvar (\n\t_ fmt.Stringer = (*Version)(nil)\n)\n")
    assert merged(GO, answer, "go") == want


@pytest.mark.parametrize("case_id", ["php-html5-dom-tree-builder/1", "cpp-jsonnet-lexer/3", "go-go-version-version/2",
                                     "rust-either-lib/1", "rust-either-lib/2", "bash-wg-quick/3", "rust-ansi-term-ansi/1",
                                     "javascript-express-response/2", "cpp-spdlog-pattern-formatter/2",
                                     "swift-react-native-iap-helper/3"])
def test_the_written_answers_these_shapes_come_from_merge_exactly(case_id):
    """The real answers (cases/chat_written.py), applied as the command line applies them: the file meant."""
    case = next(c for c in load() if c["id"] == case_id)
    assert apply(request(case)).text == case["after"]
