# cpack_checks.cmake: read by cpack before it makes a package (CPACK_PROJECT_CONFIG_FILE, set in
# cmake/package.cmake). A Debian package is refused, with the reason, where it would be wrong: a
# build whose libdir is not Debian's multiarch one (the drop-in must sit beside the alternatives'
# links, or ldconfig links libtessel_blas.so.0 to whatever libblas.so.3 is), or a machine without
# dpkg-shlibdeps (the Depends of the libraries the binaries link would be missing).
if(CPACK_GENERATOR STREQUAL "DEB")
  if(CPACK_TESSEL_DEB_PROBLEM)
    message(FATAL_ERROR "tessel: no Debian package from this build: ${CPACK_TESSEL_DEB_PROBLEM}")
  endif()
  find_program(TSL_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(NOT TSL_DPKG_SHLIBDEPS)
    message(FATAL_ERROR "tessel: the Debian package's Depends come from dpkg-shlibdeps: install "
                        "dpkg-dev (make deps does)")
  endif()
endif()
