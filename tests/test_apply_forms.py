"""engine/apply.py on the forms a chat gives what it shows: spaces where the file indents with tabs (and the
imports of a C# namespace, indented in its body), a header whose parameters stand one per line with one of
them changed, a line the block moves within the method it shows beside a marker, a block that imports the
package the file is (its user), and a C docstring macro that a new method table entry names. Each merged result
is compared with the file a developer means, byte for byte, or the blocks read are checked."""
from copy_as_decode.engine.apply import apply
from copy_as_decode.engine.request import EditRequest


def merged(document: str, answer: str, language: str) -> str:
    return apply(EditRequest(document, block=answer, language=language)).text


CS = """// Demo.
namespace Samples {

\tusing System;
\tusing System.Collections;
\tusing System.Reflection;

\tpublic class Model
\t{
\t\tobject[] assemblies;

\t\tpublic Model ()
\t\t{
\t\t\tassemblies = AppDomain.CurrentDomain.GetAssemblies ();
\t\t}

\t\tpublic int Count ()
\t\t{
\t\t\treturn assemblies.Length;
\t\t}
\t}
}
"""


def test_a_block_indented_with_spaces_lands_in_the_file_s_tabs_with_its_using_among_the_namespace_s():
    answer = """Add LINQ to the usings of the namespace:

```csharp
    using System;
    using System.Collections;
    using System.Linq;
    using System.Reflection;
```

and sort in the constructor:

```csharp
        public Model ()
        {
            assemblies = AppDomain.CurrentDomain.GetAssemblies ()
                .OrderBy (a => a.GetName ().Name)
                .ToArray ();
        }
```
"""
    want = CS.replace("\tusing System.Collections;\n", "\tusing System.Collections;\n\tusing System.Linq;\n").replace(
        "GetAssemblies ();\n", "GetAssemblies ()\n\t\t\t\t.OrderBy (a => a.GetName ().Name)\n\t\t\t\t.ToArray ();\n")
    assert merged(CS, answer, "csharp") == want


TS = """export class Registry {
  addKeyword(
    kwdOrDef: string | KeywordDefinition,
    def?: KeywordDefinition // deprecated
  ): Registry {
    let keyword: string | string[]
    if (typeof kwdOrDef == "string") {
      keyword = kwdOrDef
    } else {
      throw new Error("invalid")
    }
    this.add(keyword)
    return this
  }
}
"""


def test_a_parameter_changed_in_a_header_written_over_several_lines_replaces_the_file_s():
    answer = """```ts
  addKeyword(
    kwdOrDef: string | string[] | KeywordDefinition,
    def?: KeywordDefinition // deprecated
  ): Registry {
    let keyword: string | string[]
    if (typeof kwdOrDef == "string") {
      keyword = kwdOrDef
    } else if (Array.isArray(kwdOrDef)) {
      keyword = kwdOrDef
    } else {
      throw new Error("invalid")
    }

    // ... rest of addKeyword unchanged ...
  }
```
"""
    want = TS.replace("kwdOrDef: string | KeywordDefinition,", "kwdOrDef: string | string[] | KeywordDefinition,") \
        .replace('    } else {\n', '    } else if (Array.isArray(kwdOrDef)) {\n      keyword = kwdOrDef\n    } else {\n')
    assert merged(TS, answer, "typescript") == want


PY = """import time


class Scheduler:
    def run_all(self, delay_seconds=0):
        for job in self.jobs[:]:
            self._run_job(job)
            time.sleep(delay_seconds)

    def clear(self):
        del self.jobs[:]

    def cancel(self, job):
        self.jobs.remove(job)
"""


def test_a_line_the_block_moves_within_its_method_is_not_one_the_marker_after_it_keeps():
    answer = """No delay after the last job:

```python
class Scheduler:
    # ... existing methods ...

    def run_all(self, delay_seconds=0):
        for index, job in enumerate(self.jobs[:]):
            if index > 0 and delay_seconds:
                time.sleep(delay_seconds)
            self._run_job(job)

    # ... rest of Scheduler unchanged ...
```
"""
    want = PY.replace("""        for job in self.jobs[:]:
            self._run_job(job)
            time.sleep(delay_seconds)
""", """        for index, job in enumerate(self.jobs[:]):
            if index > 0 and delay_seconds:
                time.sleep(delay_seconds)
            self._run_job(job)
""")
    assert merged(PY, answer, "python") == want


def test_a_block_that_imports_the_package_the_file_is_is_its_user_not_its_code():
    document = "import math\n\n\nclass Breaker:\n    def call(self, f):\n        return f()\n"
    answer = """Fix `call`:

```python
class Breaker:
    def call(self, f, *args):
        return f(*args)
```

and use it in your app:

```python
import pybreaker

breaker = pybreaker.Breaker()


def get_invoice(invoice_id):
    return breaker.call(fetch, invoice_id)
```
"""
    result = apply(EditRequest(document, block=answer, language="python", path="src/pybreaker/__init__.py"))
    assert result.text == document.replace("def call(self, f):\n        return f()", "def call(self, f, *args):\n"
                                           "        return f(*args)")
    assert any("imports the file itself" in why for why in result.left_out)


C_DOC = """#include <Python.h>

PyDoc_STRVAR(dec_process_doc, "Process.");

static PyObject* dec_process(PyObject* self) {
    Py_RETURN_NONE;
}

static PyMethodDef dec_methods[] = {
    {"process", (PyCFunction)dec_process, METH_NOARGS, dec_process_doc},
    {NULL}
};
"""


def test_a_c_docstring_macro_a_new_method_table_entry_names_is_merged_not_left_out():
    answer = """Add a docstring:

```c
PyDoc_STRVAR(dec_reset_doc,
"Reset the decoder.");
```

the function, after `dec_process`:

```c
static PyObject* dec_reset(PyObject* self) {
    Py_RETURN_NONE;
}
```

and the table entry:

```c
static PyMethodDef dec_methods[] = {
    {"process", (PyCFunction)dec_process, METH_NOARGS, dec_process_doc},
    {"reset", (PyCFunction)dec_reset, METH_NOARGS, dec_reset_doc},
    {NULL}
};
```
"""
    from copy_as_decode.core import chat_answer
    read = chat_answer.read(answer, C_DOC, "c", None)
    assert [b.text.split("(")[0] for b in read.changes] == ["PyDoc_STRVAR", "static PyObject* dec_reset",
                                                            "static PyMethodDef dec_methods[] = {\n    {\"process\", "]
    assert not read.left_out


TS_HANDLER = """export class Handler {
  private info: { name: string | RegExp }

  private async matchName(args: {
    request: Request
  }): Promise<boolean> {
    if (this.info.name instanceof RegExp) {
      return this.info.name.test(args.request.url)
    }

    return args.request.url === this.info.name
  }

  public log(): void {
    console.log(this.info.name)
  }
}
"""


def test_a_method_pasted_alone_whose_parameters_span_lines_is_that_method_not_an_if():
    """Read alone, outside its class, the method's `if (...) {` parses as a method named `if`; the block is read
    inside a class instead, as the method it is."""
    block = """  private async matchName(args: {
    request: Request
  }): Promise<boolean> {
    if (this.info.name instanceof RegExp) {
      this.info.name.lastIndex = 0
      return this.info.name.test(args.request.url)
    }

    return args.request.url === this.info.name
  }
"""
    want = TS_HANDLER.replace("      return this.info.name.test(args.request.url)\n",
                              "      this.info.name.lastIndex = 0\n      return this.info.name.test(args.request.url)\n")
    assert merged(TS_HANDLER, "```ts\n" + block + "```\n", "typescript") == want
