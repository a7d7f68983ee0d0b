# The Debian package (issue 34; cmake/package.cmake), included by tests/CMakeLists.txt:
# deb_package makes the package of this build with cpack, checks its control fields and contents
# with dpkg-deb, and runs its postinst and prerm against a scratch root beside an OpenBLAS-like
# alternative, never the machine's own alternatives (tests/deb.sh). A few seconds, no device.
find_program(TSL_BASH_DEB bash REQUIRED)
add_test(NAME deb_package
         COMMAND ${TSL_BASH_DEB} ${CMAKE_CURRENT_SOURCE_DIR}/deb.sh ${CMAKE_CPACK_COMMAND}
                 ${CMAKE_BINARY_DIR} ${PROJECT_VERSION} "${TSL_DEB_TRIPLET}" ${TSL_DEB_PRIORITY}
                 "${TSL_DEB_NAMES}" "${TSL_DEB_PROBLEM}")
# TSL_DROPIN_ENV: the drop-in runs once, as libblas.so.3 of the reference Level-1 tester (in the
# sanitizer build after the ASan runtime, TSL_ASAN_RUNTIME)
set_tests_properties(deb_package PROPERTIES ENVIRONMENT "${TSL_DROPIN_ENV}" TIMEOUT 300
                                            SKIP_RETURN_CODE 77 LABELS "package")
