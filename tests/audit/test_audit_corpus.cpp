// The false-alarm guard: every lab reference, every progression kernel, the skeletons, the
// examples, the labs' and speed tests' submissions, the GPU probes and the legitimate idioms of
// tests/audit/idioms/ (printf and iostream debugging, std::vector, streams, cudaMallocAsync,
// cooperative groups, templates, a helper header, lambdas, std::sort, a global std::vector; on
// cuda CUB's block and warp collectives, cub::DeviceFor, Thrust's containers and inline PTX) give
// no finding, on the emulator and, where nvcc is present, for a GPU (compile only): a lab's files
// with that lab's library algorithms (lab.json), the others with every lab's. Objects are compiled
// two at a time through the build cache; the audit's cost per object is printed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iostream>

#include "audit_test_support.hpp"

using gpulab::toolchain::Backend;
using namespace gpulab_test;
namespace fs = std::filesystem;

namespace {
// The lab a corpus file belongs to (reference/<lab>/, skeletons/<lab>/, tests/labs/<lab>/), or "".
std::string lab_of(const fs::path& file) {
  const fs::path relative = file.lexically_relative(source_dir());
  auto part = relative.begin();
  if (part == relative.end()) return "";
  const std::string top = (part++)->string();
  if (top == "tests" && part != relative.end() && *part == "labs") ++part;
  else if (top != "reference" && top != "skeletons") return "";
  return part == relative.end() ? "" : part->string();
}

void add_cu_files(const fs::path& folder, std::vector<fs::path>& out, const std::string& prefix = "") {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".cu" && name.rfind(prefix, 0) == 0) found.push_back(e.path());
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

std::vector<fs::path> corpus(Backend backend) {
  const fs::path root = source_dir();
  std::vector<fs::path> files;
  for (const auto& lab : fs::directory_iterator(root / "reference")) {
    if (!lab.is_directory()) continue;
    files.push_back(lab.path() / (lab.path().filename().string() + ".cu"));
    add_cu_files(lab.path() / "progression", files);
  }
  for (const auto& lab : fs::directory_iterator(root / "skeletons")) add_cu_files(lab.path(), files);
  add_cu_files(root / "examples", files);
  for (const auto& lab : fs::directory_iterator(root / "tests" / "labs")) {
    if (lab.is_directory()) add_cu_files(lab.path() / "buggy", files);
  }
  // The speed tests' submissions, but not the tampering exploits (tests/gpu/tamper_exploits.sh
  // expects the audit to find them), except the one that names nothing forbidden.
  std::vector<fs::path> speed;
  add_cu_files(root / "tests" / "gpu" / "speed", speed);
  for (const fs::path& f : speed) {
    const std::string name = f.filename().string();
    if (name.rfind("tamper_", 0) != 0 || name == "tamper_heap_events.cu") files.push_back(f);
  }
  add_cu_files(root / "tests" / "gpu", files, "probe_");
  std::vector<fs::path> idioms;
  add_cu_files(root / "tests" / "audit" / "idioms", idioms);
  for (const fs::path& idiom : idioms) {
    // CUB, Thrust and inline PTX: the emulator has neither library (its inline PTX is tested elsewhere).
    const std::string name = idiom.filename().string();
    const bool cuda_only = name.rfind("cub_", 0) == 0 || name.rfind("thrust_", 0) == 0 || name == "inline_ptx.cu";
    if (backend == Backend::cuda || !cuda_only) files.push_back(idiom);
  }
  return files;
}

void check_corpus(Backend backend) {
  const std::vector<fs::path> files = corpus(backend);
  REQUIRE(files.size() > 60);
  const gpulab::audit::LibraryRules every_lab = lab_library_rules();
  REQUIRE(every_lab.algorithms.size() > 10);
  std::vector<gpulab::audit::LibraryRules> rules;
  for (const fs::path& f : files) rules.push_back(lab_of(f).empty() ? every_lab : lab_library_rules(lab_of(f)));
  const std::vector<Audited> audited = audit_files(files, backend, rules);
  double total = 0, most = 0;
  size_t count = 0;
  for (const Audited& a : audited) {
    INFO(describe(a));
    if (!a.compiled) continue;  // a buggy lab submission or a probe this backend cannot build: no object to audit
    // Whole programs (the probes, the examples) may use managed and page-locked memory, which the
    // audit names for a lab whose host_work does not allow it; graded files use none.
    const std::string path = a.file.generic_string();
    const bool whole_program =
        path.find("/tests/gpu/probe_") != std::string::npos || path.find("/examples/") != std::string::npos;
    size_t findings = 0;
    for (const auto& f : a.result.findings)
      findings += !(whole_program && f.kind == gpulab::audit::FindingKind::host_visible_memory);
    CHECK(findings == 0);
    total += a.result.seconds;
    most = std::max(most, a.result.seconds);
    ++count;
  }
  REQUIRE(count > 50);
  std::cout << "audit cost (" << gpulab::toolchain::backend_name(backend) << "): " << count << " objects, mean "
            << static_cast<int>(1000 * total / count) << " ms, most " << static_cast<int>(1000 * most) << " ms\n";
}
}  // namespace

TEST_CASE("no finding in the references, progressions, skeletons, examples, tests and idioms (emulator)") {
  check_corpus(Backend::emu);
}

TEST_CASE("no finding in the references, progressions, skeletons, examples, tests and idioms (cuda, compile only)") {
  if (!gpulab::toolchain::cuda_backend_available()) {
    WARN("no nvcc here: the cuda backend is not audited");
    return;
  }
  check_corpus(Backend::cuda);
}
