// Helpers of the audit's tests (see audit_test_support.hpp).
#include "audit_test_support.hpp"

#include <atomic>
#include <exception>
#include <iostream>
#include <thread>

#include "audit/elf_object.hpp"
#include "audit/protected_symbols.hpp"
#include "lab/lab_spec.hpp"
#include "toolchain/audit_inputs.hpp"

namespace gpulab_test {
namespace fs = std::filesystem;
using gpulab::toolchain::Backend;

fs::path source_dir() { return GPULAB_TEST_SOURCE_DIR; }

std::vector<Backend> audit_backends() {
  std::vector<Backend> backends = {Backend::emu};
  if (gpulab::toolchain::cuda_backend_available()) backends.push_back(Backend::cuda);
  return backends;
}

gpulab::audit::LibraryRules lab_library_rules(const std::string& lab) {
  gpulab::audit::LibraryRules rules;
  for (const auto& folder : fs::directory_iterator(source_dir() / "assignments")) {
    if (!lab.empty() && folder.path().filename() != lab) continue;
    const gpulab::LabSpec spec = gpulab::load_lab_spec(folder.path() / "lab.json");
    rules.task = spec.library_algorithms.task;
    rules.allowed = spec.library_algorithms.allowed;
    for (const auto& a : spec.library_algorithms.algorithms) rules.algorithms.push_back({a.names, a.is});
  }
  return rules;
}

Audited audit_file(const fs::path& cu, Backend backend, const gpulab::audit::LibraryRules& rules) {
  Audited a{cu, backend, false, "", {}, {}};
  gpulab::toolchain::BuildOptions options;
  options.backend = backend;
  options.object_file = true;
  const gpulab::toolchain::BuildResult built = gpulab::toolchain::build_program(cu, options);
  a.compiled = built.ok;
  a.compiler_output = built.compiler_output;
  if (!built.ok) return a;
  const fs::path source =
      backend == Backend::emu ? gpulab::toolchain::emulator_rewritten_source(built.executable, cu) : fs::absolute(cu);
  a.object = built.executable;
  a.result = gpulab::audit::audit_object(built.executable, backend, source, {}, "sm_90", rules);
  std::cout << "audit of " << cu.filename().string() << " (" << gpulab::toolchain::backend_name(backend)
            << "): " << static_cast<int>(a.result.seconds * 1000 + 0.5) << " ms, " << a.result.findings.size()
            << " finding(s)\n";
  // Each finding's kind and symbol, so that a failure's log says what was found even where the
  // message of the failed check is cut short.
  for (const auto& f : a.result.findings)
    std::cout << "  [" << gpulab::audit::kind_name(f.kind) << "] " << f.symbol << "\n";
  // And the libraries whose names it protected (the table is in memory by now).
  std::cout << "  protected:";
  for (const auto& l : gpulab::audit::protected_symbols(backend)->libraries) std::cout << " " << l.id;
  std::cout << "\n";
  return a;
}

std::vector<Audited> audit_files(const std::vector<fs::path>& files, Backend backend,
                                 const std::vector<gpulab::audit::LibraryRules>& rules) {
  std::vector<Audited> results(files.size());
  std::vector<std::exception_ptr> errors(files.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i; (i = next++) < files.size();) {
      try {
        const gpulab::audit::LibraryRules none;
        const gpulab::audit::LibraryRules& r = rules.empty() ? none : rules.size() == 1 ? rules[0] : rules.at(i);
        results[i] = audit_file(files[i], backend, r);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::thread second(work);  // two compiles at a time: the machines that run the suite have two cores
  work();
  second.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return results;
}

bool has_finding(const gpulab::audit::AuditResult& r, gpulab::audit::FindingKind kind, const std::string& symbol,
                 const std::string& sentence) {
  for (const auto& f : r.findings) {
    if (f.kind == kind && f.symbol.find(symbol) != std::string::npos &&
        f.sentence.find(sentence) != std::string::npos) {
      return true;
    }
  }
  return false;
}

std::string describe(const Audited& a) {
  std::string s = a.file.string() + " (" + gpulab::toolchain::backend_name(a.backend) + ")";
  if (!a.compiled) return s + " did not compile:\n" + a.compiler_output;
  for (const auto& f : a.result.findings) {
    s += "\n  [" + std::string(gpulab::audit::kind_name(f.kind)) + "] " + f.symbol + " at " + f.where + ": " +
         f.sentence;
  }
  return s;
}

std::string symbols_named(const Audited& a, const std::string& text) {
  if (!a.compiled) return "not compiled";
  const gpulab::audit::ElfObject elf = gpulab::audit::read_elf_object(a.object);
  const auto table = gpulab::audit::protected_symbols(a.backend);
  std::string s;
  for (const gpulab::audit::ElfSymbol& sym : elf.symbols) {
    if (sym.name.find(text) == std::string::npos) continue;
    s += sym.name + ": bind " + std::to_string(sym.bind) + ", type " + std::to_string(sym.type) + ", section " +
         std::to_string(sym.section) + (sym.undefined ? ", undefined" : "") +
         (sym.section < elf.sections.size() && elf.sections[sym.section].in_comdat ? ", in a COMDAT group" : "") +
         "; protected in:";
    if (const auto* defs = table->find(sym.name)) {
      for (const auto& d : *defs) s += " " + table->libraries[d.library].id + (d.weak ? " (weak)" : "");
    }
    s += "\n";
  }
  return s.empty() ? "no symbol of " + a.object.string() + " contains " + text : s;
}

}  // namespace gpulab_test
