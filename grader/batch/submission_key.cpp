// submission_key: sha256 over the key's fields, one per line.
#include "submission_key.hpp"

#include <cstdlib>

#include "data/sha256.hpp"

namespace gpulab::batch {

std::string grader_version() { return GPULAB_GRADER_VERSION; }

std::string hidden_seed_fingerprint(const LabSpec& lab, const grade::GradeOptions& o) {
  if (!o.include_hidden) return "";
  const char* secret = std::getenv(lab.hidden_seed_env.c_str());
  if (!secret || !*secret) return "";
  const std::string text = std::string("gpulab-hidden-fingerprint\n") + lab.lab + "\n" + secret;
  return sha256_hex(text.data(), text.size()).substr(0, 16);
}

std::string submission_key(const std::string& content_hash, const LabSpec& lab, const grade::GradeOptions& o) {
  std::string parts;
  for (const std::string& p : o.only_parts) parts += p + ",";
  const std::string text = std::string("gpulab-batch-key/1\n") + content_hash + "\n" + lab.lab + "\n" + lab.version +
                           "\n" + toolchain::backend_name(o.backend) + "\n" + grader_version() + "\n" +
                           (o.include_large ? "large" : "no-large") + "\n" + hidden_seed_fingerprint(lab, o) + "\n" +
                           (o.race_check ? "race-check" : "no-race-check") + "\n" + parts + "\n";
  return sha256_hex(text.data(), text.size());
}

}  // namespace gpulab::batch
