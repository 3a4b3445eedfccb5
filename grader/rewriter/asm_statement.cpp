// Reading an inline assembly statement (see asm_statement.hpp).
#include "rewriter/asm_statement.hpp"

#include <cctype>
#include <optional>
#include <set>

namespace gpulab::rewriter {
namespace {

// The characters of a plain string literal token ("..."), escapes decoded; nullopt for prefixed
// or raw literals.
std::optional<std::string> decode_string(std::string_view token) {
  if (token.size() < 2 || token.front() != '"' || token.back() != '"') return std::nullopt;
  std::string out;
  for (std::size_t i = 1; i + 1 < token.size(); ++i) {
    char c = token[i];
    if (c != '\\' || i + 2 >= token.size()) {
      out += c;
      continue;
    }
    c = token[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'v': out += '\v'; break;
      case 'f': out += '\f'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'x': {
        int v = 0;
        while (i + 2 < token.size() && std::isxdigit(static_cast<unsigned char>(token[i + 1]))) {
          const char h = token[++i];
          v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
        }
        out += static_cast<char>(v);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0';
          for (int k = 0; k < 2 && i + 2 < token.size() && token[i + 1] >= '0' && token[i + 1] <= '7'; ++k) {
            v = v * 8 + (token[++i] - '0');
          }
          out += static_cast<char>(v);
        } else {
          out += c;  // \\ \" \' \?
        }
    }
  }
  return out;
}

bool is_string(const CodeTokens& t, std::size_t i) { return t[i].kind == TokenKind::String; }

}  // namespace

std::variant<AsmStatement, std::string> parse_asm_statement(const CodeTokens& t, std::size_t open, std::size_t close) {
  AsmStatement s;
  std::size_t i = open + 1;
  if (i >= close || !is_string(t, i)) {
    return std::string(
        "its instruction text is not a string literal (the emulator reads the instructions when it "
        "compiles the file, so they must be written out, not built by a macro)");
  }
  for (; i < close && is_string(t, i); ++i) {
    const std::optional<std::string> text = decode_string(t.text(i));
    if (!text) return std::string("its instruction text is not a plain \"...\" string literal");
    s.text += *text;
  }
  int section = 0;  // 1 outputs, 2 inputs, 3 clobbers, 4 goto labels
  while (i < close) {
    if (t.is_punct(i, ':')) {
      ++section;
      ++i;
      continue;
    }
    if (t.is_punct(i, ',')) {
      ++i;
      continue;
    }
    if (section == 4)
      return std::string("it is an `asm goto` (a jump out of the assembly), which the emulator cannot run");
    if (section == 0) return std::string("an unexpected '" + std::string(t.text(i)) + "' follows its instruction text");
    AsmOperand op;
    if (t.is_punct(i, '[')) {
      if (i + 2 >= close || !t.is_identifier(i + 1) || !t.is_punct(i + 2, ']')) {
        return std::string("an operand's [name] cannot be read");
      }
      op.name = std::string(t.text(i + 1));
      i += 3;
    }
    if (i >= close || !is_string(t, i)) {
      return std::string("an operand list holds '" + std::string(t.text(i < close ? i : close)) +
                         "' where a \"constraint\"(expression) was expected");
    }
    const std::optional<std::string> constraint = decode_string(t.text(i));
    if (!constraint) return std::string("an operand's constraint is not a plain string literal");
    ++i;
    if (section == 3) continue;  // a clobber: "memory", "cc", a register name
    if (i >= close || !t.is_punct(i, '('))
      return std::string("the operand \"" + *constraint + "\" has no (expression)");
    const std::optional<std::size_t> end = t.match_forward(i);
    if (!end || *end > close || *end == i + 1) {
      return std::string("the operand \"" + *constraint + "\" has no (expression)");
    }
    op.constraint = *constraint;
    op.expression = t.collapsed_text(i + 1, *end - 1);
    (section == 1 ? s.outputs : s.inputs).push_back(std::move(op));
    i = *end + 1;
  }
  return s;
}

bool looks_like_ptx(const std::string& text) {
  static const std::set<std::string> opcodes = {"abs",          "activemask",
                                                "add",          "addc",
                                                "and",          "applypriority",
                                                "atom",         "bar",
                                                "barrier",      "bfe",
                                                "bfi",          "bfind",
                                                "bmsk",         "bra",
                                                "brev",         "call",
                                                "clz",          "copysign",
                                                "cos",          "cp",
                                                "createpolicy", "cvt",
                                                "cvta",         "discard",
                                                "div",          "dp2a",
                                                "dp4a",         "elect",
                                                "ex2",          "fence",
                                                "fma",          "fns",
                                                "getctarank",   "griddepcontrol",
                                                "isspacep",     "ld",
                                                "ldmatrix",     "ldu",
                                                "lg2",          "lop3",
                                                "mad",          "mad24",
                                                "madc",         "mapa",
                                                "match",        "max",
                                                "mbarrier",     "membar",
                                                "min",          "mma",
                                                "mov",          "mul",
                                                "mul24",        "multimem",
                                                "nanosleep",    "neg",
                                                "not",          "or",
                                                "popc",         "prefetch",
                                                "prefetchu",    "prmt",
                                                "rcp",          "red",
                                                "redux",        "rem",
                                                "ret",          "rsqrt",
                                                "sad",          "selp",
                                                "set",          "setp",
                                                "shf",          "shfl",
                                                "shl",          "shr",
                                                "sin",          "slct",
                                                "sqrt",         "st",
                                                "stmatrix",     "sub",
                                                "subc",         "suld",
                                                "sust",         "szext",
                                                "tanh",         "testp",
                                                "tex",          "tld4",
                                                "vabsdiff",     "vadd",
                                                "vote",         "wgmma",
                                                "wmma",         "xor"};
  static const std::set<std::string> bare = {"trap", "exit", "brkpt", "pmevent"};
  static const std::set<std::string> special = {"laneid",      "warpid",      "nwarpid",     "smid",
                                                "nsmid",       "clock",       "clock64",     "clock_hi",
                                                "globaltimer", "lanemask_eq", "lanemask_lt", "lanemask_le",
                                                "lanemask_gt", "lanemask_ge", "tid",         "ntid",
                                                "ctaid",       "nctaid",      "gridid",      "dynamic_smem_size"};
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i < text.size() && (text[i] == '{' || text[i] == '@')) return true;
  if (text.compare(i, 5, ".reg ") == 0 || text.compare(i, 5, ".reg\t") == 0) return true;
  std::size_t end = i;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                               text[end] == '.' || text[end] == ':')) {
    ++end;
  }
  const std::string word = text.substr(i, end - i);
  const std::size_t dot = word.find('.');
  if (dot != std::string::npos && dot > 0 && opcodes.count(word.substr(0, dot))) return true;
  if (bare.count(word)) return true;
  for (std::size_t p = text.find('%'); p != std::string::npos; p = text.find('%', p + 1)) {
    std::size_t q = p + 1;
    if (q < text.size() && text[q] == '%') ++q;  // `%%laneid` as written in a C string with operands
    std::size_t e = q;
    while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_')) ++e;
    if (special.count(text.substr(q, e - q))) return true;
  }
  return false;
}

}  // namespace gpulab::rewriter
