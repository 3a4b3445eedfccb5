// locate_code(): dladdr on both systems; the object's own addresses differ by format. ELF: an
// ET_DYN object (a PIE program, a shared library) is addressed from its load base, an ET_EXEC
// program absolutely. Mach-O: always from the load base, plus the __TEXT segment's vmaddr
// (0x100000000 for a 64-bit program) that tools use as the file's own addresses.
#include "platform/code_object.hpp"

#include <dlfcn.h>

#include "platform/executable_path.hpp"

#if defined(__APPLE__)
#include <mach-o/loader.h>
#include <cstring>
#else
#include <elf.h>
#endif

namespace gpulab::platform {

CodeLocation locate_code(uintptr_t address) {
  CodeLocation where;
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(address), &info) || !info.dli_fbase) return where;
  const auto base = reinterpret_cast<uintptr_t>(info.dli_fbase);
#if defined(__APPLE__)
  // The __TEXT segment's vmaddr, from the load commands that follow the header.
  uintptr_t text_vmaddr = 0;
  const auto* header = static_cast<const mach_header_64*>(info.dli_fbase);
  const auto* command = reinterpret_cast<const load_command*>(header + 1);
  for (uint32_t i = 0; i < header->ncmds; ++i) {
    if (command->cmd == LC_SEGMENT_64) {
      const auto* segment = reinterpret_cast<const segment_command_64*>(command);
      if (std::strcmp(segment->segname, "__TEXT") == 0) text_vmaddr = segment->vmaddr;
    }
    command = reinterpret_cast<const load_command*>(reinterpret_cast<const char*>(command) + command->cmdsize);
  }
  where.object_address = address - base + text_vmaddr;
#else
  const auto* header = static_cast<const Elf64_Ehdr*>(info.dli_fbase);
  where.object_address = header->e_type == ET_DYN ? address - base : address;
#endif
  where.object = info.dli_fname ? info.dli_fname : "";
  // The main program: dladdr gives argv[0], which may be relative or a bare name.
  if (where.object.empty() || where.object.find('/') == std::string::npos) where.object = executable_path();
  return where;
}

}  // namespace gpulab::platform
