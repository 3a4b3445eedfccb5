# gpulab_require_package(NAME VERSION DEBIAN_PACKAGE): find_package(NAME VERSION), and where no copy
# of that version or later is found, stop with what was found and what to install.
function(gpulab_require_package name version debian_package)
  find_package(${name} ${version} QUIET)
  if(${name}_FOUND)
    message(STATUS "gpulab: ${name} ${${name}_VERSION} (${version} or later needed)")
    return()
  endif()
  set(found "none was found")
  if(${name}_CONSIDERED_VERSIONS)
    set(considered ${${name}_CONSIDERED_VERSIONS})
    list(REMOVE_DUPLICATES considered)  # one copy may be seen through several folders
    list(JOIN considered ", " versions)
    set(found "found only ${versions}")
  endif()
  message(FATAL_ERROR "gpulab needs ${name} ${version} or later and ${found}: install it (Debian and Ubuntu: "
                      "${debian_package}; scripts/install-deps.sh installs it), or point CMAKE_PREFIX_PATH at a "
                      "newer copy")
endfunction()
