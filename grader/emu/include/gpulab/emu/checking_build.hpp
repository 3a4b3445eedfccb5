// GPULAB_EMU_CHECKING_BUILD: defined where this file is compiled for the emulator's checking
// build (-fsanitize=thread: the race check and the profile). gcc says so with
// __SANITIZE_THREAD__, clang (before 18) only through __has_feature(thread_sanitizer), so code
// that must behave differently there asks this macro, never one compiler's spelling.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define GPULAB_EMU_CHECKING_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GPULAB_EMU_CHECKING_BUILD 1
#endif
#endif
