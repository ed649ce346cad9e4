"""Outlines of the tree-sitter languages (core/outline.py reading core/queries/*.scm), the parse check of each
(core/syntax_check.py) and the windows at a cursor and at a named `Type.method` in each (core/windows.py).
Each source is a small real-looking file: doc comments and attributes right above a definition are part of it."""
import pytest

from copy_as_decode.core import languages, parsers, syntax_check, windows
from copy_as_decode.core.document import split_lines
from copy_as_decode.core.outline import outline

SOURCES = {
    "typescript": """\
import { Foo } from "./foo";

/** A cache. */
export class Cache<T> extends Base {
  private items = new Map<string, T>();

  /** Gets one. */
  get(key: string): T | undefined {
    return this.items.get(key);
  }

  handler = (e: Event) => {
    console.log(e);
  };
}

export interface Options { size: number; }

export enum Mode { A, B }

export namespace Util {
  export function clamp(x: number): number {
    return x;
  }
}

// Adds.
export const add = (a: number, b: number): number => a + b;

function main(): void {
  const c = new Cache<number>();
}

export default abstract class Shape {
  abstract area(): number;
}
""",
    "tsx": """\
import React, { useState } from "react";

type Props = { title: string };

/** The page header. */
export function Header({ title }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <header onClick={() => setOpen(!open)}>
      <h1>{title}</h1>
    </header>
  );
}

export const Footer = () => <footer>bye</footer>;

export default class Page extends React.Component<Props> {
  render() {
    return <Header title={this.props.title} />;
  }
}
""",
    "go": """\
package store

// Store keeps items.
type Store struct {
	items map[string]int
}

type Getter interface {
	Get(key string) int
}

// Get returns one.
func (s *Store) Get(key string) int {
	return s.items[key]
}

func (s Store) Len() int { return len(s.items) }

func (l *List[T]) Push(v T) {}

// New makes a store.
func New() *Store {
	return &Store{}
}
""",
    "rust": """\
use std::fmt;

/// A point.
#[derive(Debug)]
pub struct Point {
    x: i32,
}

pub enum Shape { A, B }

pub trait Area {
    fn area(&self) -> f64;
    fn twice(&self) -> f64 { self.area() * 2.0 }
}

impl Point {
    /// Makes one.
    pub fn new(x: i32) -> Self {
        Point { x }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.x)
    }
}

impl<T> Wrapper<T> { fn get(&self) -> &T { &self.0 } }

mod tests {
    #[test]
    fn it_works() {}
}

fn main() {}
""",
    "java": """\
package demo;

/** A service. */
@Service
public class UserService implements Api {
    private final Repo repo;

    public UserService(Repo repo) { this.repo = repo; }

    /** Finds one. */
    @Override
    public User find(int id) {
        return repo.get(id);
    }

    static class Inner { void run() {} }
}

interface Api { User find(int id); }

enum Color { RED; void paint() {} }

record Pair(int a, int b) { int sum() { return a + b; } }
""",
    "c": """\
#include <stdio.h>

/* A point. */
struct point {
    int x;
};

typedef struct { int y; } pair_t;

enum color { RED, GREEN };

// Adds two.
static int add(int a, int b)
{
    return a + b;
}

char *name_of(struct point *p) { return "p"; }

int main(void) {
    return add(1, 2);
}
""",
    "cpp": """\
#include <vector>

namespace geo {

/// A shape.
class Shape {
public:
    virtual double area() const = 0;
    double twice() const { return area() * 2; }
};

struct Circle : Shape {
    double r;
    double area() const override;
};

double Circle::area() const {
    return 3.14 * r * r;
}

template <typename T>
T max_of(T a, T b) {
    return a > b ? a : b;
}

}  // namespace geo

int main() { return 0; }
""",
    "csharp": """\
using System;

namespace Demo.App
{
    /// <summary>A service.</summary>
    [Serializable]
    public class Service : IService
    {
        public Service() { }

        /// <summary>Runs.</summary>
        public int Run(int x)
        {
            return x;
        }

        public string Name { get; set; }
    }

    public interface IService { int Run(int x); }
    public struct P { public int X; }
    public enum E { A, B }
    public record R(int A);
}
""",
    "ruby": """\
# A module.
module Shop
  # A cart.
  class Cart < Base
    # Adds.
    def add(item)
      @items << item
    end

    def self.build
      new
    end
  end
end

def top_level(x)
  x
end
""",
    "php": """\
<?php
namespace App\\Models;

/**
 * A user.
 */
class User extends Model
{
    /** The name. */
    public function name(): string
    {
        return $this->name;
    }
}

interface HasName { public function name(): string; }

trait Greets { public function greet() { return "hi"; } }

enum Suit { case Hearts; }

function helper($x) {
    return $x;
}
""",
    "kotlin": """\
package demo

/** A point. */
data class Point(val x: Int, val y: Int) {
    fun norm(): Int = x * x + y * y
}

object Registry {
    fun add(p: Point) { println(p) }
}

interface Shape {
    fun area(): Double
}

enum class Color { RED, GREEN }

fun Point.shifted(dx: Int): Point = Point(x + dx, y)

fun main() {
    val p = Point(1, 2)
}
""",
    "swift": """\
/// A stack.
struct Stack<T> {
    var items: [T] = []
    mutating func push(_ item: T) {
        items.append(item)
    }
}

class View: NSObject {
    init(frame: Int) { }
    func draw() { }
}

protocol Drawable { func draw() }

enum Kind { case a, b }

extension Stack {
    func peek() -> T? { return items.last }
}

func helper(x: Int) -> Int {
    return x
}
""",
    "lua": """\
-- The module.
local M = {}

--- Adds two numbers.
function M.add(a, b)
  return a + b
end

function M:method(x)
  return self.v + x
end

local function helper(x)
  return x * 2
end

M.sub = function(a, b) return a - b end

function global_fn() end

return M
""",
    "bash": """\
#!/bin/bash
# Logs a message.
log() {
  echo "$(date +%T) $1" >&2
}

function cleanup {
  rm -f "$tmp"
}

# Copies each argument into the backup folder.
backup() {
  local dest="$1"
  shift
  for f in "$@"; do
    if [ -f "$f" ]; then
      cp "$f" "$dest/"
    else
      log "skipped $f"
    fi
  done
}

tmp=$(mktemp)
trap cleanup EXIT
backup /var/backups "$@"
""",
}

# (qualname, kind, first line, last line) of each definition, in document order
OUTLINES = {
    "typescript": [
        ("Cache", "class", 3, 15), ("Cache.get", "method", 7, 10), ("Cache.handler", "method", 12, 14),
        ("Options", "class", 17, 17), ("Mode", "class", 19, 19), ("Util", "module", 21, 25),
        ("Util.clamp", "function", 22, 24), ("add", "function", 27, 28), ("main", "function", 30, 32),
        ("Shape", "class", 34, 36), ("Shape.area", "method", 35, 35)],
    "tsx": [
        ("Header", "function", 5, 13), ("Footer", "function", 15, 15), ("Page", "class", 17, 21),
        ("Page.render", "method", 18, 20)],
    "go": [
        ("Store", "class", 3, 6), ("Getter", "class", 8, 10), ("Store.Get", "method", 12, 15),
        ("Store.Len", "method", 17, 17), ("List.Push", "method", 19, 19), ("New", "function", 21, 24)],
    "rust": [
        ("Point", "class", 3, 7), ("Shape", "class", 9, 9), ("Area", "class", 11, 14),
        ("Area.area", "method", 12, 12), ("Area.twice", "method", 13, 13), ("Point", "class", 16, 21),
        ("Point.new", "method", 17, 20), ("Point", "class", 23, 27), ("Point.fmt", "method", 24, 26),
        ("Wrapper", "class", 29, 29), ("Wrapper.get", "method", 29, 29), ("tests", "module", 31, 34),
        ("tests.it_works", "function", 32, 33), ("main", "function", 36, 36)],
    "java": [
        ("UserService", "class", 3, 17), ("UserService.UserService", "method", 8, 8),
        ("UserService.find", "method", 10, 14), ("UserService.Inner", "class", 16, 16),
        ("UserService.Inner.run", "method", 16, 16), ("Api", "class", 19, 19), ("Api.find", "method", 19, 19),
        ("Color", "class", 21, 21), ("Color.paint", "method", 21, 21), ("Pair", "class", 23, 23),
        ("Pair.sum", "method", 23, 23)],
    "c": [
        ("point", "class", 3, 6), ("pair_t", "class", 8, 8), ("color", "class", 10, 10), ("add", "function", 12, 16),
        ("name_of", "function", 18, 18), ("main", "function", 20, 22)],
    "cpp": [
        ("geo", "module", 3, 26), ("geo.Shape", "class", 5, 10), ("geo.Shape.twice", "method", 9, 9),
        ("geo.Circle", "class", 12, 15), ("geo.Circle.area", "function", 17, 19), ("geo.max_of", "function", 21, 24),
        ("main", "function", 28, 28)],
    "csharp": [
        ("Demo.App", "module", 3, 24), ("Demo.App.Service", "class", 5, 18),
        ("Demo.App.Service.Service", "method", 9, 9), ("Demo.App.Service.Run", "method", 11, 15),
        ("Demo.App.IService", "class", 20, 20), ("Demo.App.IService.Run", "method", 20, 20),
        ("Demo.App.P", "class", 21, 21), ("Demo.App.E", "class", 22, 22), ("Demo.App.R", "class", 23, 23)],
    "ruby": [
        ("Shop", "module", 1, 14), ("Shop.Cart", "class", 3, 13), ("Shop.Cart.add", "method", 5, 8),
        ("Shop.Cart.build", "method", 10, 12), ("top_level", "function", 16, 18)],
    "php": [
        ("User", "class", 4, 14), ("User.name", "method", 9, 13), ("HasName", "class", 16, 16),
        ("HasName.name", "method", 16, 16), ("Greets", "class", 18, 18), ("Greets.greet", "method", 18, 18),
        ("Suit", "class", 20, 20), ("helper", "function", 22, 24)],
    "kotlin": [
        ("Point", "class", 3, 6), ("Point.norm", "method", 5, 5), ("Registry", "class", 8, 10),
        ("Registry.add", "method", 9, 9), ("Shape", "class", 12, 14), ("Shape.area", "method", 13, 13),
        ("Color", "class", 16, 16), ("shifted", "function", 18, 18), ("main", "function", 20, 22)],
    "swift": [
        ("Stack", "class", 1, 7), ("Stack.push", "method", 4, 6), ("View", "class", 9, 12),
        ("View.init", "method", 10, 10), ("View.draw", "method", 11, 11), ("Drawable", "class", 14, 14),
        ("Drawable.draw", "method", 14, 14), ("Kind", "class", 16, 16), ("Stack", "class", 18, 20),
        ("Stack.peek", "method", 19, 19), ("helper", "function", 22, 24)],
    "lua": [
        ("M.add", "function", 4, 7), ("M.method", "function", 9, 11), ("helper", "function", 13, 15),
        ("M.sub", "function", 17, 17), ("global_fn", "function", 19, 19)],
    "bash": [
        ("log", "function", 2, 5), ("cleanup", "function", 7, 9), ("backup", "function", 11, 22)],
}

# the cursor's line and the symbol whose window it is; a `Type.method` an instruction names and its symbol
WINDOWS = {
    "typescript": (9, "Cache.get", "Cache.handler", "Cache.handler"),
    "tsx": (19, "Page.render", "Page.render", "Page.render"),
    "go": (14, "Store.Get", "Store.Get", "Store.Get"),
    "rust": (19, "Point.new", "Point.fmt", "Point.fmt"),
    "java": (13, "UserService.find", "UserService.find", "UserService.find"),
    "c": (15, "add", "main", "main"),
    "cpp": (18, "geo.Circle.area", "Circle.area", "geo.Circle.area"),
    "csharp": (14, "Demo.App.Service.Run", "Service.Run", "Demo.App.Service.Run"),
    "ruby": (7, "Shop.Cart.add", "Cart.build", "Shop.Cart.build"),
    "php": (11, "User.name", "User.name", "User.name"),
    "kotlin": (21, "main", "Registry.add", "Registry.add"),
    "swift": (5, "Stack.push", "Stack.push", "Stack.push"),
    "lua": (6, "M.add", "M.method", "M.method"),
    "bash": (4, "log", "cleanup", "cleanup"),
}
GRAMMARED = sorted(OUTLINES)


def test_every_tree_sitter_language_is_tested_here():
    assert set(GRAMMARED) == set(parsers.GRAMMARS) - {"javascript"} == set(WINDOWS)
    assert all(languages.named(name) is not None for name in GRAMMARED)


@pytest.mark.parametrize("language", GRAMMARED)
def test_the_outline_has_names_kinds_and_spans_with_doc_comments(language):
    found, symbols = outline(SOURCES[language], language)
    assert found == language
    assert [(s.qualname, s.kind, s.start, s.end) for s in symbols] == OUTLINES[language]
    lines = split_lines(SOURCES[language])
    for s in symbols:  # the header names it, and its parent holds it
        assert s.start <= s.header <= s.end and s.name in lines[s.header - 1], s
        assert s.parent is None or s.parent.start <= s.start <= s.end <= s.parent.end


@pytest.mark.parametrize("language", GRAMMARED)
def test_the_parse_check_counts_only_the_errors_a_result_adds(language):
    source = SOURCES[language]
    assert syntax_check.errors(source, language) == [] and syntax_check.parses(source, language)
    lines = split_lines(source)
    broken = "".join(lines[:-1] + [")))\n"] + lines[-1:])
    assert syntax_check.new_errors(source, broken, language)
    # an original that has errors already: only the result's new one counts
    worse = "".join(lines[:3] + ["((( [[\n"] + lines[3:-1] + [")))\n"] + lines[-1:])
    new = syntax_check.new_errors(broken, worse, language)
    assert new and all(e.text != ")))" for e in new)
    assert syntax_check.new_errors(broken, broken, language) == []


@pytest.mark.parametrize("language", GRAMMARED)
def test_the_cursor_and_a_named_type_method_are_windows(language):
    source, (line, at_symbol, name, named_symbol) = SOURCES[language], WINDOWS[language]
    spans = {q: (a, b) for q, _, a, b in OUTLINES[language]}
    plan = windows.find(source, "Make this faster.", language=language, min_lines=1, at=line)
    assert plan.reason == f"the cursor: {at_symbol}"
    assert [(w.start, w.names) for w in plan.windows] == [(spans[at_symbol][0], (at_symbol,))]
    assert plan.windows[0].end >= spans[at_symbol][1]
    plan = windows.find(source, f"Fix `{name}`: it must check its input first.", language=language, min_lines=1)
    assert [(w.start, w.names) for w in plan.windows] == [(spans[named_symbol][0], (named_symbol,))], plan.reason


def test_a_definition_whose_span_may_be_wrong_is_left_out_and_one_with_a_local_error_kept():
    """zlib's examples define functions `local int out(...)` (a macro tree-sitter does not know): an error within
    the header line, recovered there. An unclosed brace makes a span that runs on: that definition is left out."""
    source = """\
#define local static

/* Doubles. */
local int twice(int x)
{
    return 2 * x;
}

int broken(int x)
{
    if (x) {
        return 1;
}

int after(void)
{
    return 0;
}
"""
    assert syntax_check.errors(source, "c")
    assert [(s.qualname, s.start, s.end) for s in outline(source, "c")[1]] == [("twice", 3, 7), ("after", 15, 18)]


def test_cpp_names_lose_template_arguments_and_the_macros_before_them():
    """CUDA's headers write `__HOST__ inline half\\nmake_half(...)`: tree-sitter reads the macro and the type into
    one name over two lines; the name is its last word, on the line that holds it."""
    source = """\
#define HOST __host__

template <typename T>
struct is_small<T, typename std::enable_if<(sizeof(T) < 4)>::type> {
    static const bool value = true;
};

HOST inline half
make_half(float f)
{
    return half(f);
}

template <typename T>
T Box<T>::get() const
{
    return value;
}

bool Box<int>::operator==(const Box &o) const { return value == o.value; }
"""
    assert [(s.qualname, s.start, s.header, s.end) for s in outline(source, "cpp")[1]] == [
        ("is_small", 3, 4, 6), ("make_half", 8, 9, 12), ("Box.get", 14, 15, 18), ("Box.operator==", 20, 20, 20)]


def test_cpp_functions_returning_a_pointer_or_a_reference_are_in_the_outline():
    """kiwisolver's `static PyObject* Solver_new(...)`: the pointer or reference declarator wraps the
    function_declarator (once or twice)."""
    source = """\
static PyObject*
Solver_new(PyTypeObject* type, PyObject* args)
{
    return type->tp_alloc(type, 0);
}

char** split(const char* s) { return nullptr; }

const T& Vec::at(int i) const { return data[i]; }

int plain() { return 0; }
"""
    assert [(s.qualname, s.start, s.header, s.end) for s in outline(source, "cpp")[1]] == [
        ("Solver_new", 1, 2, 5), ("split", 7, 7, 7), ("Vec.at", 9, 9, 9), ("plain", 11, 11, 11)]


def test_a_rust_method_named_type_colon_colon_is_the_impl_one_not_the_trait_declaration():
    """`Vec::chunk_mut` names the method of `impl BufMut for Vec<u8>`; a bare `chunk_mut` too, over the trait's
    declaration without a body (the body is what an edit changes)."""
    source = """\
pub trait BufMut {
    /// Returns a mutable slice.
    fn chunk_mut(&mut self) -> &mut [u8];

    fn put_u8(&mut self, n: u8) {
        self.chunk_mut()[0] = n;
    }
}

impl BufMut for Vec<u8> {
    fn chunk_mut(&mut self) -> &mut [u8] {
        if self.capacity() == self.len() {
            self.reserve(64);
        }
        &mut self[..]
    }
}
"""
    symbols = outline(source, "rust")[1]
    assert [(s.qualname, s.declaration) for s in symbols if s.name in ("chunk_mut", "put_u8")] == [
        ("BufMut.chunk_mut", True), ("BufMut.put_u8", False), ("Vec.chunk_mut", False)]
    for said in ("Vec::chunk_mut compares the wrong way.", "`chunk_mut` compares the wrong way."):
        plan = windows.find(source, said, language="rust", min_lines=1)
        assert [(w.start, w.names) for w in plan.windows] == [(11, ("Vec.chunk_mut",))], plan.reason
    # the declaration named by its own qualname is still the window
    plan = windows.find(source, "Fix `BufMut::chunk_mut`.", language="rust", min_lines=1)
    assert [(w.start, w.names) for w in plan.windows] == [(2, ("BufMut.chunk_mut",))], plan.reason


def test_a_java_constructor_pasted_without_its_class_is_a_method_of_its_name():
    # tree-sitter reads it as a method whose type is the class and whose name is missing
    block = "    public Deque(Collection<? extends E> c) {\n        this();\n        addAll(c);\n    }\n"
    assert [(s.name, s.kind, s.start, s.end) for s in outline(block, "java")[1]] == [("Deque", "method", 1, 4)]
