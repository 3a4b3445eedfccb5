// The per-thread checker session (see session.hpp).
#include "session.hpp"

namespace gpulab::emu::check {

__thread Session* tl_session = nullptr;
__thread bool tl_active = false;

Session& session() {
  if (!tl_session) tl_session = new Session();  // lives as long as the program
  return *tl_session;
}

bool Session::fenced_after(uint32_t block_plus_one, uint16_t thread, uint32_t fence_at_access) const {
  if (block_plus_one == block) return thread < fences.size() && fences[thread] > fence_at_access;
  const auto it = final_fences.find(static_cast<uint64_t>(block_plus_one) << 16 | thread);
  return it != final_fences.end() && it->second > fence_at_access;
}

const SharedRegion* Session::shared_region(size_t offset) const {
  for (const SharedRegion& r : shared_regions) {
    if (offset >= r.begin && offset < r.begin + r.bytes) return &r;
  }
  return nullptr;
}

}  // namespace gpulab::emu::check
