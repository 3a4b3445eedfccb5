// The submission's own writable data, in sections of their own, so that the
// harness can tell whether a call left state behind (a static counter, a
// cached pointer) before it runs the next case in the same process
// (harness/submission_state.hpp). A copy of the submission's object is made
// with its .data* and .bss* sections (not .data.rel.ro*, read-only once
// relocated) renamed gpulab_submission_data and gpulab_submission_bss: the
// linker then bounds each with __start_/__stop_ symbols. Where binutils cannot
// do it, the object is linked as it is and the harness, finding no bounds,
// runs one case per process.
#pragma once
#include <filesystem>

namespace gpulab::toolchain {

// The renamed copy beside `object` (made once: object.state.o), or `object` itself when it could
// not be made.
std::filesystem::path object_with_state_sections(const std::filesystem::path& object);

}  // namespace gpulab::toolchain
