// Finds the kernels of a file (templates too), asks region_analysis how each one's blocks run,
// and writes the region forms and the notes (region_rewrite.hpp).
#include "rewriter/region_rewrite.hpp"

#include <optional>

#include "rewriter/program_symbols.hpp"
#include "rewriter/region_analysis.hpp"
#include "rewriter/region_emit.hpp"

namespace gpulab::rewriter {
namespace {

bool is_specifier_with_arguments(const CodeTokens& t, std::size_t i) {
  for (std::string_view s : {"__launch_bounds__", "__attribute__", "__declspec", "__cluster_dims__", "__maxnreg__",
                             "alignas", "__align__", "__noinline__"}) {
    if (t.is_identifier(i, s)) return true;
  }
  return false;
}

// The names of a `template <...>` parameter list whose '<' is `open`.
std::vector<std::string> template_parameter_names(const CodeTokens& t, std::size_t open) {
  std::vector<std::string> names;
  int depth = 0;
  std::size_t last_name = 0;
  bool in_default = false;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{')) {
      i = closing_bracket(t, i).value_or(i);
      continue;
    }
    if (t.is_punct(i, '<')) ++depth;
    const bool end = t.is_punct(i, '>') && depth == 1;
    if (t.is_punct(i, '>')) --depth;
    if ((depth == 1 && t.is_punct(i, ',')) || end) {
      if (last_name) names.push_back(std::string(t.text(last_name)));
      last_name = 0;
      in_default = false;
    } else if (depth == 1 && t.is_punct(i, '=')) {
      in_default = true;
    } else if (depth == 1 && !in_default && t.is_name(i)) {
      last_name = i;
    }
    if (end) break;
  }
  return names;
}

std::optional<KernelSource> kernel_at(const CodeTokens& t, std::size_t global) {
  KernelSource k;
  std::size_t i = global + 1;
  for (; i < t.size(); ++i) {
    if (t.directive(i) != 0) continue;
    if (is_specifier_with_arguments(t, i) && t.is_punct(i + 1, '(')) {
      i = closing_bracket(t, i + 1).value_or(t.size());
      continue;
    }
    if (t.is_punct(i, ';') || t.is_punct(i, '{') || t.is_punct(i, '}') || t.is_punct(i, '=')) return std::nullopt;
    if (t.is_punct(i, '(')) break;
  }
  if (i >= t.size() || !t.is_name(i - 1)) return std::nullopt;
  k.name = std::string(t.text(i - 1));
  k.params_open = i;
  const std::optional<std::size_t> close = closing_bracket(t, i);
  if (!close) return std::nullopt;
  k.params_close = *close;
  std::size_t j = *close + 1;
  for (; j < t.size(); ++j) {
    if (t.directive(j) != 0) continue;
    if (t.is_punct(j, '(')) {
      j = closing_bracket(t, j).value_or(t.size());
      continue;
    }
    if (t.is_punct(j, '{')) break;
    if (t.is_punct(j, ';') || t.is_punct(j, '}') || t.is_punct(j, '=') || t.is_punct(j, ',')) return std::nullopt;
  }
  if (j >= t.size()) return std::nullopt;
  k.body_open = j;
  const std::optional<std::size_t> body_close = closing_bracket(t, j);
  if (!body_close) return std::nullopt;
  k.body_close = *body_close;
  for (std::size_t b = global; b-- > 0;) {  // back to the previous declaration: `template <...>`?
    if (t.directive(b) != 0) continue;
    if (t.is_punct(b, ';') || t.is_punct(b, '{') || t.is_punct(b, '}')) break;
    if (t.is_identifier(b, "template") && t.is_punct(b + 1, '<')) {
      k.template_parameters = template_parameter_names(t, b + 1);
      break;
    }
  }
  return k;
}

std::vector<KernelSource> kernels_of(const CodeTokens& t, const std::vector<TokenScope>& scope) {
  std::vector<KernelSource> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t.is_identifier(i, "__global__") || t.directive(i) != 0 || scope[i] != TokenScope::Namespace) continue;
    if (std::optional<KernelSource> k = kernel_at(t, i)) {
      i = k->body_close;
      out.push_back(std::move(*k));
    }
  }
  return out;
}

const char* kind_word(RegionDecision::Kind k) {
  switch (k) {
    case RegionDecision::Kind::regions: return "regions";
    case RegionDecision::Kind::fibers: return "fibers";
    default: return "plain calls";
  }
}

}  // namespace

void collect_region_forms(const CodeTokens& t, const std::vector<TokenScope>& scope, const RegionPassOptions& options,
                          std::vector<SourceEdit>& edits) {
  const std::vector<KernelSource> kernels = kernels_of(t, scope);
  if (kernels.empty()) return;
  ProgramSymbols symbols = program_symbols(t);
  if (options.program) add_program_names(symbols, *options.program);
  const std::vector<SourceEdit> others = edits;
  for (const KernelSource& k : kernels) {
    const RegionDecision d = analyse_kernel(t, symbols, k);
    if (options.region_forms && d.kind == RegionDecision::Kind::regions) {
      RegionEmitContext c{options.file_literal, options.line_of, &others};
      edits.push_back(region_form_edit(t, k, d, c));
    }
    if (!options.region_forms) continue;
    const Token& close = t[k.body_close];
    const int kind = d.kind == RegionDecision::Kind::plain_calls ? 0 : d.kind == RegionDecision::Kind::regions ? 1 : 2;
    SourceEdit note;
    note.begin = note.end = close.end;
    note.parts.push_back(EditPart::literal(" static const ::gpulab::emu::region_note gpulab_region_note_L" +
                                           std::to_string(close.line) + "C" + std::to_string(close.column) + "(\"" +
                                           escape_string_literal(k.name) + "\", \"" + options.file_literal + "\", " +
                                           std::to_string(options.line_of(k.body_open)) + ", " + std::to_string(kind) +
                                           ", \"" + escape_string_literal(d.reason) + "\");"));
    edits.push_back(std::move(note));
  }
}

std::vector<std::string> region_decisions(std::string_view source) {
  const CodeTokens t(source, "");
  const std::vector<TokenScope> scope = scope_map(t);
  const ProgramSymbols symbols = program_symbols(t);
  std::vector<std::string> out;
  for (const KernelSource& k : kernels_of(t, scope)) {
    const RegionDecision d = analyse_kernel(t, symbols, k);
    out.push_back(k.name + ": " + kind_word(d.kind) + ": " + d.reason);
  }
  return out;
}

}  // namespace gpulab::rewriter
