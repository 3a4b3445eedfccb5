// Gold registry storage and Case accessors.
#include "gold_registry.hpp"

namespace gpulab::gold {
namespace {
std::map<std::pair<std::string, std::string>, GoldFunction>& registry() {
  static std::map<std::pair<std::string, std::string>, GoldFunction> r;
  return r;
}
}  // namespace

const NdArray& Case::input(const std::string& name) const {
  auto it = inputs.find(name);
  if (it == inputs.end()) throw std::runtime_error("gold: the case has no input named '" + name + "'");
  return it->second;
}

long long Case::size(const std::string& name) const {
  auto it = sizes.find(name);
  if (it == sizes.end()) throw std::runtime_error("gold: the case has no size named '" + name + "'");
  return it->second;
}

void register_gold(const std::string& lab, const std::string& part, GoldFunction fn) {
  registry()[{lab, part}] = std::move(fn);
}

const GoldFunction& find_gold(const std::string& lab, const std::string& part) {
  auto it = registry().find({lab, part});
  if (it == registry().end()) {
    throw std::runtime_error("no gold implementation registered for lab '" + lab + "', part '" + part +
                             "': reference/" + lab + "/gold.cpp must call GPULAB_GOLD(\"" + lab + "\", \"" + part +
                             "\", ...)");
  }
  return it->second;
}

}  // namespace gpulab::gold
