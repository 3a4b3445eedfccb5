// Choosing and opening the isolation for --sandbox.
#include "sandbox.hpp"

#include <unistd.h>

#include "bwrap_sandbox.hpp"
#include "user_sandbox.hpp"

namespace gpulab::sandbox {

const std::vector<std::string>& mode_names() {
  static const std::vector<std::string> names = {"auto", "bwrap", "user", "none"};
  return names;
}

Mode parse_mode(const std::string& name) {
  if (name == "auto") return Mode::automatic;
  if (name == "bwrap") return Mode::bwrap;
  if (name == "user") return Mode::user;
  if (name == "none") return Mode::none;
  throw std::invalid_argument("unknown sandbox '" + name + "' (auto, bwrap, user or none)");
}

std::unique_ptr<Sandbox> Sandbox::open(Mode mode, const std::vector<PrivatePath>& private_paths) {
  if (mode == Mode::bwrap) return BwrapSandbox::open();
  if (mode == Mode::user) return UserSandbox::open(private_paths);
  if (mode == Mode::none) throw std::logic_error("Sandbox::open(Mode::none)");
  try {
    return BwrapSandbox::open();
  } catch (const SandboxUnavailable& bwrap_refused) {
    if (geteuid() != 0) throw;
    const std::string why = bwrap_refused.what();
    try {
      return UserSandbox::open(private_paths);
    } catch (const SandboxUnavailable& user_refused) {
      throw SandboxUnavailable(std::string(user_refused.what()) +
                               "\n(--sandbox auto tried bubblewrap first: " + why.substr(0, why.find('\n')) + ")");
    }
  }
}

std::string no_sandbox_description() {
  return "none (--no-sandbox): the limits only; the submission could read and write what gpulab can";
}

}  // namespace gpulab::sandbox
