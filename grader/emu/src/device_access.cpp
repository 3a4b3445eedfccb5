// Keeping device memory from host code (see device_access.hpp).
//
// Why this design. On a GPU, device memory is not mapped in the host's page tables at all; here it
// is the host's memory, and the same address must work in a kernel (run by the workers and the
// device thread) and fail in host code (the program's own threads), possibly at the same moment:
// kernels are asynchronous. Three ways were weighed:
// - Protection keys (x86-64 PKU, Linux's pkey_alloc): each allocation's pages carry one key, and
//   each thread's PKRU register says whether it may touch that key's pages. Host threads deny it;
//   a thread that runs kernels allows it once and keeps it allowed; the runtime's own copies on a
//   host thread allow it for the copy (two register writes). Kernels pay nothing: the pages are
//   plain read-write pages, nothing changes when a launch starts or ends. This is the only way
//   that also catches host code reading device memory while a kernel runs. A submission cannot
//   open the key itself: the audit refuses `wrpkru`/`xrstor` in its object, and refuses references
//   to the runtime's internals (this file's names) as well.
// - A second, read-write view of each allocation through a memfd for the runtime, the program's
//   view PROT_NONE outside kernels: every place in the runtime and the harness that reads device
//   memory (copies, guard checks, replays, graph nodes) would have to translate addresses, and
//   kernels still need the program's view open while they run, which is the third way anyway.
// - mprotect toggled: device memory PROT_NONE, opened (PROT_READ|PROT_WRITE) while a kernel runs or
//   the runtime copies, closed again after. Works on every CPU and OS; costs two mprotect calls per
//   allocation per launch (and the TLB shootdown of closing), and host code that runs while a
//   kernel runs (or while the runtime copies on another thread) is not caught. This is the
//   fallback where the CPU or the kernel has no protection keys (many VMs hide PKU; macOS; AArch64
//   before POE). docs/running-programs.md says which one a machine uses and what each catches.
// GPULAB_EMU_DEVICE_PROTECTION=keys|toggled|off chooses (keys only where available; off restores
// the old behaviour, for debugging the emulator itself).
#include "device_access.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "device_memory.hpp"
#include "gpulab/emu/harness_device_access.hpp"

namespace gpulab::emu {
namespace {

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__)) && defined(PKEY_DISABLE_ACCESS)
constexpr bool kKeysBuiltIn = true;
#else
constexpr bool kKeysBuiltIn = false;
#endif

struct Setup {
  DeviceProtection mode = DeviceProtection::toggled;
  int key = -1;
};

int allocate_key() {
#if defined(__linux__) && defined(PKEY_DISABLE_ACCESS)
  // The calling thread (the program's, at its first allocation) gets "no access"; every other host
  // thread already has it: Linux starts a process with every key but 0 denied, and threads inherit.
  return pkey_alloc(0, PKEY_DISABLE_ACCESS);
#else
  return -1;
#endif
}

Setup choose() {
  Setup s;
  const char* env = std::getenv("GPULAB_EMU_DEVICE_PROTECTION");
  const std::string asked = env ? env : "";
  if (asked == "off") {
    s.mode = DeviceProtection::off;
    return s;
  }
  if (asked != "toggled" && kKeysBuiltIn) {
    s.key = allocate_key();
    if (s.key >= 0) s.mode = DeviceProtection::keys;
  }
  return s;
}

const Setup& setup() {
  static const Setup s = choose();
  return s;
}

// toggled: how many scopes (launches, runtime copies) hold device memory open.
std::mutex open_mutex;
unsigned open_count = 0;
bool open_now = false;  // guarded by the registry's lock (device_memory.cpp)

unsigned key_rights() {
#if defined(__linux__) && defined(PKEY_DISABLE_ACCESS)
  return static_cast<unsigned>(pkey_get(setup().key));
#else
  return 0;
#endif
}
void set_key_rights(unsigned rights) {
#if defined(__linux__) && defined(PKEY_DISABLE_ACCESS)
  pkey_set(setup().key, rights);
#else
  (void)rights;
#endif
}

}  // namespace

DeviceProtection device_protection() { return setup().mode; }

const char* device_protection_name(DeviceProtection mode) {
  switch (mode) {
    case DeviceProtection::keys: return "protection keys";
    case DeviceProtection::toggled: return "mprotect while no kernel runs";
    case DeviceProtection::off: return "off";
  }
  return "?";
}

DeviceAccess::DeviceAccess() {
  switch (setup().mode) {
    case DeviceProtection::keys:
      saved_ = key_rights();
      if (saved_ != 0) {
        set_key_rights(0);
        opened_ = true;
      }
      break;
    case DeviceProtection::toggled: {
      const std::lock_guard<std::mutex> lock(open_mutex);
      if (open_count++ == 0) set_device_memory_open(true);
      opened_ = true;
      break;
    }
    case DeviceProtection::off: break;
  }
}

DeviceAccess::~DeviceAccess() {
  if (!opened_) return;
  if (setup().mode == DeviceProtection::keys) {
    set_key_rights(saved_);
    return;
  }
  const std::lock_guard<std::mutex> lock(open_mutex);
  if (--open_count == 0) set_device_memory_open(false);
}

void allow_device_access_on_this_thread() {
  if (setup().mode == DeviceProtection::keys && key_rights() != 0) set_key_rights(0);
}

void protect_device_range(void* begin, size_t bytes) {
  switch (setup().mode) {
    case DeviceProtection::keys:
#if defined(__linux__) && defined(PKEY_DISABLE_ACCESS)
      pkey_mprotect(begin, bytes, PROT_READ | PROT_WRITE, setup().key);
#endif
      break;
    case DeviceProtection::toggled:
      if (!open_now) mprotect(begin, bytes, PROT_NONE);
      break;
    case DeviceProtection::off: break;
  }
}

harness_device_access::harness_device_access() : access_(new DeviceAccess) {}
harness_device_access::~harness_device_access() { delete static_cast<DeviceAccess*>(access_); }

bool device_memory_open() { return open_now; }
void note_device_memory_open(bool open) { open_now = open; }

}  // namespace gpulab::emu
