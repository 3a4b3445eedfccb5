// host_fault.hpp: the report of host code reading or writing device memory. It runs in the fault
// handler of a process that is about to end (the fault is then taken as it would be on a GPU:
// SIGSEGV), so it may allocate and run the symbolizer.
#include "host_fault.hpp"

#include <unwind.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "code_location.hpp"
#include "device_memory.hpp"
#include "diagnostics.hpp"
#include "platform/fault_context.hpp"

namespace gpulab::emu {
namespace {

struct Frames {
  std::vector<uintptr_t> pcs;  // exact for the faulting frame, return addresses above it
  std::vector<bool> exact;
};

_Unwind_Reason_Code collect(_Unwind_Context* context, void* data) {
  auto& f = *static_cast<Frames*>(data);
  int before = 0;
  const uintptr_t ip = _Unwind_GetIPInfo(context, &before);
  if (ip) {
    f.pcs.push_back(ip);
    f.exact.push_back(before != 0);  // a signal frame's pc: the faulting instruction itself
  }
  return f.pcs.size() < 64 ? _URC_NO_REASON : _URC_END_OF_STACK;
}

// The first frame at or above the fault that lies in the program's own code: the student's line,
// or the line that called memcpy/std::copy in the C library.
std::string where_in_program(uintptr_t fault_pc) {
  Frames f;
  _Unwind_Backtrace(&collect, &f);
  size_t from = f.pcs.size();
  for (size_t i = 0; i < f.pcs.size(); ++i) {
    if (f.pcs[i] == fault_pc) {
      from = i;
      break;
    }
  }
  std::vector<uintptr_t> candidates;
  if (from == f.pcs.size()) candidates.push_back(fault_pc);  // no unwinding past the signal
  for (size_t i = from; i < f.pcs.size(); ++i) candidates.push_back(f.pcs[i] - (f.exact[i] || i == from ? 0 : 1));
  for (uintptr_t pc : candidates) {
    if (in_program(pc)) return code_location(pc);
  }
  return {};
}

std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

}  // namespace

bool report_host_device_access(const siginfo_t* info, const void* raw_context) {
  const platform::FaultContext fault = platform::read_fault_context(info, raw_context);
  const AddressInfo at = classify_address(fault.address, 2000);
  if (at.kind == AddressInfo::Kind::unknown || !at.host_protected) return false;
  const bool writes = fault.access == platform::FaultAccess::write;
  const std::string where = fault.pc ? where_in_program(fault.pc) : std::string();
  // The grader's harness allocates a graded function's arguments: say so rather than name its file.
  const bool harness = at.allocation.origin.find("grader/harness/") != std::string::npos;
  const std::string alloc =
      "the " + std::to_string(at.allocation.size) + "-byte " + at.allocation.api + " allocation made " +
      (harness ? std::string("by the grader (an argument of your host function)") : "at " + at.allocation.origin);
  std::string place;
  if (at.kind == AddressInfo::Kind::inside) {
    place = at.offset == 0 ? "the start of " + alloc : std::to_string(at.offset) + " bytes into " + alloc;
  } else if (at.kind == AddressInfo::Kind::before) {
    place = std::to_string(-at.offset) + " bytes before " + alloc;
  } else {
    place = std::to_string(at.offset - static_cast<long long>(at.allocation.size)) + " bytes past the end of " + alloc;
  }
  Diagnostic d;
  d.kind = "host-device-access";
  d.severity = "error";
  const size_t colon = where.rfind(':');
  if (colon != std::string::npos && where.rfind("in ", 0) != 0) {
    d.file = where.substr(0, colon);
    d.line = std::atoi(where.c_str() + colon + 1);
  }
  d.message = std::string("host code ") + (writes ? "wrote" : "read") + " device memory" +
              (where.empty() ? std::string() : (where.rfind("in ", 0) == 0 ? " " : " at ") + where) + " (" +
              hex(fault.address) + " is " + place + "); on a GPU this crashes with a segmentation fault: " +
              (writes ? "write host memory and copy it to the device with cudaMemcpy (cudaMemcpyHostToDevice), or "
                        "write it in a kernel"
                      : "copy the data to host memory with cudaMemcpy (cudaMemcpyDeviceToHost) first") +
              ". Device memory is for kernels; host code reaches it only through the runtime (cudaMemcpy, "
              "cudaMemset), or use cudaMallocManaged for memory both sides may touch.";
  report(std::move(d));
  return true;
}

}  // namespace gpulab::emu
