// The cell splitter decides what of a cell runs as a declaration and what as a statement; a
// wrong call is a compile error in the user's cell (or, worse, code run in the wrong order).
// The cases are what notebook cells contain, including the ones C++ itself calls ambiguous.

#include "cell_splitter.hpp"

#include <string>
#include <vector>

#include <doctest/doctest.h>

using gyre::kernel::ChunkKind;
using gyre::kernel::split_cell;

namespace {

// "declaration statement …": the kinds of a cell's pieces, in order.
std::string kinds(const std::string& cell) {
  std::string out;
  for (const auto& chunk : split_cell(cell)) {
    if (!out.empty()) out += ' ';
    out += gyre::kernel::to_string(chunk.kind);
  }
  return out;
}

std::vector<std::string> texts(const std::string& cell) {
  std::vector<std::string> out;
  for (const auto& chunk : split_cell(cell)) out.push_back(chunk.text);
  return out;
}

}  // namespace

TEST_CASE("cell splitter: variables of built-in, qualified and template types are declarations") {
  CHECK(kinds("int x = 1;") == "declaration");
  CHECK(kinds("double a, b = 2.0;") == "declaration");
  CHECK(kinds("const auto& r = x;") == "declaration");
  CHECK(kinds("std::vector<int> xs = {1, 2, 3};") == "declaration");
  CHECK(kinds("std::map<std::string, std::vector<double>> table;") == "declaration");
  CHECK(kinds("gyre::Sphere<double> sphere(3);") == "declaration");
  CHECK(kinds("Eigen::Matrix<double, 3, 3> R = Eigen::Matrix3d::Identity();") == "declaration");
  CHECK(kinds("std::vector<int>::iterator it = xs.begin();") == "declaration");
  CHECK(kinds("::std::string name{\"x\"};") == "declaration");
  CHECK(kinds("Foo* p = nullptr;") == "declaration");
  CHECK(kinds("const Foo& ref = make();") == "declaration");
  CHECK(kinds("auto [a, b] = std::pair<int, int>(1, 2);") == "declaration");
  CHECK(kinds("[[maybe_unused]] int unused = 0;") == "declaration");
}

TEST_CASE("cell splitter: functions, types, namespaces, templates and using are declarations") {
  CHECK(kinds("int twice(int x) { return 2 * x; }") == "declaration");
  CHECK(kinds("std::vector<double> grid(int n) { return std::vector<double>(n); }") == "declaration");
  CHECK(kinds("struct Point { double x, y; };") == "declaration");
  CHECK(kinds("class Net : public Base { public: void f() {} };") == "declaration");
  CHECK(kinds("enum class Colour { red, green };") == "declaration");
  CHECK(kinds("namespace util { int f() { return 1; } }") == "declaration");
  CHECK(kinds("template <class T> T square(T x) { return x * x; }") == "declaration");
  CHECK(kinds("template <class T> struct Box { T value; };") == "declaration");
  CHECK(kinds("using Matrix = Eigen::MatrixXd;") == "declaration");
  CHECK(kinds("using namespace gyre;") == "declaration");
  CHECK(kinds("typedef std::vector<int> Ints;") == "declaration");
  CHECK(kinds("static_assert(sizeof(int) == 4);") == "declaration");
  CHECK(kinds("std::ostream& operator<<(std::ostream& os, const Point& p) { return os << p.x; }") == "declaration");
  CHECK(kinds("auto f = [](int a) { return a + 1; };") == "declaration");
  CHECK(kinds("auto next(int x) -> int { return x + 1; }\nx = 1;") == "declaration statement");
  CHECK(kinds("inline int g() noexcept { return 1; }\nx = 1;") == "declaration statement");
  CHECK(kinds("inline namespace v1 { int h() { return 1; } }\nx = 1;") == "declaration statement");
  CHECK(kinds("extern \"C\" { int c_function(); }\nx = 1;") == "declaration statement");
  CHECK(kinds("Point::Point(double a) : x{a}, y{0} {}\nx = 1;") == "declaration statement");
  CHECK(kinds("Point::Point() : x(0), y(0) { x = 1; }\nx = 1;") == "declaration statement");
  CHECK(kinds("Point::~Point() {}\nx = 1;") == "declaration statement");
  CHECK(kinds("double Point::norm() const { return x; }\nx = 1;") == "declaration statement");
}

TEST_CASE("cell splitter: brace initializers do not end a declaration early") {
  CHECK(texts("Series a{\"a\", {}, {}}, b{\"b\", {}, {}};\nx = 1;") ==
        std::vector<std::string>{"Series a{\"a\", {}, {}}, b{\"b\", {}, {}};", "x = 1;"});
  CHECK(kinds("int x{1};\nx = 2;") == "declaration statement");
  CHECK(kinds("std::vector<int> v{1, 2}, w{3};") == "declaration");
  CHECK(kinds("Plot plot{\"t\", {s1, s2}, {}};\nplot.draw();") == "declaration statement");
}

TEST_CASE("cell splitter: expressions and control flow are statements") {
  CHECK(kinds("x = 5;") == "statement");
  CHECK(kinds("x += 1;") == "statement");
  CHECK(kinds("x++;") == "statement");
  CHECK(kinds("++x;") == "statement");
  CHECK(kinds("std::cout << x << std::endl;") == "statement");
  CHECK(kinds("xs.push_back(4);") == "statement");
  CHECK(kinds("xs[0] = 7;") == "statement");
  CHECK(kinds("*p = 3;") == "statement");
  CHECK(kinds("p->value = 3;") == "statement");
  CHECK(kinds("a < b;") == "statement");
  CHECK(kinds("::run();") == "statement");
  CHECK(kinds("gyre::check(x);") == "statement");
  CHECK(kinds("for (int i = 0; i < 3; ++i) total += i;") == "statement");
  CHECK(kinds("for (auto& v : xs) { v *= 2; }") == "statement");
  CHECK(kinds("while (x > 0) { --x; }") == "statement");
  CHECK(kinds("do { --x; } while (x > 0);") == "statement");
  CHECK(kinds("switch (x) { case 1: break; default: break; }") == "statement");
  CHECK(kinds("{ int local = 1; x += local; }") == "statement");
  CHECK(kinds("throw std::runtime_error(\"no\");") == "statement");
  CHECK(kinds("std::for_each(xs.begin(), xs.end(), [](int& v) { v += 1; });") == "statement");
}

TEST_CASE("cell splitter: if/else and try/catch stay one statement") {
  CHECK(texts("if (x) { a(); } else if (y) { b(); } else { c(); }").size() == 1);
  CHECK(kinds("if (x) a(); else b();") == "statement");
  CHECK(texts("try { f(); } catch (const std::exception& e) { g(); } catch (...) { h(); }").size() == 1);
  CHECK(kinds("if (x) { a(); }\nint y = 2;") == "statement declaration");
}

TEST_CASE("cell splitter: the ambiguous forms are read as the standard or cling would") {
  // `a * b;` declares a pointer b in C++; `f(x);` is read as a call (cling does the same).
  CHECK(kinds("Foo * bar;") == "declaration");
  CHECK(kinds("f(x);") == "statement");
  CHECK(kinds("Foo bar;") == "declaration");
  CHECK(kinds("Foo bar(1, 2);") == "declaration");
}

TEST_CASE("cell splitter: a cell mixes directives, declarations and statements in source order") {
  const std::string cell =
      "#include <iostream>\n"
      "#pragma cling load(\"libgyre\")\n"
      "int total = 0;  // running sum\n"
      "/* a block\n comment */ total += 2;\n"
      "std::cout << total;\n"
      "int twice(int v) {\n  return 2 * v;\n}\n"
      "std::cout << twice(total)";
  const auto chunks = split_cell(cell);
  REQUIRE(chunks.size() == 7);
  CHECK(chunks[0].kind == ChunkKind::directive);
  CHECK(chunks[1].kind == ChunkKind::cling_pragma);
  CHECK(chunks[2].kind == ChunkKind::declaration);
  CHECK(chunks[2].text == "int total = 0;");
  CHECK(chunks[3].kind == ChunkKind::statement);
  CHECK(chunks[3].text == "total += 2;");
  CHECK(chunks[3].line == 5);
  CHECK(chunks[4].kind == ChunkKind::statement);
  CHECK(chunks[5].kind == ChunkKind::declaration);
  CHECK(chunks[5].line == 7);
  CHECK(chunks[5].text == "int twice(int v) {\n  return 2 * v;\n}");
  CHECK(chunks[6].kind == ChunkKind::statement);
  CHECK(chunks[6].line == 10);
  // The last statement keeps its missing semicolon missing; the assembler adds it.
  const auto last = split_cell("std::cout << 1;\nstd::cout << 2");
  REQUIRE(last.size() == 2);
  CHECK(last[1].text == "std::cout << 2");
}

TEST_CASE("cell splitter: comments, strings, characters and raw strings hide their brackets and semicolons") {
  CHECK(texts("std::cout << \"; } {\";").size() == 1);
  CHECK(texts("char c = ';';\nchar d = '}';").size() == 2);
  CHECK(texts("auto s = R\"x(a \"; }\" b)x\";\nx = 1;").size() == 2);
  CHECK(kinds("// int x = 1;\nx = 2; /* int y; */") == "statement");
  CHECK(kinds("int x = 1; // { unbalanced\nx = 2;") == "declaration statement");
  CHECK(texts("auto big = 1'000'000;").size() == 1);
  CHECK(texts("double e = 1e-3; double f = 0x1p+2;").size() == 2);
}

TEST_CASE("cell splitter: directives span continuation lines and stop at the end of the line") {
  const auto chunks = split_cell("#define SQUARE(x) \\\n  ((x) * (x))\nint y = SQUARE(3);");
  REQUIRE(chunks.size() == 2);
  CHECK(chunks[0].kind == ChunkKind::directive);
  CHECK(chunks[0].text == "#define SQUARE(x) \\\n  ((x) * (x))");
  CHECK(chunks[1].line == 3);
  // A directive inside a function body belongs to the function.
  CHECK(kinds("void f() {\n#ifdef X\n  g();\n#endif\n}\nf();") == "declaration statement");
  // Only `#pragma cling` is the kernel's; other pragmas go to the compiler.
  CHECK(kinds("#pragma once") == "directive");
  CHECK(kinds("#  pragma   cling add_include_path(\"/x\")") == "cling_pragma");
  CHECK(kinds("#pragma clingy") == "directive");
}

TEST_CASE("cell splitter: empty and comment-only cells have no pieces") {
  CHECK(split_cell("").empty());
  CHECK(split_cell("  \n\t\n").empty());
  CHECK(split_cell("// nothing\n/* here */").empty());
}
