// Inline assembly rewriting (see inline_asm_rewrite.hpp).
#include "rewriter/inline_asm_rewrite.hpp"

#include "rewriter/asm_statement.hpp"
#include "rewriter/ptx_translate.hpp"

#include <optional>
#include <string>

namespace gpulab::rewriter {
namespace {

bool is_asm_keyword(const CodeTokens& t, std::size_t i) {
  return t.is_identifier(i, "asm") || t.is_identifier(i, "__asm__") || t.is_identifier(i, "__asm");
}
bool is_asm_qualifier(const CodeTokens& t, std::size_t i) {
  return t.is_identifier(i, "volatile") || t.is_identifier(i, "__volatile__") || t.is_identifier(i, "__volatile") ||
         t.is_identifier(i, "inline") || t.is_identifier(i, "goto");
}

std::string refusal(const std::string& message) {
  return "static_assert(false, \"" + escape_string_literal(message) + "\")";
}

// The C++ that replaces the statement between `open` and `close`.
std::string replacement(const CodeTokens& t, std::size_t open, std::size_t close) {
  auto parsed = parse_asm_statement(t, open, close);
  if (auto* why = std::get_if<std::string>(&parsed)) {
    return refusal("inline PTX (asm) the emulator cannot read: " + *why +
                   ". Write this step in CUDA C++ or run the file on a GPU (gpulab run --backend cuda)");
  }
  auto translated = translate_inline_ptx(std::get<AsmStatement>(parsed));
  if (auto* r = std::get_if<PtxRefusal>(&translated)) return refusal(r->message);
  return std::get<std::string>(translated);
}

// For each token: whether a function or lambda body around it was declared `__device__` or
// `__global__` (a kernel's body, a device function's, a `__device__` lambda's and every block in
// them), read from the tokens between the body's '{' and the ';', '{' or '}' before it.
std::vector<bool> device_body_map(const CodeTokens& t) {
  std::vector<bool> device(t.size(), false);
  std::vector<bool> open;  // for each '{' not yet closed: whether what it opens is device code
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool inside = !open.empty() && open.back();
    device[i] = inside;
    if (t.directive(i) != 0) continue;
    if (t.is_punct(i, '}')) {
      if (!open.empty()) open.pop_back();
    } else if (t.is_punct(i, '{')) {
      bool named = inside;
      for (std::size_t j = i; !named && j-- > 0;) {
        if (t.directive(j) != 0) continue;
        if (t.is_punct(j, ';') || t.is_punct(j, '{') || t.is_punct(j, '}')) break;
        named = t.is_identifier(j, "__device__") || t.is_identifier(j, "__global__");
      }
      open.push_back(named);
    }
  }
  return device;
}

}  // namespace

void collect_inline_asm(const CodeTokens& t, const std::vector<bool>& in_function, std::vector<SourceEdit>& edits) {
  std::vector<bool> device;  // made on the first asm statement
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!is_asm_keyword(t, i)) continue;
    const bool in_define = t.directive_name(i) == "define";
    if (!in_function[i] && !in_define) continue;  // asm labels and top-level asm belong to the host
    std::size_t open = i + 1;
    while (open < t.size() && t.directive(open) == t.directive(i) && is_asm_qualifier(t, open)) ++open;
    if (open >= t.size() || t.directive(open) != t.directive(i) || !t.is_punct(open, '(')) continue;
    const std::optional<std::size_t> close = t.match_forward(open);
    if (!close) continue;  // unbalanced: left for the compiler to report
    if (open + 1 < *close && t.text(open + 1) == "\"\"") {
      i = *close;  // `asm volatile("" ::: "memory")`: no instruction, a compiler barrier valid on both sides
      continue;
    }
    // Outside a body declared device code (a host function, a macro, a function whose qualifiers
    // come from a macro), an asm that is not PTX is the host's own assembly (Boost's x86 rounding
    // control, a cycle counter): the host compiler assembles it, as nvcc's host pass does.
    if (device.empty()) device = device_body_map(t);
    if (!device[i]) {
      const auto parsed = parse_asm_statement(t, open, *close);
      const auto* statement = std::get_if<AsmStatement>(&parsed);
      if (!statement || !looks_like_ptx(statement->text)) {
        i = *close;
        continue;
      }
    }
    SourceEdit edit;
    edit.begin = t[i].begin;
    edit.end = t[*close].end;
    edit.parts.push_back(
        EditPart::literal(replacement(t, open, *close) + t.layout_of(edit.begin, edit.end, in_define)));
    edits.push_back(std::move(edit));
    i = *close;
  }
}

}  // namespace gpulab::rewriter
