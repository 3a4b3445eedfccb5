// Demangled names and their keys (see symbol_names.hpp). The key is cut out of the demangler's
// text by hand: the demangler (abi::__cxa_demangle) gives no structure, and the cuts below
// (parameters, return type, template arguments) follow the shape of its output.
#include "audit/symbol_names.hpp"

#include <cxxabi.h>

#include <array>
#include <cctype>
#include <cstdlib>
#include <memory>

namespace gpulab::audit {

std::string_view unversioned(std::string_view name) {
  const size_t at = name.find('@');
  return at == std::string_view::npos ? name : name.substr(0, at);
}

std::string demangled(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                    std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

namespace {
bool starts_operator(const std::string& s, size_t i) {
  return s.compare(i, 8, "operator") == 0 && (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ') &&
         (i + 8 >= s.size() || !(std::isalnum(static_cast<unsigned char>(s[i + 8])) || s[i + 8] == '_'));
}

// Removes every "[abi:...]" tag and a trailing " [clone ...]".
std::string without_tags(std::string s) {
  for (size_t at; (at = s.find("[abi:")) != std::string::npos;) {
    const size_t end = s.find(']', at);
    s.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
  }
  if (const size_t clone = s.find(" [clone "); clone != std::string::npos) s.erase(clone);
  return s;
}

// The text before a trailing parameter list (and the qualifiers after it), if it has one.
std::string without_parameters(const std::string& s) {
  const size_t close = s.rfind(')');
  if (close == std::string::npos) return s;
  // After a parameter list only qualifiers follow; "(anonymous namespace)::x" and "{lambda(int)#1}"
  // hold no parameter list at their end.
  std::string rest = s.substr(close + 1);
  for (const char* qualifier : {"volatile", "const", "&&", "&", " "}) {
    for (size_t at; (at = rest.find(qualifier)) != std::string::npos;)
      rest.erase(at, std::string_view(qualifier).size());
  }
  if (!rest.empty()) return s;
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == ')') ++depth;
    if (s[i] == '(' && --depth == 0) return s.substr(0, i);
  }
  return s;
}

// The text after a template function's return type: after the last space outside brackets,
// before an `operator` (whose own name may hold spaces and brackets).
std::string without_return_type(const std::string& s) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (depth == 0 && starts_operator(s, i)) break;
    if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
    if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (c == ' ' && depth == 0) start = i + 1;
  }
  return s.substr(start);
}

// The name with every template argument list removed (an operator's own `<`, `<<`, `->` kept).
std::string without_template_arguments(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (starts_operator(s, i)) {
      out += "operator";
      i += 8;
      if (i < s.size() && s[i] == ' ') {  // new, delete, a conversion: the rest is its name
        out += s.substr(i);
        break;
      }
      if (s.compare(i, 2, "()") == 0 || s.compare(i, 2, "[]") == 0) {
        out += s.substr(i, 2);
        i += 2;
      }
      while (i < s.size() && std::string_view("<>=!+-*/%^&|~,").find(s[i]) != std::string_view::npos) out += s[i++];
      while (i < s.size() && s[i] == ' ') ++i;
      continue;
    }
    if (s[i] == '<') {
      int depth = 0;
      for (; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        if (s[i] == '>' && --depth == 0) break;
      }
      ++i;
      continue;
    }
    out += s[i++];
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}
}  // namespace

std::string symbol_key(const std::string& demangled_name) {
  static const std::array<const char*, 14> prefixes = {"vtable for ",
                                                       "VTT for ",
                                                       "typeinfo for ",
                                                       "typeinfo name for ",
                                                       "guard variable for ",
                                                       "construction vtable for ",
                                                       "non-virtual thunk to ",
                                                       "virtual thunk to ",
                                                       "covariant return thunk to ",
                                                       "TLS init function for ",
                                                       "TLS wrapper function for ",
                                                       "transaction clone for ",
                                                       "hidden alias for ",
                                                       "reference temporary "};
  std::string s = without_tags(demangled_name);
  for (bool again = true; again;) {
    again = false;
    for (const char* p : prefixes) {
      if (s.rfind(p, 0) != 0) continue;
      s.erase(0, std::string_view(p).size());
      if (std::string_view(p) == "reference temporary ")
        s.erase(0, s.find(" for ") == std::string::npos ? 0 : s.find(" for ") + 5);
      if (std::string_view(p) == "construction vtable for " && s.find("-in-") != std::string::npos) {
        s.resize(s.find("-in-"));
      }
      again = true;
    }
  }
  return without_template_arguments(without_return_type(without_parameters(s)));
}

namespace {
// Whether pattern[p] starts a class: a '[' with a ']' after at least one character ("[]", as in
// `operator new[]`, is literal).
bool is_class(std::string_view pattern, size_t p) {
  return pattern[p] == '[' && p + 1 < pattern.size() && pattern[p + 1] != ']' &&
         pattern.find(']', p + 2) != std::string_view::npos;
}

// Whether `c` is in the class that starts at pattern[p] ('['); `end` is set past its ']'.
bool in_class(std::string_view pattern, size_t p, char c, size_t& end) {
  bool found = false;
  size_t i = p + 1;
  for (; i < pattern.size() && pattern[i] != ']'; ++i) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      found = found || (pattern[i] <= c && c <= pattern[i + 2]);
      i += 2;
    } else {
      found = found || pattern[i] == c;
    }
  }
  end = i < pattern.size() ? i + 1 : i;
  return found;
}
}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    size_t class_end = 0;
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && is_class(pattern, p) && in_class(pattern, p, text[t], class_end)) {
      p = class_end;
      ++t;
    } else if (p < pattern.size() && !is_class(pattern, p) && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace gpulab::audit
