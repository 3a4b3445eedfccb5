// Reading and matching grader/audit/allowed_calls.json (see allowed_calls.hpp).
#include "audit/allowed_calls.hpp"

#include <map>
#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "audit/symbol_names.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"

namespace gpulab::audit {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
[[noreturn]] void malformed(const fs::path& file, const std::string& where, const std::string& what) {
  throw files::GraderError("the audit's list " + file.string() + " is malformed at " + where + ": " + what +
                           " (grader/audit/README.md says how the file is written)");
}

std::vector<std::string> strings(const json& entry, const char* field, const fs::path& file, const std::string& where) {
  std::vector<std::string> out;
  if (!entry.contains(field)) return out;
  if (!entry[field].is_array()) malformed(file, where + "." + field, "a list of strings is expected");
  for (const json& s : entry[field]) {
    if (!s.is_string() || s.get<std::string>().empty())
      malformed(file, where + "." + field, "a non-empty string is expected");
    out.push_back(s.get<std::string>());
  }
  return out;
}

std::vector<toolchain::Backend> backends(const json& entry, const fs::path& file, const std::string& where) {
  std::vector<toolchain::Backend> out;
  for (const std::string& name : strings(entry, "backends", file, where)) {
    if (name != "emu" && name != "cuda") malformed(file, where + ".backends", "'" + name + "' is neither emu nor cuda");
    out.push_back(toolchain::parse_backend(name));
  }
  return out;
}

void check_fields(const json& entry, std::initializer_list<const char*> known, const fs::path& file,
                  const std::string& where) {
  if (!entry.is_object()) malformed(file, where, "an object is expected");
  for (const auto& [key, value] : entry.items()) {
    bool ok = false;
    for (const char* k : known) ok = ok || key == k;
    if (!ok) malformed(file, where, "unknown field '" + key + "'");
  }
}

AllowedCalls parse(const fs::path& file) {
  json doc;
  try {
    doc = json::parse(files::read_whole_file(file));
  } catch (const json::exception& e) {
    malformed(file, "the top", e.what());
  }
  check_fields(doc, {"review", "harness", "hooks", "allow", "deny"}, file, "the top");
  AllowedCalls calls;
  calls.harness = strings(doc, "harness", file, "harness");
  calls.hooks = strings(doc, "hooks", file, "hooks");
  for (size_t i = 0; i < doc.value("allow", json::array()).size(); ++i) {
    const std::string where = "allow[" + std::to_string(i) + "]";
    const json& e = doc["allow"][i];
    check_fields(e, {"names", "libraries", "backends", "why", "only_from"}, file, where);
    if (!e.contains("why")) malformed(file, where, "every entry says why it is allowed (\"why\")");
    calls.allow.push_back({strings(e, "names", file, where), strings(e, "libraries", file, where),
                           backends(e, file, where), strings(e, "only_from", file, where)});
    if (!calls.allow.back().only_from.empty() && !calls.allow.back().libraries.empty()) {
      malformed(file, where, "an entry with only_from names its names, not libraries");
    }
  }
  for (size_t i = 0; i < doc.value("deny", json::array()).size(); ++i) {
    const std::string where = "deny[" + std::to_string(i) + "]";
    const json& e = doc["deny"][i];
    check_fields(e, {"names", "kind", "does", "backends"}, file, where);
    const std::optional<FindingKind> kind = parse_kind(e.value("kind", std::string("forbidden_call")));
    if (!kind) malformed(file, where + ".kind", "not a kind of finding (grader/audit/finding.hpp)");
    if (!e.contains("does") || !e["does"].is_string() || e["does"].get<std::string>().empty()) {
      malformed(file, where + ".does", "every deny entry says what the call does, for the student");
    }
    calls.deny.push_back(
        {strings(e, "names", file, where), *kind, e["does"].get<std::string>(), backends(e, file, where)});
  }
  return calls;
}
}  // namespace

bool applies_to(const std::vector<toolchain::Backend>& list, toolchain::Backend backend) {
  if (list.empty()) return true;
  for (const toolchain::Backend b : list) {
    if (b == backend) return true;
  }
  return false;
}

bool matches_any(const std::vector<std::string>& patterns, const std::string& key) {
  for (const std::string& p : patterns) {
    if (glob_match(p, key)) return true;
  }
  return false;
}

bool AllowedCalls::is_harness(const std::string& key) const { return matches_any(harness, key); }

const AllowEntry* AllowedCalls::allowed_only_from(const std::string& key, toolchain::Backend backend) const {
  for (const AllowEntry& e : allow) {
    if (!e.only_from.empty() && applies_to(e.backends, backend) && matches_any(e.names, key)) return &e;
  }
  return nullptr;
}

std::vector<std::string> AllowedCalls::only_from_names() const {
  std::vector<std::string> names;
  for (const AllowEntry& e : allow) {
    for (const std::string& p : e.only_from) {
      const size_t scope = p.rfind("::");
      names.push_back(scope == std::string::npos ? p : p.substr(scope + 2));
    }
  }
  return names;
}

const DenyEntry* AllowedCalls::denied(const std::string& key, toolchain::Backend backend) const {
  for (const DenyEntry& e : deny) {
    if (applies_to(e.backends, backend) && matches_any(e.names, key)) return &e;
  }
  return nullptr;
}

fs::path allowed_calls_file() { return toolchain::project_root() / "grader" / "audit" / "allowed_calls.json"; }

const AllowedCalls& allowed_calls(const fs::path& file) {
  static std::mutex mutex;
  static std::map<fs::path, std::unique_ptr<AllowedCalls>> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<AllowedCalls>& calls = loaded[file];
  if (!calls) calls = std::make_unique<AllowedCalls>(parse(file));
  return *calls;
}

}  // namespace gpulab::audit
