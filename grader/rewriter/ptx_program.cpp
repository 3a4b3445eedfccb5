// Reading an inline PTX template (see ptx_program.hpp). Written by hand: the templates are one to a
// few instructions, and no PTX parser library exists for C++.
#include "rewriter/ptx_program.hpp"

#include <cctype>
#include <optional>

namespace gpulab::rewriter {
namespace {

constexpr char kOperandMark = '\x01';  // %N becomes \x01N\x01 while the template is read

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// The text with operand references marked and `%%` made `%`; comments dropped.
// Returns the error, if any; `out` gets the text.
std::optional<std::string> resolve_escapes(std::string_view text, const std::vector<std::string>& names,
                                           std::string& out) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      out += '\n';
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const std::size_t end = text.find("*/", i + 2);
      i = end == std::string_view::npos ? text.size() : end + 1;
      out += ' ';
      continue;
    }
    if (c != '%') {
      out += c;
      continue;
    }
    if (i + 1 >= text.size()) return std::string("the template ends with a lone '%'");
    const char n = text[i + 1];
    if (n == '%') {
      out += '%';
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(n))) {
      std::size_t j = i + 1;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      const std::string digits(text.substr(i + 1, j - i - 1));
      if (std::stoul(digits) >= names.size()) {
        return "it refers to %" + digits + ", but the statement has " + std::to_string(names.size()) + " operands";
      }
      out += kOperandMark + digits + kOperandMark;
      i = j - 1;
    } else if (n == '[') {
      const std::size_t close = text.find(']', i + 2);
      if (close == std::string_view::npos) return std::string("an operand reference %[ has no closing ]");
      const std::string name(text.substr(i + 2, close - i - 2));
      std::size_t k = 0;
      while (k < names.size() && names[k] != name) ++k;
      if (k == names.size()) return "it refers to %[" + name + "], which no operand is named";
      out += kOperandMark + std::to_string(k) + kOperandMark;
      i = close;
    } else if (std::isalpha(static_cast<unsigned char>(n)) || n == '_') {
      out += '%';  // nvcc reads `%globaltimer` like `%%globaltimer`
    } else {
      return std::string("it uses '%") + n + "', which the emulator does not know (only %N, %[name] and %%)";
    }
  }
  return std::nullopt;
}

// The text shown in messages: operand marks back as %N.
std::string display(std::string_view s) {
  std::string out;
  bool in_mark = false;
  for (const char c : s) {
    if (c == kOperandMark) {
      if (!in_mark) out += '%';
      in_mark = !in_mark;
    } else {
      out += c;
    }
  }
  return trim(out);
}

// Splits on commas outside [] and {}.
std::vector<std::string> split_operands(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '{') ++depth;
    if (s[i] == ']' || s[i] == '}') --depth;
    if (s[i] == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  const std::string last = trim(s.substr(start));
  if (!last.empty() || !out.empty()) out.push_back(last);
  return out;
}

// An integer or floating literal as C++ text, or nullopt.
std::optional<PtxOperand> parse_number(std::string s) {
  PtxOperand op;
  std::string sign;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    if (s[0] == '-') sign = "-";
    s = s.substr(1);
  }
  if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return std::nullopt;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
    const bool f32 = s[1] == 'f' || s[1] == 'F';
    const std::string hex = s.substr(2);
    if (hex.size() != (f32 ? 8u : 16u)) return std::nullopt;
    for (const char c : hex)
      if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    if (!sign.empty()) return std::nullopt;
    op.kind = f32 ? PtxOperand::Kind::f32_bits : PtxOperand::Kind::f64_bits;
    op.text = hex;
    return op;
  }
  if (s.back() == 'U' || s.back() == 'u') s.pop_back();  // not empty: it starts with a digit
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const bool bin = s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B');
  bool real = false;
  for (std::size_t i = hex || bin ? 2 : 0; i < s.size(); ++i) {
    const char c = s[i];
    if (hex ? std::isxdigit(static_cast<unsigned char>(c)) : std::isdigit(static_cast<unsigned char>(c))) continue;
    if (!hex && !bin &&
        (c == '.' || c == 'e' || c == 'E' || ((c == '-' || c == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E')))) {
      real = true;
      continue;
    }
    return std::nullopt;
  }
  op.kind = real ? PtxOperand::Kind::real : PtxOperand::Kind::integer;
  op.text = "(" + sign + s + (real ? "" : "ULL") + ")";
  return op;
}

std::variant<PtxOperand, std::string> parse_operand(std::string s) {
  PtxOperand op;
  s = trim(s);
  if (s.empty()) return std::string("an operand is empty");
  if (const std::size_t bar = s.find('|'); bar != std::string::npos && s[0] != '[' && s[0] != '{') {
    auto first = parse_operand(s.substr(0, bar));
    auto second = parse_operand(s.substr(bar + 1));
    if (auto* e = std::get_if<std::string>(&first)) return *e;
    if (auto* e = std::get_if<std::string>(&second)) return *e;
    op = std::get<PtxOperand>(first);
    op.pair.push_back(std::get<PtxOperand>(second));
    return op;
  }
  if (s[0] == '!') {
    auto inner = parse_operand(s.substr(1));
    if (auto* e = std::get_if<std::string>(&inner)) return *e;
    op = std::get<PtxOperand>(inner);
    op.negated = !op.negated;
    return op;
  }
  if (s[0] == '{') {
    if (s.back() != '}') return "the vector operand '" + display(s) + "' has no closing }";
    op.kind = PtxOperand::Kind::vector;
    for (const std::string& e : split_operands(std::string_view(s).substr(1, s.size() - 2))) {
      auto element = parse_operand(e);
      if (auto* err = std::get_if<std::string>(&element)) return *err;
      op.parts.push_back(std::get<PtxOperand>(element));
    }
    return op;
  }
  if (s[0] == '[') {
    if (s.back() != ']') return "the address '" + display(s) + "' has no closing ]";
    op.kind = PtxOperand::Kind::address;
    std::string inside = trim(std::string_view(s).substr(1, s.size() - 2));
    // base, base+offset, base-offset, offset
    std::size_t split = std::string::npos;
    for (std::size_t i = 1; i < inside.size(); ++i) {
      if (inside[i] == '+' || inside[i] == '-') {
        split = i;
        break;
      }
    }
    std::string base = inside, offset;
    if (split != std::string::npos) {
      base = trim(inside.substr(0, split));
      offset = trim(inside.substr(split));
      if (offset.size() > 1 && offset[0] == '+') offset = trim(offset.substr(1));
      if (offset.size() > 2 && offset[0] == '-' && offset[1] == ' ') offset = "-" + trim(offset.substr(1));
    }
    if (const auto n = parse_number(base); n && n->kind == PtxOperand::Kind::integer && offset.empty()) {
      op.offset = std::stoll(base, nullptr, 0);
      return op;
    }
    auto b = parse_operand(base);
    if (auto* err = std::get_if<std::string>(&b)) return *err;
    op.parts.push_back(std::get<PtxOperand>(b));
    if (!offset.empty()) {
      const auto n = parse_number(offset);
      if (!n || n->kind != PtxOperand::Kind::integer)
        return "the address '" + display(s) + "' has an offset the emulator cannot read";
      op.offset = std::stoll(offset, nullptr, 0);
    }
    return op;
  }
  if (s == "_") return op;
  if (s[0] == kOperandMark) {
    const std::size_t close = s.find(kOperandMark, 1);
    if (close != s.size() - 1) return "the operand '" + display(s) + "' cannot be read";
    op.kind = PtxOperand::Kind::asm_operand;
    op.index = std::stoi(s.substr(1, close - 1));
    return op;
  }
  if (auto n = parse_number(s)) return *n;
  // A register: name or %name, special ones with a .x/.y/.z part (%tid.x).
  std::size_t i = s[0] == '%' ? 1 : 0;
  if (i >= s.size() || !(std::isalpha(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '$')) {
    return "the operand '" + display(s) + "' cannot be read";
  }
  while (i < s.size() && is_name_char(s[i])) ++i;
  if (i + 2 == s.size() && s[i] == '.' && (s[i + 1] == 'x' || s[i + 1] == 'y' || s[i + 1] == 'z')) i += 2;
  if (i != s.size()) return "the operand '" + display(s) + "' cannot be read";
  op.kind = PtxOperand::Kind::name;
  op.text = s;
  return op;
}

std::vector<std::string> split_dots(std::string_view opcode) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= opcode.size(); ++i) {
    if (i == opcode.size() || opcode[i] == '.') {
      if (i > start) parts.emplace_back(opcode.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// `.reg .type a, b<4>;`
std::optional<std::string> parse_register_declaration(const std::string& statement, PtxProgram& program) {
  std::string rest = trim(std::string_view(statement).substr(4));
  if (rest.empty() || rest[0] != '.') return "the declaration '" + display(statement) + "' has no type";
  std::size_t i = 1;
  while (i < rest.size() && is_name_char(rest[i])) ++i;
  const std::string type = rest.substr(1, i - 1);
  for (const std::string& name : split_operands(std::string_view(rest).substr(i))) {
    const std::size_t angle = name.find('<');
    if (angle == std::string::npos) {
      program.registers.push_back({name, type});
      continue;
    }
    const std::size_t close = name.find('>', angle);
    if (close == std::string::npos) return "the declaration '" + display(statement) + "' cannot be read";
    const int count = std::stoi(name.substr(angle + 1, close - angle - 1));
    if (count <= 0 || count > 64) return "the declaration '" + display(statement) + "' declares too many registers";
    for (int k = 0; k < count; ++k) program.registers.push_back({name.substr(0, angle) + std::to_string(k), type});
  }
  return std::nullopt;
}

}  // namespace

std::string opcode_text(const PtxInstruction& instruction) {
  std::string s;
  for (const std::string& p : instruction.opcode) s += (s.empty() ? "" : ".") + p;
  return s;
}

std::variant<PtxProgram, std::string> parse_ptx(std::string_view text, const std::vector<std::string>& operand_names) {
  std::string body;
  if (auto e = resolve_escapes(text, operand_names, body)) return *e;
  PtxProgram program;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && body[i] != ';' && body[i] != '{' && body[i] != '}') continue;
    // Braces open and close a scope: a new `{` block only matters for its .reg declarations.
    if (i < body.size() && body[i] == '{') {
      const std::string before = trim(std::string_view(body).substr(start, i - start));
      if (!before.empty()) continue;  // a vector operand's brace: part of the statement
    }
    if (i < body.size() && body[i] == '}') {
      const std::string before = trim(std::string_view(body).substr(start, i - start));
      if (!before.empty() && before.find('{') != std::string::npos) continue;  // closes a vector operand
    }
    std::string statement = trim(std::string_view(body).substr(start, i - start));
    start = i + 1;
    if (statement.empty()) continue;
    if (statement.rfind(".reg", 0) == 0) {
      if (auto e = parse_register_declaration(statement, program)) return *e;
      continue;
    }
    if (statement[0] == '.') return "the directive '" + display(statement) + "' is not supported by the emulator";
    PtxInstruction in;
    in.text = display(statement);
    std::size_t k = 0;
    if (statement[0] == '@') {
      std::size_t e = 1;
      while (e < statement.size() && !std::isspace(static_cast<unsigned char>(statement[e]))) ++e;
      auto guard = parse_operand(statement.substr(1, e - 1));
      if (auto* err = std::get_if<std::string>(&guard)) return "the guard of '" + in.text + "': " + *err;
      in.guard.push_back(std::get<PtxOperand>(guard));
      k = e;
      while (k < statement.size() && std::isspace(static_cast<unsigned char>(statement[k]))) ++k;
    }
    std::size_t e = k;
    while (e < statement.size() && (is_name_char(statement[e]) || statement[e] == '.' || statement[e] == ':')) ++e;
    if (e == k) return "'" + in.text + "' does not start with an instruction";
    in.opcode = split_dots(std::string_view(statement).substr(k, e - k));
    for (const std::string& o : split_operands(std::string_view(statement).substr(e))) {
      auto op = parse_operand(o);
      if (auto* err = std::get_if<std::string>(&op)) return "in '" + in.text + "': " + *err;
      in.operands.push_back(std::get<PtxOperand>(op));
    }
    program.instructions.push_back(std::move(in));
  }
  return program;
}

}  // namespace gpulab::rewriter
