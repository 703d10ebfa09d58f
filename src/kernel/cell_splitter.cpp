#include "cell_splitter.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>

namespace gyre::kernel {
namespace {

enum class TokenType { identifier, number, literal, punctuation, directive };

struct Token {
  TokenType type;
  std::string_view text;
  std::size_t begin, end;  // offsets in the cell
  int line;                // 1-based line of the first character
};

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Longest match first, so that `<<=` is not read as `<<` then `=`.
constexpr std::array<std::string_view, 24> kMultiCharPunctuation = {
    "<<=", ">>=", "...", "->*", "::", "<<", ">>", "->", "++", "--", "&&", "||",
    "==",  "!=",  "<=",  ">=",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};

class Lexer {
 public:
  explicit Lexer(std::string_view cell) : cell_(cell) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (i_ < cell_.size()) {
      const char c = cell_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
        at_line_start_ = true;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++i_;
      } else if (starts_with("//")) {
        skip_line();
      } else if (starts_with("/*")) {
        skip_block_comment();
      } else if (c == '#' && at_line_start_) {
        tokens.push_back(directive());
      } else {
        at_line_start_ = false;
        tokens.push_back(token());
      }
    }
    return tokens;
  }

 private:
  bool starts_with(std::string_view s) const { return cell_.substr(i_, s.size()) == s; }

  void skip_line() {
    while (i_ < cell_.size() && cell_[i_] != '\n') ++i_;
  }

  void skip_block_comment() {
    const std::size_t close = cell_.find("*/", i_ + 2);
    const std::size_t stop = close == std::string_view::npos ? cell_.size() : close + 2;
    line_ += static_cast<int>(std::count(cell_.begin() + static_cast<std::ptrdiff_t>(i_),
                                         cell_.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
    i_ = stop;
  }

  // A preprocessor line runs to the first newline not escaped by a backslash.
  Token directive() {
    const std::size_t begin = i_;
    const int line = line_;
    while (i_ < cell_.size() && cell_[i_] != '\n') {
      if (cell_[i_] == '\\' && i_ + 1 < cell_.size() && cell_[i_ + 1] == '\n') {
        ++line_;
        i_ += 2;
        continue;
      }
      if (starts_with("/*")) {  // a block comment may continue the directive over lines
        skip_block_comment();
        continue;
      }
      ++i_;
    }
    return make(TokenType::directive, begin, line);
  }

  Token token() {
    const std::size_t begin = i_;
    const int line = line_;
    const char c = cell_[i_];
    if (is_identifier_start(c)) {
      while (i_ < cell_.size() && is_identifier_char(cell_[i_])) ++i_;
      const std::string_view word = cell_.substr(begin, i_ - begin);
      if (i_ < cell_.size() && (cell_[i_] == '"' || cell_[i_] == '\'')) {
        if (!word.empty() && word.back() == 'R' && cell_[i_] == '"' &&
            (word == "R" || word == "LR" || word == "uR" || word == "UR" || word == "u8R")) {
          raw_string();
          return make(TokenType::literal, begin, line);
        }
        if (word == "L" || word == "u" || word == "U" || word == "u8") {
          quoted(cell_[i_]);
          return make(TokenType::literal, begin, line);
        }
      }
      return make(TokenType::identifier, begin, line);
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i_ + 1 < cell_.size() && std::isdigit(static_cast<unsigned char>(cell_[i_ + 1])))) {
      number();
      return make(TokenType::number, begin, line);
    }
    if (c == '"' || c == '\'') {
      quoted(c);
      return make(TokenType::literal, begin, line);
    }
    for (const std::string_view p : kMultiCharPunctuation) {
      if (starts_with(p)) {
        i_ += p.size();
        return make(TokenType::punctuation, begin, line);
      }
    }
    ++i_;
    return make(TokenType::punctuation, begin, line);
  }

  void quoted(char quote) {
    ++i_;
    while (i_ < cell_.size() && cell_[i_] != quote && cell_[i_] != '\n') {
      i_ += cell_[i_] == '\\' ? 2 : 1;
    }
    i_ = std::min(i_ + 1, cell_.size());
  }

  // R"delim( … )delim"
  void raw_string() {
    const std::size_t open = cell_.find('(', i_);
    if (open == std::string_view::npos) {
      i_ = cell_.size();
      return;
    }
    const std::string close = ")" + std::string(cell_.substr(i_ + 1, open - i_ - 1)) + "\"";
    const std::size_t end = cell_.find(close, open);
    const std::size_t stop = end == std::string_view::npos ? cell_.size() : end + close.size();
    line_ += static_cast<int>(std::count(cell_.begin() + static_cast<std::ptrdiff_t>(i_),
                                         cell_.begin() + static_cast<std::ptrdiff_t>(stop), '\n'));
    i_ = stop;
  }

  // Digits, letters, dots and digit separators; a sign right after an exponent letter.
  void number() {
    while (i_ < cell_.size()) {
      const char c = cell_[i_];
      if (is_identifier_char(c) || c == '.') {
        ++i_;
      } else if ((c == '+' || c == '-') && std::string_view("eEpP").find(cell_[i_ - 1]) != std::string_view::npos) {
        ++i_;
      } else if (c == '\'' && i_ + 1 < cell_.size() && std::isalnum(static_cast<unsigned char>(cell_[i_ + 1]))) {
        ++i_;
      } else {
        break;
      }
    }
  }

  Token make(TokenType type, std::size_t begin, int line) const {
    return Token{type, cell_.substr(begin, i_ - begin), begin, i_, line};
  }

  std::string_view cell_;
  std::size_t i_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
};

bool is_one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

bool is_word(const std::vector<Token>& t, std::size_t k, std::string_view word) {
  return k < t.size() && t[k].type == TokenType::identifier && t[k].text == word;
}

bool is_punct(const std::vector<Token>& t, std::size_t k, std::string_view p) {
  return k < t.size() && t[k].type == TokenType::punctuation && t[k].text == p;
}

// Words that begin a statement, never a declaration.
bool is_statement_keyword(std::string_view w) {
  return is_one_of(
      w, {"if",        "for",      "while",  "do",          "switch",       "try",        "return",
          "break",     "continue", "goto",   "throw",       "delete",       "new",        "case",
          "default",   "sizeof",   "this",   "true",        "false",        "nullptr",    "co_await",
          "co_return", "co_yield", "typeid", "static_cast", "dynamic_cast", "const_cast", "reinterpret_cast"});
}

// Words that begin a declaration at namespace scope.
bool is_declaration_keyword(std::string_view w) {
  return is_one_of(w, {"using",   "typedef",       "namespace", "template",     "class",     "struct",    "union",
                       "enum",    "extern",        "static",    "inline",       "constexpr", "const",     "volatile",
                       "auto",    "static_assert", "typename",  "thread_local", "unsigned",  "signed",    "int",
                       "long",    "short",         "char",      "bool",         "float",     "double",    "void",
                       "wchar_t", "char8_t",       "char16_t",  "char32_t",     "explicit",  "virtual",   "friend",
                       "mutable", "register",      "decltype",  "alignas",      "consteval", "constinit", "export"});
}

// The index of the `>` closing the `<` at `open`, or `open` itself if these are not template
// arguments (a `;`, brace or unbalanced bracket comes first).
std::size_t match_angle(const std::vector<Token>& t, std::size_t open, std::size_t stop) {
  int angles = 0;
  int parens = 0;
  for (std::size_t k = open; k < stop; ++k) {
    if (t[k].type != TokenType::punctuation) continue;
    const std::string_view p = t[k].text;
    if (p == "(" || p == "[") {
      ++parens;
    } else if (p == ")" || p == "]") {
      if (--parens < 0) return open;
    } else if (parens > 0) {
      continue;
    } else if (p == "<") {
      ++angles;
    } else if (p == ">" || p == ">>") {
      angles -= p == ">" ? 1 : 2;
      if (angles <= 0) return angles == 0 ? k : open;
    } else if (p == ";" || p == "{" || p == "}" || p == "<<") {
      return open;
    }
  }
  return open;
}

// Skips `template <…>` headers; returns the first index after them.
std::size_t skip_template_headers(const std::vector<Token>& t, std::size_t k, std::size_t stop) {
  while (is_word(t, k, "template") && is_punct(t, k + 1, "<")) {
    const std::size_t close = match_angle(t, k + 1, stop);
    if (close == k + 1) break;
    k = close + 1;
  }
  return k;
}

// A chunk that starts like a statement by its first token.
bool starts_statement(const std::vector<Token>& t, std::size_t s) {
  if (is_punct(t, s, "{")) return true;
  return t[s].type == TokenType::identifier && is_statement_keyword(t[s].text);
}

// class/struct/union/enum definitions end at the `;` after their braces.
bool starts_type_definition(const std::vector<Token>& t, std::size_t s, std::size_t stop) {
  std::size_t k = skip_template_headers(t, s, stop);
  if (is_word(t, k, "typedef")) ++k;
  return k < stop && t[k].type == TokenType::identifier && is_one_of(t[k].text, {"class", "struct", "union", "enum"});
}

// A qualified name, possibly with template arguments, followed by another name (after `*`, `&`,
// cv-qualifiers) declares something: `std::vector<int> v;`, `gyre::Sphere<double> s(3);`.
bool is_declaration(const std::vector<Token>& t, std::size_t s, std::size_t e) {
  const Token& first = t[s];
  if (first.type == TokenType::identifier) {
    if (is_statement_keyword(first.text)) return false;
    if (is_declaration_keyword(first.text)) return true;
  } else if (is_punct(t, s, "[") && is_punct(t, s + 1, "[")) {
    return true;  // [[attribute]] declaration
  } else if (!is_punct(t, s, "::")) {
    return false;  // literals, operators, parentheses, blocks
  }
  std::size_t k = s;
  while (k <= e) {
    if (is_punct(t, k, "::")) ++k;
    if (k > s && is_punct(t, k, "~")) return true;  // `A::~A()`, a destructor defined out of class
    if (k > e || t[k].type != TokenType::identifier) return false;
    ++k;
    if (is_punct(t, k, "<")) {
      const std::size_t close = match_angle(t, k, e + 1);
      if (close == k) break;
      k = close + 1;
    }
    if (!is_punct(t, k, "::")) break;
  }
  // `A::A(…)`: a constructor defined outside its class.
  if (k >= s + 3 && is_punct(t, k - 2, "::") && t[k - 1].text == t[k - 3].text && is_punct(t, k, "(")) return true;
  while (k <= e && (is_punct(t, k, "*") || is_punct(t, k, "&") || is_punct(t, k, "&&") || is_word(t, k, "const") ||
                    is_word(t, k, "volatile"))) {
    ++k;
  }
  return k <= e && t[k].type == TokenType::identifier;
}

bool continues_statement(const std::vector<Token>& t, std::size_t s, std::size_t next) {
  if (is_word(t, s, "if")) return is_word(t, next, "else");
  if (is_word(t, s, "try")) return is_word(t, next, "catch");
  return false;
}

// Whether the `{` at `brace` (depth 0, in a declaration starting at `s`) opens a body — of a
// function (after its parameters and qualifiers, or a trailing return type) or of a namespace or
// linkage block — rather than a brace initializer such as `Type name{…}`.
bool opens_body(const std::vector<Token>& t, std::size_t s, std::size_t brace, bool after_arrow) {
  if (is_word(t, s, "namespace") || is_word(t, s, "extern") ||
      (is_word(t, s, "inline") && is_word(t, s + 1, "namespace"))) {
    return true;
  }
  if (after_arrow || brace == s) return true;
  const Token& before = t[brace - 1];
  if (before.type == TokenType::punctuation) {
    return before.text == ")" || before.text == "}" || before.text == "&" || before.text == "&&";
  }
  return before.type == TokenType::identifier &&
         is_one_of(before.text, {"const", "volatile", "noexcept", "override", "final", "mutable", "try"});
}

// The index of the last token of the chunk that starts at `s`.
std::size_t chunk_end(const std::vector<Token>& t, std::size_t s) {
  const std::size_t n = t.size();
  const bool statement = starts_statement(t, s);
  const bool type_definition = !statement && starts_type_definition(t, s, n);
  const std::size_t body_from = skip_template_headers(t, s, n);
  bool assigned = false;                  // a `=` at depth 0: braces belong to an initializer, the `;` ends it
  bool arrow = false;                     // a trailing return type: `auto f() -> T {` opens a body
  bool constructor_initializers = false;  // after `) :` of an out-of-class constructor
  bool member_initializer = false;        // inside the braces of one of them
  int depth = 0;
  for (std::size_t k = s; k < n; ++k) {
    if (t[k].type != TokenType::punctuation) continue;
    const std::string_view p = t[k].text;
    if (p == "{" && depth == 0 && !statement && !type_definition && !assigned) {
      if (constructor_initializers && t[k - 1].type == TokenType::identifier) {
        member_initializer = true;  // `A::A() : x{1} {}`: x's initializer, not the body
      } else if (!opens_body(t, s, k, arrow)) {
        assigned = true;  // `T a{1}, b{2};`: a brace initializer, so the `;` ends the declaration
      }
    }
    if (depth == 0 && p == "->") arrow = true;
    if (depth == 0 && p == ":" && k > s && is_punct(t, k - 1, ")")) constructor_initializers = true;
    if (p == "(" || p == "[" || p == "{") {
      ++depth;
    } else if (p == ")" || p == "]" || p == "}") {
      depth = std::max(depth - 1, 0);
      if (p != "}" || depth != 0) continue;
      if (statement) {
        if (is_word(t, s, "do") || continues_statement(t, s, k + 1)) continue;
        return k;
      }
      if (type_definition || assigned) continue;
      if (member_initializer) {
        member_initializer = false;
        continue;
      }
      return is_punct(t, k + 1, ";") ? k + 1 : k;  // a function or namespace body; `int x{1};`
    } else if (depth == 0 && p == ";") {
      if (statement && continues_statement(t, s, k + 1)) continue;
      return k;
    } else if (depth == 0 && p == "=" && k >= body_from && !is_word(t, k - 1, "operator")) {
      assigned = true;
    }
  }
  return n - 1;
}

bool is_cling_pragma(std::string_view directive) {
  std::size_t k = 1;  // after '#'
  auto skip_blanks = [&] {
    while (k < directive.size() && (directive[k] == ' ' || directive[k] == '\t')) ++k;
  };
  skip_blanks();
  if (directive.substr(k, 6) != "pragma") return false;
  k += 6;
  skip_blanks();
  return directive.substr(k, 5) == "cling" && (k + 5 == directive.size() || !is_identifier_char(directive[k + 5]));
}

}  // namespace

std::vector<CellChunk> split_cell(std::string_view cell) {
  const std::vector<Token> tokens = Lexer(cell).run();
  std::vector<CellChunk> chunks;
  std::size_t s = 0;
  while (s < tokens.size()) {
    const Token& first = tokens[s];
    if (first.type == TokenType::directive) {
      chunks.push_back({is_cling_pragma(first.text) ? ChunkKind::cling_pragma : ChunkKind::directive,
                        std::string(first.text), first.line});
      ++s;
      continue;
    }
    std::size_t e = chunk_end(tokens, s);
    // A directive inside a chunk (an #ifdef in a function body) stays in it, but one after the
    // chunk's last token starts the next piece.
    while (e > s && tokens[e].type == TokenType::directive) --e;
    const ChunkKind kind = is_declaration(tokens, s, e) ? ChunkKind::declaration : ChunkKind::statement;
    chunks.push_back({kind, std::string(cell.substr(first.begin, tokens[e].end - first.begin)), first.line});
    s = e + 1;
  }
  return chunks;
}

const char* to_string(ChunkKind kind) {
  switch (kind) {
    case ChunkKind::directive:
      return "directive";
    case ChunkKind::cling_pragma:
      return "cling_pragma";
    case ChunkKind::declaration:
      return "declaration";
    case ChunkKind::statement:
      return "statement";
  }
  return "unknown";
}

}  // namespace gyre::kernel
