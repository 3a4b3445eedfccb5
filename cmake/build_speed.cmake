# How gpulab's own code compiles quickly (included by grader/CMakeLists.txt; nothing built changes):
#
# Unity builds (GPULAB_UNITY_BUILD, on by default): each grader library's sources are compiled in
# batches of eight, one translation unit per batch, so that the headers nearly every file includes
# (nlohmann/json, fmt, CLI11, the standard library) are parsed, and their inline functions and
# templates instantiated and optimised, once per batch instead of once per file. The gpulab target
# took 1,047 CPU-seconds from nothing file by file and about half of that in batches (README,
# "How long it takes"). -DGPULAB_UNITY_BUILD=OFF compiles file by file (a missing #include that
# a batch hides shows there).
#
# Two files of one library that define the same name in an anonymous namespace (a helper such as
# `since` or `one_of`) cannot share a batch: gpulab_unity_build_exclusions() below names them, and
# each compiles alone. A compile error "redefinition of ... {anonymous}::NAME" in a Unity/unity_N_cxx
# file after adding a source means the same: add the new file there (or give the helper a name
# of its own).
#
# Not batched: the libraries linked as ordinary archives into the programs gpulab builds for the
# emulator (gpulab_emu, gpulab_emu_check, gpulab_platform). The linker takes an archive's members
# one object at a time, as a program needs them, and batching would change what a student's program
# links. They precompile the standard headers their files share instead (per file, the same objects).
option(GPULAB_UNITY_BUILD "Compile gpulab's own libraries in batches of 8 files (unity builds)" ON)
if(GPULAB_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)
endif()

# Called at the end of grader/CMakeLists.txt, once every library exists.
function(gpulab_build_speed_finish)
  set_target_properties(gpulab_emu gpulab_emu_check gpulab_platform PROPERTIES UNITY_BUILD OFF)
  # The standard headers most of the emulator's files include, precompiled once per library.
  set(emu_common_headers <algorithm> <atomic> <chrono> <cstdint> <cstdio> <cstdlib> <cstring> <map> <mutex>
      <string> <vector>)
  target_precompile_headers(gpulab_emu PRIVATE ${emu_common_headers})
  target_precompile_headers(gpulab_emu_check PRIVATE ${emu_common_headers})
  # clang stamps a precompiled header with its time unless told not to, and ccache then cannot
  # cache the files that use it (scripts/ccache-env.sh).
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    foreach(target gpulab_emu gpulab_emu_check)
      target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    endforeach()
  endif()
  if(GPULAB_UNITY_BUILD)
    gpulab_unity_build_exclusions()
  endif()
endfunction()

# Files that define a name another file of their library defines too, in an anonymous namespace
# (each compiles alone; the other file of the pair stays in its batch).
function(gpulab_unity_build_exclusions)
  set(alone
      # since(): grading.cpp; round2(), points(): prairielearn_results.cpp
      grade part_cases.cpp submission_build.cpp reports.cpp
      # kStub: library_algorithms.cpp
      audit library_check.cpp
      # cuda_message(): harness_case.cpp
      harness device_buffers.cpp timed_case.cpp
      # number(), pts(), maybe(), fixed(): the other sections of the report
      report late_columns.cpp late_section.cpp leaderboard_section.cpp
      # one_of(), is_specifier_with_arguments(), is_open(), kArch: helpers of several rewrite passes
      rewriter kernel_registration_rewrite.cpp pp_conditionals.cpp program_symbols.cpp region_names.cpp
      region_rewrite.cpp region_uniformity.cpp shared_rewrite.cpp)
  set(folder "")
  foreach(item IN LISTS alone)
    if(NOT item MATCHES "\\.cpp$")
      set(folder ${item})
    else()
      set_source_files_properties(${PROJECT_SOURCE_DIR}/grader/${folder}/${item}
                                  DIRECTORY ${PROJECT_SOURCE_DIR}/grader/${folder} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endif()
  endforeach()
endfunction()
