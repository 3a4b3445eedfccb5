// The names a symbol mentions, and the lab's library algorithms matched against them (see
// library_algorithms.hpp). The demangler gives text, not structure, so the names are cut out of
// its output by hand: identifiers joined by `::` form a name, a template argument list is a name
// of its own level (`<` opens one, `>` closes it and the outer name goes on: `A<int>::f` is
// `A::f`), and anything else (spaces, commas, parentheses, `*`, `&`) ends a name.
#include "audit/library_algorithms.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "audit/symbol_names.hpp"

namespace gpulab::audit {

namespace {
bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// CUB_300001_SM_900, CUB_300001_SM_800_900, THRUST_300001_SM_900_NS, and libcu++'s __4.
bool inline_namespace(std::string_view part) {
  if (part.size() > 2 && part.substr(0, 2) == "__") return digits(part.substr(2));
  for (const std::string_view library : {"CUB_", "THRUST_", "CCCL_"}) {
    if (part.substr(0, library.size()) != library) continue;
    const std::string_view rest = part.substr(library.size());
    return !rest.empty() && rest[0] >= '0' && rest[0] <= '9' && std::all_of(rest.begin(), rest.end(), [](char c) {
      return (c >= '0' && c <= '9') || c == '_' || (c >= 'A' && c <= 'Z');
    });
  }
  return false;
}

constexpr std::string_view kStub = "__device_stub_";  // nvcc's host stub: __device_stub_ + the kernel's mangled name

class NameCutter {
 public:
  explicit NameCutter(std::vector<std::string>& out) : out_(out) {}

  void cut(const std::string& text) {
    frames_.assign(1, "");
    for (size_t i = 0; i < text.size();) {
      const char c = text[i];
      if (identifier_char(c)) {
        const size_t start = i;
        while (i < text.size() && identifier_char(text[i])) ++i;
        frames_.back() += text.substr(start, i - start);
        if (ends_with_operator(frames_.back())) i = skip_operator(text, i);
      } else if (text.compare(i, 2, "::") == 0) {
        frames_.back() += "::";
        i += 2;
      } else if (c == '<') {
        frames_.emplace_back();
        ++i;
      } else if (c == '>' && frames_.size() > 1) {
        emit(frames_.back());
        frames_.pop_back();
        ++i;
      } else {
        emit(frames_.back());
        frames_.back().clear();
        ++i;
      }
    }
    while (!frames_.empty()) {
      emit(frames_.back());
      frames_.pop_back();
    }
  }

 private:
  static bool ends_with_operator(const std::string& name) {
    constexpr std::string_view op = "operator";
    return name.size() >= op.size() && name.compare(name.size() - op.size(), op.size(), op) == 0 &&
           (name.size() == op.size() || name[name.size() - op.size() - 1] == ':');
  }

  // An operator's own characters (`operator()`, `operator<<`, `operator->`) are part of its name,
  // not brackets.
  size_t skip_operator(const std::string& text, size_t i) {
    if (text.compare(i, 2, "()") == 0 || text.compare(i, 2, "[]") == 0) {
      frames_.back() += text.substr(i, 2);
      i += 2;
    }
    while (i < text.size() && std::string_view("<>=!+-*/%^&|~,").find(text[i]) != std::string_view::npos) {
      frames_.back() += text[i++];
    }
    return i;
  }

  void emit(const std::string& raw) {
    if (raw.empty() || !(std::isalpha(static_cast<unsigned char>(raw[0])) || raw[0] == '_' || raw[0] == ':')) return;
    const std::string name = without_inline_namespaces(raw);
    if (name.empty()) return;
    // A kernel's stub: the names of the kernel it launches.
    const size_t last = name.rfind("::");
    const std::string tail = last == std::string::npos ? name : name.substr(last + 2);
    if (tail.rfind(kStub, 0) == 0 && tail.compare(kStub.size(), 2, "_Z") == 0) {
      for (const std::string& n : mentioned_names(demangled(tail.substr(kStub.size())))) {
        if (std::find(out_.begin(), out_.end(), n) == out_.end()) out_.push_back(n);
      }
      return;
    }
    if (std::find(out_.begin(), out_.end(), name) == out_.end()) out_.push_back(name);
  }

  std::vector<std::string>& out_;
  std::vector<std::string> frames_;
};
}  // namespace

std::string without_inline_namespaces(const std::string& qualified_name) {
  std::string out;
  size_t start = 0;
  while (start <= qualified_name.size()) {
    const size_t end = std::min(qualified_name.find("::", start), qualified_name.size());
    const std::string_view part(qualified_name.data() + start, end - start);
    if (!part.empty() && !inline_namespace(part)) {
      if (!out.empty()) out += "::";
      out += part;
    }
    start = end + 2;
  }
  return out;
}

namespace {
// The names in a mangled name the demangler could not read (the C++ library's demangler refuses
// some lambdas of variadic templates that binutils reads): each run of source names written back
// to back (`7cutlass4gemm6device4Gemm`) is a qualified name, `cutlass::gemm::device::Gemm`; a name
// whose prefix the mangling abbreviates (`NS4_6layout8RowMajor`) gives only what it writes out.
std::vector<std::string> names_in_mangled(const std::string& mangled) {
  std::vector<std::string> names;
  std::string run;
  const auto end_run = [&] {
    if (!run.empty()) {
      const std::string name = without_inline_namespaces(run);
      if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    run.clear();
  };
  for (size_t i = 2; i < mangled.size();) {
    if (!std::isdigit(static_cast<unsigned char>(mangled[i]))) {
      end_run();
      ++i;
      continue;
    }
    size_t digits_end = i;
    while (digits_end < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[digits_end]))) ++digits_end;
    const size_t length = std::stoul(mangled.substr(i, std::min<size_t>(digits_end - i, 6)));
    const bool source_name = length > 0 && digits_end + length <= mangled.size() &&
                             !std::isdigit(static_cast<unsigned char>(mangled[digits_end])) &&
                             std::all_of(mangled.begin() + static_cast<long>(digits_end),
                                         mangled.begin() + static_cast<long>(digits_end + length), identifier_char);
    if (!source_name) {
      end_run();
      i = digits_end;
      continue;
    }
    run += (run.empty() ? "" : "::") + mangled.substr(digits_end, length);
    i = digits_end + length;
  }
  end_run();
  return names;
}
}  // namespace

std::vector<std::string> mentioned_names(const std::string& demangled_name) {
  if (demangled_name.rfind("_Z", 0) == 0) return names_in_mangled(demangled_name);  // not demangled
  std::string text = demangled_name;
  // "(anonymous namespace)::f" is one name.
  for (size_t at; (at = text.find("(anonymous namespace)")) != std::string::npos;) {
    text.replace(at, std::string_view("(anonymous namespace)").size(), "anonymous_namespace");
  }
  std::vector<std::string> names;
  NameCutter(names).cut(text);
  return names;
}

bool library_pattern_matches(const std::string& pattern, const std::string& name) {
  return glob_match(pattern, name) || glob_match("*::" + pattern, name);
}

std::optional<LibraryMatch> match_library_algorithm(const LibraryRules& rules, const std::string& name) {
  for (size_t a = 0; a < rules.algorithms.size(); ++a) {
    const std::vector<std::string>& patterns = rules.algorithms[a].names;
    for (size_t p = 0; p < patterns.size(); ++p) {
      if (library_pattern_matches(patterns[p], name)) return LibraryMatch{a, p};
    }
  }
  return std::nullopt;
}

bool mentions_library_algorithm(const LibraryRules& rules, const std::string& demangled_name) {
  if (rules.algorithms.empty()) return false;
  for (const std::string& name : mentioned_names(demangled_name)) {
    if (match_library_algorithm(rules, name)) return true;
  }
  return false;
}

}  // namespace gpulab::audit
