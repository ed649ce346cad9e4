"""JavaScript functions, found once (core/outline.py's tree-sitter outline), and what the training data
(synthesis/sources.py) and the long-js corpus (synthesis/long_corpus.py) take of them."""
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import outline
from copy_as_decode.synthesis import long_corpus, sources

JS = """// Reads a file.
function load(path) {
  const parse = (text) => {
    const data = JSON.parse(text);
    check(data);
    return data;
  };
  function strip(text) {
    const out = text.trim();
    check(out);
    return out;
  }
  return parse(strip(read(path)));
}

class Box {
  open(lid) {
    if (!lid) {
      throw new Error('no lid');
    }
    return load(lid);
  }

  get size() {
    if (!this.items) {
      return 0;
    }
    return this.items.length;
  }
}

const twice = x => {
  const y = x * 2;
  check(y);
  return y;
};
"""


def test_the_outline_holds_declarations_arrows_methods_and_nested_functions():
    lang, symbols = outline(JS)
    assert lang == "javascript"
    assert [(s.qualname, s.kind, s.header, s.end) for s in symbols] == [
        ("load", "function", 2, 14), ("load.parse", "function", 3, 7), ("load.strip", "function", 8, 12),
        ("Box", "class", 16, 30), ("Box.open", "method", 17, 22), ("Box.size", "method", 24, 29),
        ("twice", "function", 32, 36)]


def test_snippets_are_the_outlines_functions_of_the_harvested_forms(tmp_path):
    path = tmp_path / "a.js"
    path.write_text(JS, encoding="utf-8")
    found = sources.js_functions([path])
    # the getter and the arrow function of a bare parameter are not among the forms harvested
    assert [(s.name, s.start, s.text.count("\n")) for s in found] == [
        ("load", 1, 13), ("parse", 2, 5), ("strip", 7, 5), ("open", 16, 6)]
    assert found[1].text == "const parse = (text) => {\n  const data = JSON.parse(text);\n  check(data);\n" \
                            "  return data;\n};\n"  # dedented, from its header to its closing brace
    long = sources._js_long("a.js", split_lines(JS))
    assert [s.name for s in long.functions] == ["load", "parse", "strip", "open"] and long.renamable == ("load",)


def test_declarations_keep_their_parameter_list():
    assert long_corpus._js_decls(split_lines(JS)) == [(1, 13, "load", "path"), (7, 11, "strip", "text")]


def test_a_file_tree_sitter_cannot_read_has_no_functions(tmp_path):
    broken = JS + "function broken( {\n"
    path = tmp_path / "a.js"
    path.write_text(broken, encoding="utf-8")
    assert sources.js_functions([path]) == [] and long_corpus._js_decls(split_lines(broken)) == []
