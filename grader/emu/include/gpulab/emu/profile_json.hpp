// The profile file's format (GPULAB_EMU_PROFILE): the checking runtime writes
// it, the CLI reads it; both through these functions, so neither side spells
// a key on its own. {"format": "gpulab-emu-profile", "version": 1, "kernels": [...]}
#pragma once
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpulab/emu/profile_api.hpp"

namespace gpulab::emu {

NLOHMANN_JSON_SERIALIZE_ENUM(AccessSiteKind, {{AccessSiteKind::global_load, "global_load"},
                                              {AccessSiteKind::global_store, "global_store"},
                                              {AccessSiteKind::global_atomic, "global_atomic"},
                                              {AccessSiteKind::shared_load, "shared_load"},
                                              {AccessSiteKind::shared_store, "shared_store"},
                                              {AccessSiteKind::shared_atomic, "shared_atomic"}})

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SiteCounts, requests, lanes, lane_slots, bytes, sectors, ideal_sectors, wavefronts,
                                   ideal_wavefronts, worst_ways, distinct_addresses, same_address_lanes,
                                   multi_lane_requests, lane_stride, uniform_stride, width, approximate_requests)

inline void to_json(nlohmann::json& j, const ProfiledLaunchConfig& c) {
  j = {{"grid", {c.grid[0], c.grid[1], c.grid[2]}},
       {"block", {c.block[0], c.block[1], c.block[2]}},
       {"dynamic_shared", c.dynamic_shared},
       {"static_shared", c.static_shared},
       {"launches", c.launches}};
}
inline void from_json(const nlohmann::json& j, ProfiledLaunchConfig& c) {
  for (int i = 0; i < 3; ++i) {
    c.grid[i] = j.at("grid").at(i).get<unsigned>();
    c.block[i] = j.at("block").at(i).get<unsigned>();
  }
  j.at("dynamic_shared").get_to(c.dynamic_shared);
  j.at("static_shared").get_to(c.static_shared);
  j.at("launches").get_to(c.launches);
}

inline void to_json(nlohmann::json& j, const ProfiledSite& s) {
  j = {{"kind", s.kind}, {"object", s.object}, {"object_address", s.object_address}, {"counts", s.counts}};
}
inline void from_json(const nlohmann::json& j, ProfiledSite& s) {
  j.at("kind").get_to(s.kind);
  j.at("object").get_to(s.object);
  j.at("object_address").get_to(s.object_address);
  j.at("counts").get_to(s.counts);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KernelProfile, kernel, file, line, launches, unprofiled_accesses, blocks,
                                   profiled_blocks, configs, sites)

inline nlohmann::json profile_document(const std::vector<KernelProfile>& kernels) {
  return {{"format", "gpulab-emu-profile"}, {"version", 1}, {"kernels", kernels}};
}

// Throws std::runtime_error naming what is wrong when `j` is not a profile document.
inline std::vector<KernelProfile> kernels_of(const nlohmann::json& j) {
  if (!j.is_object() || j.value("format", "") != "gpulab-emu-profile" || j.value("version", 0) != 1) {
    throw std::runtime_error("not a gpulab emulator profile (format gpulab-emu-profile, version 1)");
  }
  try {
    return j.at("kernels").get<std::vector<KernelProfile>>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed emulator profile: ") + e.what());
  }
}

}  // namespace gpulab::emu
