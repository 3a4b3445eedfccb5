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

}  // namespace

void collect_inline_asm(const CodeTokens& t, const std::vector<bool>& in_function, std::vector<SourceEdit>& edits) {
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
