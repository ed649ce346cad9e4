"""engine/apply.py on the branches, statements and places chats show in part: a `case` or `when` arm told by its
label (a new one beside the file's, a changed one in place of the file's whole arm), a one-line statement in
place of one the file writes over several lines, a new definition where the prose puts it (after a constant,
next to a test, after an `impl` it names), and what the guarantee refuses. Each merged result is compared with
the file a developer means, byte for byte."""
import pytest

from copy_as_decode.core.block_merge import MergeError
from copy_as_decode.core.contract import IncompleteEdit
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest


def merged(document: str, answer: str, language: str, path: str | None = None) -> str:
    return apply(EditRequest(document, block=answer, language=language, path=path)).text


JAVA = """class Ops {
    static int intOp(int operand, int kind) {
        switch (kind) {
            case PLUS:
                return operand;
            case MINUS:
                return -operand;
            case INCR:
                return operand + 1;
            default:
                throw new IllegalStateException("bad int op");
        }
    }

    static long longOp(long operand, int kind) {
        switch (kind) {
            case PLUS:
                return operand;
            case MINUS:
                return -operand;
            case INCR:
                return operand + 1;
            default:
                throw new IllegalStateException("bad long op");
        }
    }

    static float floatOp(float operand, int kind) {
        switch (kind) {
            case PLUS:
                return operand;
            case MINUS:
                return -operand;
            default:
                throw new IllegalStateException("bad float op");
        }
    }
}
"""


def test_a_new_case_goes_beside_the_file_s_and_edits_none_of_their_lines():
    answer = """`floatOp` lacks the increment:

```java
        switch (kind) {
            // ... PLUS / MINUS unchanged ...
            case INCR:
                return operand + 1;
            default:
                throw new IllegalStateException("bad float op");
        }
```
"""
    want = JAVA.replace("""                return -operand;
            default:
                throw new IllegalStateException("bad float op");""", """                return -operand;
            case INCR:
                return operand + 1;
            default:
                throw new IllegalStateException("bad float op");""")
    assert merged(JAVA, answer, "java") == want
    # where one other switch has the new case's lines, the block's lines point two ways: refused, never the
    # other switch's `throw` rewritten
    one = JAVA[:JAVA.index("    static long longOp")] + JAVA[JAVA.index("    static float floatOp"):]
    with pytest.raises(MergeError, match="not certain"):
        merged(one, answer, "java")


SWIFT = """final class Session {
    func handle(type: Kind) {
        switch type {
        case .began:
            // nothing to do: players pause on their own
            break

        case .ended:
            resume()

        @unknown default:
            break
        }
    }
}
"""


def test_a_changed_case_replaces_the_file_s_whole_arm_so_its_old_break_goes():
    answer = """```swift
    func handle(type: Kind) {
        switch type {
        case .began:
            active = false

        // ... case .ended and @unknown default unchanged ...
        }
    }
```
"""
    want = SWIFT.replace("""            // nothing to do: players pause on their own
            break
""", """            active = false
""")
    assert merged(SWIFT, answer, "swift") == want


KOTLIN = """fun params(type: Type?, isPayment: Boolean): Params {
  return when (type) {
    Type.Card -> cardParams()
    Type.Bank -> bankParams()

    null -> paymentParams()
    else -> {
      throw Exception("not supported")
    }
  }
}

fun put(map: Map, key: String, value: Any?) {
  when (value) {
    is String -> map.putString(key, value)
    is Long -> map.putLong(key, value)
    else -> throw IllegalArgumentException("no")
  }
}
"""


def test_an_arrow_arm_rewritten_over_several_lines_replaces_the_file_s_one_line_arm():
    answer = """```kotlin
fun params(type: Type?, isPayment: Boolean): Params {
  return when (type) {
    // ... other branches unchanged ...

    null ->
      if (isPayment) {
        paymentParams()
      } else {
        setupParams()
      }

    else -> {
      throw Exception("not supported")
    }
  }
}
```
"""
    want = KOTLIN.replace("""    null -> paymentParams()
""", """    null ->
      if (isPayment) {
        paymentParams()
      } else {
        setupParams()
      }

""")
    assert merged(KOTLIN, answer, "kotlin") == want


KT_WHEN = """internal fun String.toImageFileExtension(): String = when {
  this.endsWith("png", ignoreCase = true) -> ".png"
  this.endsWith("gif", ignoreCase = true) -> ".gif"
  this.endsWith("bmp", ignoreCase = true) -> ".bmp"
  this.endsWith("webp", ignoreCase = true) -> ".webp"
  !this.endsWith("jpeg", ignoreCase = true) -> {
    Log.w(TAG, "Unsupported type, falling back to JPEG.")
    ".jpeg"
  }
  else -> ".jpeg"
}
"""


def test_new_when_arms_whose_conditions_are_calls_go_beside_the_arms_a_marker_keeps():
    """A subjectless `when` arm's condition is a call with `name = value` arguments: still a label, so the new
    arms join the file's and the marker keeps `gif`, `bmp` and `webp`."""
    new_arms = ('  this.endsWith("heic", ignoreCase = true) -> ".heic"\n'
                '  this.endsWith("heif", ignoreCase = true) -> ".heif"\n')
    block = KT_WHEN.replace(KT_WHEN.split("\n")[2] + "\n" + KT_WHEN.split("\n")[3] + "\n" + KT_WHEN.split("\n")[4],
                            "  // ... gif / bmp / webp branches stay as they are ...\n" + new_arms.rstrip("\n"))
    answer = "Add HEIC/HEIF before the fallback:\n\n```kotlin\n" + block + "```\n"
    want = KT_WHEN.replace('-> ".webp"\n', '-> ".webp"\n' + new_arms)
    assert merged(KT_WHEN, answer, "kotlin") == want


def test_an_arm_shown_alone_between_markers_replaces_the_arm_of_its_label():
    answer = """```kotlin
fun put(map: Map, key: String, value: Any?) {
  when (value) {
    // ... other branches unchanged ...
    is Long -> {
      if (value in -9_007_199_254_740_991L..9_007_199_254_740_991L) map.putLong(key, value)
      else map.putString(key, value.toString())
    }
    // ... other branches unchanged ...
  }
}
```
"""
    want = KOTLIN.replace("""    is Long -> map.putLong(key, value)
""", """    is Long -> {
      if (value in -9_007_199_254_740_991L..9_007_199_254_740_991L) map.putLong(key, value)
      else map.putString(key, value.toString())
    }
""")
    assert merged(KOTLIN, answer, "kotlin") == want


BASH = """#!/bin/sh
GPG=gpg
GPG_NO_KEYRING="--keyring /dev/null"

for id in "$@"; do
\t# First try the debian.org address
\tUPLOADER=$($GPG \\
\t           --list-key --with-colons $id 2>/dev/null |
\t           awk -F: '/@debian\\.org/ { print $10; exit }' )

\t# Then any address
\tif [ -z "$UPLOADER" ]; then
\tUPLOADER=$($GPG \\
\t           --list-key --with-colons $id 2>/dev/null |
\t           awk -F: '/^uid/ { print $10; exit }' )
\tfi
\techo "$UPLOADER"
done
"""


def test_a_one_line_statement_replaces_the_file_s_statement_written_over_several_lines():
    answer = """Define the helper right after `GPG_NO_KEYRING`:

```bash
lookup() {
    $GPG --list-key --with-colons $1 2>/dev/null | awk -F: "$2"' { print $10; exit }'
}
```

Then the loop shrinks to:

```bash
\t# First try the debian.org address
\tUPLOADER=$(lookup "$id" '/@debian\\.org/')

\t# Then any address
\tif [ -z "$UPLOADER" ]; then
\t    UPLOADER=$(lookup "$id" '/^uid/')
\tfi
```
"""
    want = """#!/bin/sh
GPG=gpg
GPG_NO_KEYRING="--keyring /dev/null"

lookup() {
    $GPG --list-key --with-colons $1 2>/dev/null | awk -F: "$2"' { print $10; exit }'
}

for id in "$@"; do
\t# First try the debian.org address
\tUPLOADER=$(lookup "$id" '/@debian\\.org/')

\t# Then any address
\tif [ -z "$UPLOADER" ]; then
\t    UPLOADER=$(lookup "$id" '/^uid/')
\tfi
\techo "$UPLOADER"
done
"""
    assert merged(BASH, answer, "bash") == want


def test_a_new_branch_closed_by_a_fi_the_file_has_elsewhere_never_takes_the_place_of_the_next_branch():
    document = """if [ -z "$WANT_DATE" ]; then
\tWANT_DATE=no
fi
for f in *.dsc; do
\tVERSION=$(awk '/^Version/ { print $2; exit }' "$f")
\tDISTRO=$(awk '/^Distribution/ { print $2; exit }' "$f")
\tif [ "$WANT_DATE" = "yes" ]; then
\t    DATE=$(date -r "$f")
\tfi
\techo "$VERSION $DISTRO $DATE"
done
"""
    answer = """Skip other suites right after `DISTRO` is read:

```bash
\tVERSION=$(awk '/^Version/ { print $2; exit }' "$f")
\tDISTRO=$(awk '/^Distribution/ { print $2; exit }' "$f")
\tif [ -n "$WANT_DISTRO" ] && [ "$DISTRO" != "$WANT_DISTRO" ]; then
\t    continue
\tfi
```
"""
    with pytest.raises(IncompleteEdit, match="outside what the block changes"):
        merged(document, answer, "bash")  # the file's `if [ "$WANT_DATE" ... ]` replaced by the new branch


PYTHON = """import re
import sys

from .ansi import Style


winterm = None


def convert(text):
    return re.sub("x", "y", text)
"""


def test_code_shown_under_the_imports_keeps_the_file_s_two_blank_lines_below_it():
    answer = """```python
import logging
import re
import sys

from .ansi import Style

logger = logging.getLogger(__name__)
```

```python
def convert(text):
    logger.debug("converting %r", text)
    return re.sub("x", "y", text)
```
"""
    want = """import logging
import re
import sys

from .ansi import Style

logger = logging.getLogger(__name__)


winterm = None


def convert(text):
    logger.debug("converting %r", text)
    return re.sub("x", "y", text)
"""
    assert merged(PYTHON, answer, "python") == want


JS = """'use strict';

const GET_INFO = 0;
const GET_DATA = 1;
const DEFER_EVENT = 2;

class Receiver {
  check(length) {
    if (length > this.max) throw new RangeError('Max payload size exceeded');
  }
}

module.exports = Receiver;
"""


def test_a_helper_goes_after_the_constants_the_prose_names():
    answer = """Put it right after the state constants (`GET_INFO` … `DEFER_EVENT`):

```js
function tooBig(length, max) {
  return `Max payload size exceeded: ${length} > ${max}`;
}
```

And use it:

```js
  check(length) {
    if (length > this.max) throw new RangeError(tooBig(length, this.max));
  }
```
"""
    want = JS.replace("""const DEFER_EVENT = 2;
""", """const DEFER_EVENT = 2;

function tooBig(length, max) {
  return `Max payload size exceeded: ${length} > ${max}`;
}
""").replace("new RangeError('Max payload size exceeded')", "new RangeError(tooBig(length, this.max))")
    assert merged(JS, answer, "javascript") == want


RUST = """use std::ops::{Add, Mul};

pub struct Size(pub u64);

impl Size {
    pub fn b(n: u64) -> Size {
        Size(n)
    }
}

impl Add<Size> for Size {
    type Output = Size;
    fn add(self, rhs: Size) -> Size {
        Size(self.0 + rhs.0)
    }
}

impl Mul<u64> for Size {
    type Output = Size;
    fn mul(self, rhs: u64) -> Size {
        Size(self.0 * rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_add() {
        assert_eq!((Size::b(1) + Size::b(2)).0, 3);
    }

    #[test]
    fn test_mul() {
        assert_eq!((Size::b(2) * 3).0, 6);
    }
}
"""


def test_a_new_impl_of_another_trait_for_a_type_with_several_goes_after_the_impl_the_prose_names():
    answer = """Add it after the existing `Mul` impl:

```rust
impl Sub<Size> for Size {
    type Output = Size;
    fn sub(self, rhs: Size) -> Size {
        Size(self.0.saturating_sub(rhs.0))
    }
}
```
"""
    want = RUST.replace("""        Size(self.0 * rhs)
    }
}
""", """        Size(self.0 * rhs)
    }
}

impl Sub<Size> for Size {
    type Output = Size;
    fn sub(self, rhs: Size) -> Size {
        Size(self.0.saturating_sub(rhs.0))
    }
}
""")
    assert merged(RUST, answer, "rust") == want


def test_a_test_goes_next_to_the_test_the_prose_names():
    answer = """Here's a test you can drop into the `tests` module next to `test_add`:

```rust
    #[test]
    fn test_add_zero() {
        assert_eq!((Size::b(1) + Size::b(0)).0, 1);
    }
```
"""
    want = RUST.replace("""        assert_eq!((Size::b(1) + Size::b(2)).0, 3);
    }
""", """        assert_eq!((Size::b(1) + Size::b(2)).0, 3);
    }

    #[test]
    fn test_add_zero() {
        assert_eq!((Size::b(1) + Size::b(0)).0, 1);
    }
""")
    assert merged(RUST, answer, "rust") == want


PHP = """<?php

class Formatter
{
    /** @var int */
    protected $depth = 9;

    public function setDepth(int $depth): self
    {
        $this->depth = $depth;

        return $this;
    }

    /**
     * Pretty print.
     */
    public function setPretty(bool $enable): self
    {
        $this->pretty = $enable;

        return $this;
    }
}
"""


def test_a_class_shown_in_part_never_lets_a_method_it_does_not_show_change():
    """A method the block adds whose common lines (`/**`, `{`, `return $this;`) the file's next method has: a
    merge that wrote it over that method is refused, whatever placed it."""
    from copy_as_decode.engine.apply import guarantee
    block = """class Formatter
{
    // ... existing code ...

    public function setDepth(int $depth): self
    {
        $this->depth = $depth;

        return $this;
    }

    /**
     * The most frames kept.
     */
    public function setFrames(int $frames): self
    {
        $this->frames = $frames;

        return $this;
    }
"""
    over = PHP.replace("""     * Pretty print.
     */
    public function setPretty(bool $enable): self
    {
        $this->pretty = $enable;
""", """     * The most frames kept.
     */
    public function setFrames(int $frames): self
    {
        $this->frames = $frames;
""")
    assert "outside what the block changes" in guarantee(PHP, [block], over, "php", {"Formatter", "setDepth"})


CPP = """namespace kiwi {
namespace impl {

class SolverImpl {
public:
\tvoid suggestValue( const Variable& variable, double value )
\t{
\t\tm_edits[ variable ].constant = value;
\t}

\tvoid updateVariables()
\t{
\t}
};

} // namespace impl
} // namespace kiwi
"""


def test_the_same_new_method_shown_twice_is_merged_once_the_second_is_for_another_class():
    answer = """Add this right after `suggestValue` in `SolverImpl`:

```cpp
\tdouble suggestedValue( const Variable& variable ) const
\t{
\t\treturn m_edits.at( variable ).constant;
\t}
```

`kiwi::Solver` wraps it, so add the forwarding method there as well:

```cpp
\tdouble suggestedValue( const Variable& variable ) const
\t{
\t\treturn m_impl.suggestedValue( variable );
\t}
```

## Usage

```cpp
kiwi::Solver solver;
solver.suggestValue( width, 320.0 );
double previous = solver.suggestedValue( width );
```
"""
    result = apply(EditRequest(CPP, block=answer, language="cpp"))
    assert result.text == CPP.replace("""\t\tm_edits[ variable ].constant = value;
\t}
""", """\t\tm_edits[ variable ].constant = value;
\t}

\tdouble suggestedValue( const Variable& variable ) const
\t{
\t\treturn m_edits.at( variable ).constant;
\t}
""")
    assert any("again" in why for why in result.left_out) and any("example" in why for why in result.left_out)


def test_a_fragment_goes_into_the_function_the_prose_names_when_its_lines_are_everywhere():
    document = """class Manager {
    func configure() {
        do {
            try session.setCategory(.playback)
        } catch {
            print("Failed to configure")
        }
    }

    func activate() {
        do {
            try session.setActive(true)
        } catch {
            print("Failed to activate")
        }
    }
}
"""
    answer = """In `configure()`:

```swift
        do {
            // ... setCategory unchanged ...
        } catch {
            os_log("Failed to configure: %{public}@", log: log, type: .error, error.localizedDescription)
        }
```
"""
    want = document.replace('print("Failed to configure")',
                            'os_log("Failed to configure: %{public}@", log: log, type: .error, error.localizedDescription)')
    assert merged(document, answer, "swift") == want


def test_a_fragment_that_opens_with_new_lines_is_not_placed_by_the_function_the_prose_names():
    document = """function run() {
  // Delay
  sleep(delay)
    .then(() => pause())
    .then(() => run())
}

function other() {
  return sleep(1)
    .then(() => pause())
}
"""
    answer = """And in `run()`, replace the `sleep(delay)` call:

```ts
  // Delay, keeping hold of the timer
  new Promise((resolve) => { timer = setTimeout(resolve, delay) })
    .then(() => pause())
    // ... rest of the chain unchanged ...
```
"""
    with pytest.raises(MergeError):
        merged(document, answer, "typescript")


TSX = """import {
  DateValue,
  mergeProps,
  useCalendar,
  useLocale
} from 'react-aria';
import {ButtonContext} from './Button';

export function CalendarGrid(props: Props) {
  let {locale} = useLocale();
  return <table lang={locale} />;
}
"""


def test_an_import_of_one_of_the_file_s_names_keeps_the_others_and_an_app_using_the_file_is_left_out():
    answer = """```tsx
import {useLocale} from 'react-aria';

export function CalendarGrid(props: Props) {
  let {locale, direction} = useLocale();
  return <table lang={locale} dir={direction} />;
}
```

Usage:

```tsx
import {CalendarGrid} from 'react-aria-components';

function App() {
  return <CalendarGrid />;
}
```
"""
    result = apply(EditRequest(TSX, block=answer, language="tsx"))
    assert result.text == TSX.replace("let {locale} = useLocale();\n  return <table lang={locale} />;",
                                      "let {locale, direction} = useLocale();\n  return <table lang={locale} dir={direction} />;")
    assert len(result.left_out) == 1


def test_a_comment_line_that_goes_on_from_the_one_above_is_code_though_it_says_as_before():
    document = """local M = {}

function M.set_body(body)
\tlocal length
\tif type(body) == "string" then
\t\tlength = #body
\tend
\treturn length
end

return M
"""
    answer = """```lua
function M.set_body(body)
\tlocal length
\tif type(body) == "string" then
\t\tlength = #body
\telseif io.type(body) == "file" then
\t\t-- Files can be measured; pipes can't seek and fall
\t\t-- back to a body without content-length, as before.
\t\tlength = body:seek("end")
\tend
\treturn length
end
```
"""
    want = document.replace("""\t\tlength = #body
\tend""", """\t\tlength = #body
\telseif io.type(body) == "file" then
\t\t-- Files can be measured; pipes can't seek and fall
\t\t-- back to a body without content-length, as before.
\t\tlength = body:seek("end")
\tend""")
    assert merged(document, answer, "lua") == want


def test_top_level_assignments_a_script_shows_rewritten_replace_the_file_s():
    document = """#!/bin/sh
set -e

withecho () {
    echo "$@" >&2
}

pkg_re="$(echo $pkg | sed -e 's,+,\\\\+,')"
conf_re="$(echo $conf | sed -e 's,+,\\\\+,')"

grep -E "^$pkg_re" registry
"""
    answer = """Add a helper next to the other utility functions:

```sh
withecho () {
    echo "$@" >&2
}

quote_re () {
    printf '%s\\n' "$1" | sed -e 's/[][\\.|$(){}?+*^]/\\\\&/g'
}
```

and use it where the `_re` variables are set:

```sh
pkg_re="$(quote_re "$pkg")"
conf_re="$(quote_re "$conf")"
```
"""
    result = merged(document, answer, "bash")
    assert 'pkg_re="$(quote_re "$pkg")"\nconf_re="$(quote_re "$conf")"\n' in result
    assert "sed -e 's,+," not in result and result.count("quote_re () {") == 1


def test_the_block_the_prose_says_it_replaces_goes_with_the_comment_that_heads_it():
    document = """class Header {
    fun onUpdate() {
        // background
        toolbar.setBackgroundColor(color)

        // color
        if (tintColor != 0) {
            toolbar.navigationIcon?.colorFilter = filter(tintColor)
        }

        // subviews
        toolbar.removeAllViews()
    }
}
"""
    answer = """Then in `onUpdate()`, replace the `// color` block:

```kotlin
        // color
        toolbar.navigationIcon = tinted(toolbar.navigationIcon)
        toolbar.overflowIcon = tinted(toolbar.overflowIcon)
```
"""
    want = document.replace("""        if (tintColor != 0) {
            toolbar.navigationIcon?.colorFilter = filter(tintColor)
        }
""", """        toolbar.navigationIcon = tinted(toolbar.navigationIcon)
        toolbar.overflowIcon = tinted(toolbar.overflowIcon)
""")
    assert merged(document, answer, "kotlin") == want


def test_a_helper_method_goes_just_below_the_method_the_block_before_changed():
    document = """module Http
  class Request
    def auth_from(uri)
      @auth = { username: uri.user, password: uri.password }
    end

    def encode(text)
      text.to_s
    end
  end
end
"""
    answer = """```ruby
    def auth_from(uri)
      @auth = { username: unescape(uri.user), password: unescape(uri.password) }
    end
```

Then add the helper just below it:

```ruby
    def unescape(part)
      part && URI::DEFAULT_PARSER.unescape(part)
    end
```
"""
    want = document.replace("""      @auth = { username: uri.user, password: uri.password }
    end
""", """      @auth = { username: unescape(uri.user), password: unescape(uri.password) }
    end

    def unescape(part)
      part && URI::DEFAULT_PARSER.unescape(part)
    end
""")
    assert merged(document, answer, "ruby") == want


def test_a_lua_function_whose_place_no_one_says_is_refused_it_must_come_before_its_callers():
    document = """local M = {}

function M.put(v)
  return tostring(v)
end

return M
"""
    answer = """```lua
local function format_number(n)
  if n ~= n then return '0/0' end
  return tostring(n)
end
```
"""
    with pytest.raises(MergeError, match="before the code that calls it"):
        merged(document, answer, "lua")


def test_an_extension_of_a_type_is_a_new_declaration_not_the_type_s_enum():
    document = """enum CameraError {
  case device
  case unknown

  var message: String {
    switch self {
    case .device: return "device"
    case .unknown: return "unknown"
    }
  }
}
"""
    answer = """Add this at the bottom of the file:

```swift
extension CameraError: LocalizedError {
  var errorDescription: String? {
    return message
  }
}
```
"""
    assert merged(document, answer, "swift") == document + """
extension CameraError: LocalizedError {
  var errorDescription: String? {
    return message
  }
}
"""


def test_a_comment_set_apart_above_a_new_declaration_goes_with_it():
    document = """enum CameraError {
  case device
}

// MARK: - CodeScannerError

enum CodeScannerError {
  case notCompatible
}
"""
    answer = """Add this at the bottom of the file:

```swift
// MARK: - LocalizedError

extension CameraError: LocalizedError {
  var errorDescription: String? { "camera" }
}
```
"""
    assert merged(document, answer, "swift") == document + """
// MARK: - LocalizedError

extension CameraError: LocalizedError {
  var errorDescription: String? { "camera" }
}
"""


def test_a_guarded_include_is_one_import_and_a_helper_goes_below_the_fallback_define_the_prose_names():
    document = """#include "spt.h"

#include <string.h>

#ifndef ARG_MAX
#define ARG_MAX (96 * 1024)
#endif

static int find(char **ptr)
{
    return ptr - ARG_MAX;
}
"""
    answer = """First, the includes:

```c
#include "spt.h"

#include <string.h>
#ifndef _WIN32
#include <unistd.h>
#endif
```

Next, a helper just below the `ARG_MAX` fallback definition:

```c
static long get_arg_max(void)
{
    return ARG_MAX;
}
```

Finally:

```c
static int find(char **ptr)
{
    return ptr - get_arg_max();
}
```
"""
    want = """#include "spt.h"

#include <string.h>
#ifndef _WIN32
#include <unistd.h>
#endif

#ifndef ARG_MAX
#define ARG_MAX (96 * 1024)
#endif

static long get_arg_max(void)
{
    return ARG_MAX;
}

static int find(char **ptr)
{
    return ptr - get_arg_max();
}
"""
    assert merged(document, answer, "c") == want


def test_a_new_member_with_its_doc_comment_goes_between_the_file_s_documented_members():
    document = """export interface CellRenderProps {
  /**
   * Whether the cell is outside the current month.
   * @selector [data-outside-month]
   */
  isOutsideMonth: boolean,
  /**
   * Whether the cell is unavailable, according to the calendar's `isDateUnavailable` prop.
   * @selector [data-unavailable]
   */
  isUnavailable: boolean
}
"""
    answer = """```tsx
export interface CellRenderProps {
  // ... existing props ...
  /**
   * Whether the cell is outside the current month.
   * @selector [data-outside-month]
   */
  isOutsideMonth: boolean,
  /**
   * Whether the cell is today's date, in the calendar's time zone.
   * @selector [data-today]
   */
  isToday: boolean,
  // ... isUnavailable ...
}
```
"""
    want = document.replace("""  isOutsideMonth: boolean,
""", """  isOutsideMonth: boolean,
  /**
   * Whether the cell is today's date, in the calendar's time zone.
   * @selector [data-today]
   */
  isToday: boolean,
""")
    assert merged(document, answer, "tsx") == want


def test_a_class_shown_without_its_closing_brace_and_a_method_with_its_attribute_are_placed_in_the_file_s():
    document = """namespace RNFS
{
    class Manager : ModuleBase
    {
        private static readonly IReadOnlyDictionary<string, int> s_sizes =
            new Dictionary<string, int>
            {
                { "md5", 16 },
            };

        private readonly HttpClient _client = new HttpClient();

        [ReactMethod]
        public void hash(string algorithm, IPromise promise)
        {
            var size = default(int);
            if (!s_sizes.TryGetValue(algorithm, out size))
            {
                promise.Reject(null, "Invalid hash algorithm.");
                return;
            }

            promise.Resolve(size);
        }
    }
}
"""
    answer = """```csharp
    class Manager : ModuleBase
    {
        private static readonly IReadOnlyDictionary<string, int> s_sizes =
            new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase)
            {
                { "md5", 16 },
            };

        // ... other fields unchanged ...

        [ReactMethod]
        public void hash(string algorithm, IPromise promise)
        {
            var size = default(int);
            if (algorithm == null || !s_sizes.TryGetValue(algorithm.Replace("-", ""), out size))
            {
                promise.Reject(null, "Invalid hash algorithm.");
                return;
            }

            // ... rest of hash() unchanged ...
        }
```
"""
    want = document.replace("new Dictionary<string, int>\n",
                            "new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase)\n").replace(
        "if (!s_sizes.TryGetValue(algorithm, out size))",
        'if (algorithm == null || !s_sizes.TryGetValue(algorithm.Replace("-", ""), out size))')
    assert merged(document, answer, "csharp") == want


def test_a_fragment_whose_first_line_the_file_has_once_starts_there_whatever_the_like_lines_above():
    document = """static int process(reader *r) {
    if (read_type(r) == ERR) {
        set_error(r, PROTOCOL,
                "Bad type");
        return ERR;
    }
    if (to_int(p, len, &elements) == ERR) {
        set_error(r, PROTOCOL,
                "Bad multi-bulk length");
        return ERR;
    }
    return OK;
}
"""
    answer = """In `process()`:

```c
    if (to_int(p, len, &elements) == ERR) {
        set_error_fmt(r, PROTOCOL,
                "Bad multi-bulk length: '%.*s'", len > 32 ? 32 : len, p);
        return ERR;
    }
```
"""
    want = document.replace("""        set_error(r, PROTOCOL,
                "Bad multi-bulk length");""", """        set_error_fmt(r, PROTOCOL,
                "Bad multi-bulk length: '%.*s'", len > 32 ? 32 : len, p);""")
    assert merged(document, answer, "c") == want
