// Host-side inline assembly and reserved start-up names in a submission's source (see
// source_scan.hpp).
#include "audit/source_scan.hpp"

#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <optional>
#include <set>

#include "audit/source_lines.hpp"
#include "audit/symbol_names.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "rewriter/cuda_lexer.hpp"
#include "toolchain/local_headers.hpp"
#include "toolchain/audit_inputs.hpp"

namespace gpulab::audit {
namespace fs = std::filesystem;
using rewriter::Token;
using rewriter::TokenKind;

namespace {
std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool is_asm_keyword(std::string_view word) { return word == "asm" || word == "__asm__" || word == "__asm"; }

// The characters of a string literal's body (prefix, quotes and raw-string delimiters removed).
std::string literal_body(std::string_view literal) {
  const size_t quote = literal.find('"');
  if (quote == std::string_view::npos) return {};
  const bool raw = quote > 0 && literal[quote - 1] == 'R';
  std::string_view body = literal.substr(quote + 1);
  if (raw) {
    const size_t open = body.find('(');
    const size_t close = body.rfind(')');
    return open == std::string_view::npos || close == std::string_view::npos || close < open
               ? std::string()
               : std::string(body.substr(open + 1, close - open - 1));
  }
  if (!body.empty() && body.back() == '"') body.remove_suffix(1);
  return std::string(body);
}

// Whether a template holds an instruction: anything but white space and its escapes.
bool holds_instruction(const std::string& body) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size() &&
        std::string_view("ntrvf").find(body[i + 1]) != std::string_view::npos) {
      ++i;
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(body[i]))) return true;
  }
  return false;
}

struct Significant {
  std::string_view text;
  std::vector<Token> tokens;  // non-trivia only
  std::string_view at(size_t i) const { return tokens[i].text(text); }
  bool punct(size_t i, char c) const { return tokens[i].kind == TokenKind::Punct && at(i) == std::string_view(&c, 1); }
};

Significant significant_tokens(std::string_view text) {
  Significant s{text, {}};
  for (const Token& t : rewriter::lex_cuda(text)) {
    if (!rewriter::is_trivia(t.kind)) s.tokens.push_back(t);
  }
  return s;
}

// The index of the token before i that belongs to the same code: the same #define's tokens, or
// code outside every directive (an `#if` line between two declarations is not before the asm).
std::optional<size_t> previous_token(const Significant& s, size_t i) {
  for (size_t p = i; p-- > 0;) {
    if (s.tokens[p].directive == s.tokens[i].directive) return p;
  }
  return std::nullopt;
}

// Whether token i starts the replacement text of its #define (`#define NAME asm(...)`,
// `#define NAME(a, b) asm(...)`).
bool starts_macro_body(const Significant& s, size_t i) {
  size_t first = i;
  while (first > 0 && s.tokens[first - 1].directive == s.tokens[i].directive) --first;
  if (first + 2 >= i || s.at(first + 1) != "define") return false;
  size_t body = first + 3;  // after '#', 'define', NAME
  if (body < s.tokens.size() && s.punct(body, '(') && s.tokens[body].begin == s.tokens[body - 1].end) {
    while (body < i && !s.punct(body, ')')) ++body;
    ++body;
  }
  return body == i;
}

// An asm after a declarator (`int f() asm("name")`, `register int r asm("rax")`) names a symbol or
// register; an asm where a statement or declaration starts is a statement.
bool is_label(const Significant& s, size_t i) {
  if (s.tokens[i].directive && starts_macro_body(s, i)) return false;
  const std::optional<size_t> previous = previous_token(s, i);
  if (!previous) return false;
  const size_t p = *previous;
  if (s.tokens[p].kind == TokenKind::Identifier) {
    const std::string_view w = s.at(p);
    return w != "else" && w != "do" && w != "return";
  }
  if (s.punct(p, ']')) return true;
  if (!s.punct(p, ')')) return false;
  int depth = 0;
  for (size_t k = p + 1; k-- > 0;) {
    if (s.tokens[k].directive != s.tokens[i].directive) continue;
    if (s.punct(k, ')')) ++depth;
    if (s.punct(k, '(') && --depth == 0) {
      const std::optional<size_t> before = previous_token(s, k);
      if (!before) return true;
      const std::string_view w = s.at(*before);
      return !(w == "if" || w == "while" || w == "for" || w == "switch");
    }
  }
  return true;
}

const char* kReservedPrefixes[] = {"_GLOBAL__", "__sti__"};

struct ProgramFile {
  fs::path path;     // the original's, for lines and for telling the program's files apart
  std::string text;  // what the compiler read: the rewritten copy on the emulator, where there is one
};

std::vector<ProgramFile> program_files(const fs::path& source, toolchain::Backend backend,
                                       const fs::path& build_folder) {
  const std::string text = read_text(source);
  const bool emu = backend == toolchain::Backend::emu;
  const fs::path original = emu ? fs::path(LineMarkers(text, source.string()).first_file()) : source;
  std::vector<ProgramFile> files = {{original, text}};
  std::error_code ec;
  if (!fs::is_regular_file(original, ec)) return files;  // the original is gone: its headers cannot be found
  const std::vector<fs::path> sources = {fs::absolute(original)};
  const auto search = toolchain::program_header_search(emu, toolchain::include_folders({}, sources));
  for (const toolchain::LocalHeader& h : toolchain::find_local_headers(sources, {read_text(original)}, search)) {
    const fs::path copy = build_folder / "headers" / h.path.relative_path();
    files.push_back({h.path, emu && fs::is_regular_file(copy, ec) ? read_text(copy) : h.text});
  }
  return files;
}

Finding asm_finding(const AsmStatement& a, const std::string& file, int line) {
  std::string shown = a.text.size() > 60 ? a.text.substr(0, 57) + "..." : a.text;
  return {FindingKind::inline_assembly, "asm(\"" + a.text + "\")",
          "has inline assembly in host code (asm(\"" + shown +
              "\")): a graded function has no use for it; write it in C++ (inline PTX belongs in device code)",
          fs::path(file).filename().string() + ":" + std::to_string(line)};
}

// The translation unit the host compiler saw, preprocessed: on the emulator the rewritten source
// through g++ -E with the emulator's header and the rewritten headers' folders first (as the
// build's -I options put them); with nvcc, nvcc -cuda (device functions' bodies removed). nullopt
// when the compiler fails on it.
std::optional<std::string> host_view(const fs::path& source, toolchain::Backend backend,
                                     const std::vector<ProgramFile>& files, const fs::path& build_folder,
                                     const toolchain::CompileRunner& run_compiler, const std::string& cuda_arch) {
  files::TempFolder folder("audit", toolchain::cache_directory() / "building");
  chmod(folder.path().c_str(), 0755);  // as a build folder (the sandbox's user writes it)
  const fs::path out = folder / "host.ii";
  const fs::path program_folder = files.front().path.parent_path();
  toolchain::CompileJob job{{}, folder.path(), {source}};
  if (backend == toolchain::Backend::emu) {
    job.argv = {toolchain::host_compiler(),  "-std=c++20", "-E", "-include", "gpulab/emu/cuda_emulation.hpp", "-I",
                toolchain::emu_include_dir()};
    std::error_code ec;
    const fs::path copies = build_folder / "headers" / program_folder.relative_path();
    if (fs::is_directory(copies, ec)) job.argv.insert(job.argv.end(), {"-I", copies.string()});
    job.argv.insert(job.argv.end(), {"-I", program_folder.string(), source.string(), "-o", out.string()});
    job.reads.push_back(toolchain::emu_include_dir());
    if (fs::is_directory(build_folder / "headers", ec)) job.reads.push_back(build_folder / "headers");
  } else {
    // For the object's architecture, as its build: device code (inline PTX of sm_80 and later)
    // may not compile for nvcc's default one.
    const std::string arch = cuda_arch.rfind("sm_", 0) == 0 ? cuda_arch.substr(3) : cuda_arch;
    job.argv = {toolchain::nvcc_path(),
                "-std=c++20",
                "-cuda",
                "-gencode",
                "arch=compute_" + arch + ",code=sm_" + arch,
                "-I",
                program_folder.string(),
                source.string(),
                "-o",
                out.string()};
  }
  for (const ProgramFile& f : files) job.reads.push_back(f.path);
  process::ProcessOptions options;
  options.time_limit_s = 300;
  const process::ProcessResult p = run_compiler ? run_compiler(job) : process::run(job.argv, options);
  if (!p.started()) throw files::GraderError("the audit cannot start the compiler: " + p.spawn_error);
  std::error_code ec;
  if (p.status() != 0 || !fs::is_regular_file(fs::symlink_status(out, ec))) return std::nullopt;
  return read_text(out);
}
}  // namespace

std::vector<AsmStatement> asm_statements(std::string_view text) {
  std::vector<AsmStatement> found;
  const Significant s = significant_tokens(text);
  for (size_t i = 0; i < s.tokens.size(); ++i) {
    if (s.tokens[i].kind != TokenKind::Identifier || !is_asm_keyword(s.at(i)) || is_label(s, i)) continue;
    size_t j = i + 1;
    while (j < s.tokens.size() && (s.at(j) == "volatile" || s.at(j) == "__volatile__" || s.at(j) == "__volatile" ||
                                   s.at(j) == "goto" || s.at(j) == "inline")) {
      ++j;
    }
    if (j >= s.tokens.size() || !s.punct(j, '(')) continue;
    std::string body;
    size_t k = j + 1;
    for (; k < s.tokens.size() && s.tokens[k].kind == TokenKind::String; ++k) body += literal_body(s.at(k));
    if (k == j + 1) {  // not a literal (a macro, say): its tokens up to the first ':' or ')'
      for (; k < s.tokens.size() && !s.punct(k, ':') && !s.punct(k, ')'); ++k) body += std::string(s.at(k)) + " ";
      if (body.empty()) continue;
    } else if (!holds_instruction(body)) {
      continue;
    }
    found.push_back({s.tokens[i].line, body});
  }
  return found;
}

std::vector<Finding> scan_source(const fs::path& source, toolchain::Backend backend, const fs::path& build_folder,
                                 const toolchain::CompileRunner& run_compiler, const std::vector<std::string>& reserved,
                                 const std::string& cuda_arch) {
  std::vector<Finding> findings;
  const std::vector<ProgramFile> files = program_files(source, backend, build_folder);
  bool any_asm = false;
  std::set<std::string> named;  // each reserved name once, where it first appears
  for (const ProgramFile& f : files) {
    const LineMarkers markers(f.text, f.path.string());
    for (const Token& t : significant_tokens(f.text).tokens) {
      // An identifier, or a string literal that names a symbol (an asm label, an alias attribute).
      if (t.kind != TokenKind::Identifier && t.kind != TokenKind::String) continue;
      const std::string body = t.kind == TokenKind::String ? literal_body(t.text(f.text)) : std::string();
      const std::string_view word = t.kind == TokenKind::String ? std::string_view(body) : t.text(f.text);
      if (word.empty() || named.count(std::string(word))) continue;
      for (const char* prefix : kReservedPrefixes) {
        if (word.rfind(prefix, 0) != 0) continue;
        named.insert(std::string(word));
        const LineMarkers::Origin o = markers.origin(t.line);
        findings.push_back({FindingKind::early_constructor, std::string(word),
                            "names something " + std::string(word) +
                                ", a name reserved for the compiler's own start-up code: a submission may not use it",
                            fs::path(o.file).filename().string() + ":" + std::to_string(o.line)});
      }
      for (const std::string& pattern : reserved) {
        if (!glob_match(pattern, word) || !named.insert(std::string(word)).second) continue;
        const LineMarkers::Origin o = markers.origin(t.line);
        findings.push_back({FindingKind::other, std::string(word),
                            "names something " + std::string(word) +
                                ", a name of a library's own code that the audit trusts by its name: a submission "
                                "may not use it",
                            fs::path(o.file).filename().string() + ":" + std::to_string(o.line)});
        break;
      }
    }
    any_asm = any_asm || !asm_statements(f.text).empty();
  }
  if (!any_asm) return findings;  // the common case: no compiler run

  // Some asm statement is in the text: which ones the host compiler compiled (not in a branch the
  // preprocessor drops; with nvcc, not in device code) is read from its preprocessed view.
  const std::optional<std::string> host = host_view(source, backend, files, build_folder, run_compiler, cuda_arch);
  if (!host) {
    findings.push_back({FindingKind::other, "asm",
                        "holds inline assembly, and the compiler could not preprocess the file again to tell host "
                        "code from device code: to be reviewed by hand",
                        files.front().path.filename().string()});
    return findings;
  }
  std::set<std::string> program;
  for (const ProgramFile& f : files) program.insert(fs::absolute(f.path).lexically_normal().string());
  const LineMarkers markers(*host, source.string());
  for (const AsmStatement& a : asm_statements(*host)) {
    const LineMarkers::Origin o = markers.origin(a.line);
    if (o.system || !program.count(fs::absolute(o.file).lexically_normal().string())) continue;
    findings.push_back(asm_finding(a, o.file, o.line));
  }
  return findings;
}

}  // namespace gpulab::audit
