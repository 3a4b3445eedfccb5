# Where the CUDA toolkit is: the nvcc the cuda backend compiles with, and the folder of its
# libraries (libcudart_static.a, the shared runtime). nvcc is looked for where CUDA_HOME or
# CUDA_PATH say, then on PATH, then in /usr/local/cuda/bin. The nvcc found may be a wrapper script
# or a link outside the toolkit (/usr/local/bin/nvcc that execs /usr/local/cuda-13.0/bin/nvcc), so
# the toolkit is never guessed from its folder: nvcc is asked (`-dryrun` prints the toolkit's root
# as TOP and the folders it links from as LIBRARIES), and the driver in that root is used.
#
# Sets GPULAB_NVCC (empty: no cuda backend) and GPULAB_CUDA_LIBRARY_DIR.
function(gpulab_find_cuda_toolkit)
  find_program(GPULAB_NVCC_FOUND nvcc HINTS ENV CUDA_HOME ENV CUDA_PATH PATH_SUFFIXES bin
               PATHS /usr/local/cuda/bin)
  set(GPULAB_NVCC "" PARENT_SCOPE)
  set(GPULAB_CUDA_LIBRARY_DIR "" PARENT_SCOPE)
  if(NOT GPULAB_NVCC_FOUND)
    return()
  endif()
  set(probe_dir "${CMAKE_BINARY_DIR}/cuda_toolkit_probe")
  file(MAKE_DIRECTORY "${probe_dir}")
  file(WRITE "${probe_dir}/probe.cu" "int main() { return 0; }\n")
  execute_process(COMMAND "${GPULAB_NVCC_FOUND}" -dryrun probe.cu -o probe
                  WORKING_DIRECTORY "${probe_dir}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  set(text "${out}\n${err}")
  if(NOT status EQUAL 0 OR NOT text MATCHES "#\\$ TOP=([^\n]*)")
    message(WARNING "gpulab: ${GPULAB_NVCC_FOUND} did not say where its toolkit is (nvcc -dryrun: ${status}); "
                    "the cuda backend is disabled. Set CUDA_HOME to the CUDA toolkit's folder.")
    return()
  endif()
  string(STRIP "${CMAKE_MATCH_1}" top)
  get_filename_component(root "${top}" REALPATH)
  # Where nvcc was found through a link to the toolkit (/usr/local/cuda -> cuda-13.0), that name is
  # kept: it stays right on a machine with another minor version (the GPU machine runs what is built here).
  get_filename_component(found_bin "${GPULAB_NVCC_FOUND}" DIRECTORY)
  get_filename_component(found_root "${found_bin}" DIRECTORY)
  get_filename_component(found_root_real "${found_root}" REALPATH)
  if(found_root_real STREQUAL root)
    set(root "${found_root}")
  endif()
  set(nvcc "${root}/bin/nvcc")
  if(NOT EXISTS "${nvcc}")
    set(nvcc "${GPULAB_NVCC_FOUND}")
  endif()
  # The last -L folder that is not the driver's stubs holds the runtime's libraries.
  set(library_dir "")
  if(text MATCHES "#\\$ LIBRARIES=([^\n]*)")
    string(REGEX MATCHALL "\"?-L[^\" ]+" folders "${CMAKE_MATCH_1}")
    foreach(folder IN LISTS folders)
      string(REGEX REPLACE "^\"?-L" "" folder "${folder}")
      if(NOT folder MATCHES "/stubs/?$")
        get_filename_component(library_dir "${folder}" REALPATH)
      endif()
    endforeach()
  endif()
  # The toolkit's own lib64 (or lib) when it is that folder, under the root's name kept above.
  foreach(candidate "${root}/lib64" "${root}/lib")
    get_filename_component(candidate_real "${candidate}" REALPATH)
    if(EXISTS "${candidate}/libcudart_static.a" AND (NOT library_dir OR candidate_real STREQUAL library_dir OR
                                                      NOT EXISTS "${library_dir}/libcudart_static.a"))
      set(library_dir "${candidate}")
      break()
    endif()
  endforeach()
  if(NOT EXISTS "${library_dir}/libcudart_static.a")
    message(WARNING "gpulab: no libcudart_static.a in the CUDA toolkit of ${GPULAB_NVCC_FOUND} (${root}); the cuda "
                    "backend links every program with the static runtime, so it is disabled.")
    return()
  endif()
  set(GPULAB_NVCC "${nvcc}" PARENT_SCOPE)
  set(GPULAB_CUDA_LIBRARY_DIR "${library_dir}" PARENT_SCOPE)
endfunction()
