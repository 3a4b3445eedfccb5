// Shared by the tampering exploits of the speed tests (tamper_*.cu): the work
// they do honestly is the reference's fast reduction sixteen times over
// (shuffle_sum, the output cleared before each pass), so that honestly timed
// they are about 16x slower than the reference and earn no speed points; each
// then tries to make the grader see a sixteenth of that time by one route of
// tampering. The float part is honest and fast. A tampered timer reports
// the wall time since the host function was entered, divided by 16.
#pragma once
#include <chrono>

#include "reduction_common.cuh"

constexpr int kTamperRepeats = 16;

// When the current call of the host function began, for the lying timers.
inline std::chrono::steady_clock::time_point& call_began() {
  static std::chrono::steady_clock::time_point t;
  return t;
}

// What a lying cudaEventElapsedTime reports: a sixteenth of the call's wall time.
inline float lying_milliseconds() {
  const auto since = std::chrono::steady_clock::now() - call_began();
  return std::chrono::duration<float, std::milli>(since).count() / kTamperRepeats;
}
