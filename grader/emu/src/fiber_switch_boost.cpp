// The fiber switch through Boost.Context's fcontext: for architectures gpulab has no switch of
// its own for, or when GPULAB_EMU_FIBERS=boost asks for it (tests/emu/boost_fibers.sh).
#include <boost/context/detail/fcontext.hpp>

#include "fiber_switch.hpp"

namespace gpulab::emu::fiber {
namespace bc = boost::context::detail;

context make(void* top, size_t size, entry_fn fn) {
  return bc::make_fcontext(top, size, reinterpret_cast<void (*)(bc::transfer_t)>(fn));
}
transfer jump(context to, void* data) {
  const bc::transfer_t t = bc::jump_fcontext(static_cast<bc::fcontext_t>(to), data);
  return transfer{t.fctx, t.data};
}

}  // namespace gpulab::emu::fiber
