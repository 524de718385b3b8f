#include "calc_syntax.hpp"

#include <cctype>
#include <cstdio>
#include <utility>

#include "calc_expression.hpp"

namespace mpgpu::cli {

const std::vector<CalcFunction>& calc_functions() {
  static const std::vector<CalcFunction> f = {{"fact", 1}, {"fib", 1},  {"lucas", 1},    {"binomial", 2},
                                              {"gcd", 2},  {"powm", 3}, {"sqrt", 1}, {"root", 2}};
  return f;
}

namespace {

struct Token {
  enum class Kind { number, name, symbol, end };
  Kind kind = Kind::end;
  std::size_t offset = 0;
  std::string_view source;  ///< as written (with 0x for hex numbers)
  std::string_view digits;  ///< numbers: without the prefix
  int base = 10;
};

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_xdigit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

/// 'x', or \xNN for bytes that would not print.
std::string quote_char(char c) {
  if (std::isprint(static_cast<unsigned char>(c))) return std::string("'") + c + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
  return buf;
}

std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.offset = i;
    if (is_digit(c)) {
      t.kind = Token::Kind::number;
      std::size_t start = i;
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        t.base = 16;
        start = i += 2;
        while (i < s.size() && is_xdigit(s[i])) ++i;
        if (i == start) throw CalcError(t.offset, "0x must be followed by hexadecimal digits");
      } else {
        while (i < s.size() && is_digit(s[i])) ++i;  // leading zeros are decimal, not octal
      }
      if (i < s.size() && is_name_char(s[i]))
        throw CalcError(i, "unexpected " + quote_char(s[i]) + " in a number");
      t.digits = s.substr(start, i - start);
    } else if (is_name_start(c)) {
      t.kind = Token::Kind::name;
      while (i < s.size() && is_name_char(s[i])) ++i;
    } else if (c == '<' || c == '>') {
      if (i + 1 >= s.size() || s[i + 1] != c)
        throw CalcError(i, "unexpected " + quote_char(c) + " (the shift operators are << and >>)");
      t.kind = Token::Kind::symbol;
      i += 2;
    } else if (std::string_view("+-*/%^&|(),").find(c) != std::string_view::npos) {
      t.kind = Token::Kind::symbol;
      ++i;
    } else {
      throw CalcError(i, "unexpected character " + quote_char(c));
    }
    t.source = s.substr(t.offset, i - t.offset);
    tokens.push_back(t);
  }
  Token end;
  end.offset = s.size();
  tokens.push_back(end);
  return tokens;
}

/// The binary operators of each precedence level, loosest first.
struct LevelOp {
  std::string_view text;
  CalcOp op;
};
const std::vector<std::vector<LevelOp>>& levels() {
  static const std::vector<std::vector<LevelOp>> l = {
      {{"|", CalcOp::bit_or}},
      {{"xor", CalcOp::bit_xor}},
      {{"&", CalcOp::bit_and}},
      {{"<<", CalcOp::shl}, {">>", CalcOp::shr}},
      {{"+", CalcOp::add}, {"-", CalcOp::sub}},
      {{"*", CalcOp::mul}, {"/", CalcOp::div}, {"%", CalcOp::mod}},
  };
  return l;
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::size_t max_nesting)
      : tokens_(std::move(tokens)), max_nesting_(max_nesting) {}

  CalcNode parse_all() {
    if (cur().kind == Token::Kind::end) throw CalcError(0, "empty expression");
    CalcNode n = parse_level(0);
    if (cur().kind != Token::Kind::end) throw CalcError(cur().offset, "expected an operator, found " + describe(cur()));
    return n;
  }

 private:
  const Token& cur() const { return tokens_[pos_]; }
  bool at(std::string_view text) const { return cur().kind != Token::Kind::number && cur().source == text; }

  static std::string describe(const Token& t) {
    if (t.kind == Token::Kind::end) return "the end of the expression";
    if (t.source.size() > 24) return "'" + std::string(t.source.substr(0, 20)) + "...'";
    return "'" + std::string(t.source) + "'";
  }

  /// Counts nesting on the way down; every recursive path passes parse_unary,
  /// which the top level enters once without nesting anything.
  struct Nesting {
    Parser& p;
    explicit Nesting(Parser& parser) : p(parser) {
      if (++p.depth_ > p.max_nesting_ + 1)
        throw CalcError(p.cur().offset,
                        "expression nested too deeply (more than " + std::to_string(p.max_nesting_) + " levels)");
    }
    ~Nesting() { --p.depth_; }
  };

  CalcNode parse_level(std::size_t level) {
    if (level == levels().size()) return parse_unary();
    CalcNode first = parse_level(level + 1);
    CalcNode chain;
    chain.kind = CalcNode::Kind::chain;
    for (bool more = true; more;) {
      more = false;
      for (const LevelOp& lo : levels()[level])
        if (at(lo.text)) {
          if (chain.operands.empty()) {
            chain.offset = cur().offset;
            chain.operands.push_back(std::move(first));
          }
          chain.ops.push_back(lo.op);
          chain.op_offsets.push_back(cur().offset);
          ++pos_;
          chain.operands.push_back(parse_level(level + 1));
          more = true;
          break;
        }
    }
    return chain.operands.empty() ? first : chain;
  }

  CalcNode parse_unary() {
    Nesting guard(*this);
    if (at("+")) {
      ++pos_;
      return parse_unary();
    }
    if (at("-")) {
      CalcNode n;
      n.kind = CalcNode::Kind::negate;
      n.offset = cur().offset;
      ++pos_;
      n.operands.push_back(parse_unary());
      return n;
    }
    CalcNode base = parse_primary();
    if (!at("^")) return base;
    CalcNode n;  // right-associative, and binds tighter than a unary minus on its left
    n.kind = CalcNode::Kind::power;
    n.offset = cur().offset;
    ++pos_;
    n.operands.push_back(std::move(base));
    n.operands.push_back(parse_unary());
    return n;
  }

  CalcNode parse_primary() {
    const Token& t = cur();
    if (t.kind == Token::Kind::number) {
      CalcNode n;
      n.offset = t.offset;
      n.text = std::string(t.digits);
      n.base = t.base;
      ++pos_;
      return n;
    }
    if (t.kind == Token::Kind::name && t.source != "xor") return parse_call();
    if (at("(")) {
      ++pos_;
      CalcNode n = parse_level(0);
      if (!at(")")) throw CalcError(cur().offset, "expected ')', found " + describe(cur()));
      ++pos_;
      return n;
    }
    throw CalcError(t.offset, "expected a number, '(' or a function, found " + describe(t));
  }

  CalcNode parse_call() {
    const Token& name = cur();
    const CalcFunction* fn = nullptr;
    for (const CalcFunction& f : calc_functions())
      if (name.source == f.name) fn = &f;
    if (!fn) {
      std::string known;
      for (const CalcFunction& f : calc_functions()) known += (known.empty() ? "" : ", ") + std::string(f.name);
      throw CalcError(name.offset, "unknown function '" + std::string(name.source) + "' (functions: " + known + ")");
    }
    CalcNode n;
    n.kind = CalcNode::Kind::call;
    n.offset = name.offset;
    n.text = fn->name;
    ++pos_;
    if (!at("(")) throw CalcError(cur().offset, "expected '(' after " + n.text);
    ++pos_;
    if (!at(")")) {
      while (true) {
        n.operands.push_back(parse_level(0));
        if (at(",")) {
          ++pos_;
          continue;
        }
        if (at(")")) break;
        throw CalcError(cur().offset, "expected ',' or ')' in the arguments of " + n.text + ", found " + describe(cur()));
      }
    }
    ++pos_;  // ')'
    if (n.operands.size() != fn->arity)
      throw CalcError(n.offset, n.text + " takes " + std::to_string(fn->arity) + " argument" +
                                    (fn->arity == 1 ? "" : "s") + ", not " + std::to_string(n.operands.size()));
    return n;
  }

  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::size_t depth_ = 0;
  std::size_t max_nesting_;
};

}  // namespace

CalcNode parse_calc_expression(std::string_view text, std::size_t max_nesting) {
  return Parser(tokenize(text), max_nesting).parse_all();
}

}  // namespace mpgpu::cli
