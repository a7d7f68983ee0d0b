# package.cmake: the Debian package of tessel (`make deb`: CPack's DEB generator), included by
# CMakeLists.txt after the install rules, which say what the package holds: libtessel, the drop-in
# libtessel_blas, the tessel command, the headers, pkg-config and CMake files, the man page. Its
# maintainer scripts (cmake/deb/postinst.in, prerm.in) register the drop-in as this architecture's
# libblas.so.3 and liblapack.so.3 alternative and take it out again, as Debian's BLAS packages do.
# tests/deb.sh (test deb_package) makes the package from the build it is in and checks it.

# The drop-in under the names the alternatives point to, in a folder of its own as OpenBLAS has
# (openblas-pthread/libblas.so.3): <libdir>/tessel/libblas.so.3 and liblapack.so.3, relative links
# to ../libtessel_blas.so.N, so one file is both (a program linking both loads it once). The file
# itself stays in libdir, beside the alternatives' links: ldconfig, which scans libdir and finds
# libblas.so.3 there with the drop-in's soname, then keeps libtessel_blas.so.N on the real file
# (had the file been in tessel/, it would link libtessel_blas.so.N to libblas.so.3, and
# -ltessel_blas would follow the alternative). Only x86-64's drop-in forwards every LAPACK symbol,
# so only there is it a liblapack.so.3.
set(TSL_DEB_ALTERNATIVES libblas)
if(TSL_LAPACK_FORWARD)
  list(APPEND TSL_DEB_ALTERNATIVES liblapack)
endif()
get_target_property(tsl_blas_soversion tessel_blas SOVERSION)
set(tsl_alt_links)
foreach(name ${TSL_DEB_ALTERNATIVES})
  set(link ${CMAKE_CURRENT_BINARY_DIR}/alternatives/${name}.so.3)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/alternatives)
  file(CREATE_LINK ../libtessel_blas.so.${tsl_blas_soversion} ${link} SYMBOLIC)
  list(APPEND tsl_alt_links ${link})
endforeach()
install(FILES ${tsl_alt_links} DESTINATION ${CMAKE_INSTALL_LIBDIR}/tessel)

# Priority 50: below OpenBLAS (pthread 100, openmp 95, serial 90) and BLIS (75), above ATLAS (35)
# and the reference BLAS and LAPACK (10), as Debian 12's packages register them. tessel depends
# on OpenBLAS, so auto mode keeps OpenBLAS; the drop-in is a choice made with --config.
set(TSL_DEB_PRIORITY 50)
set(TSL_DEB_TRIPLET "${CMAKE_LIBRARY_ARCHITECTURE}")
set(TSL_DEB_PREFIX /usr)
set(TSL_DEB_LIBDIR ${TSL_DEB_PREFIX}/${CMAKE_INSTALL_LIBDIR})
set(TSL_DEB_PROBLEM "")
if(NOT TSL_DEB_TRIPLET)
  set(TSL_DEB_PROBLEM "CMake knows no multiarch triplet for this compiler (not a Debian system?)")
elseif(NOT CMAKE_INSTALL_LIBDIR STREQUAL "lib/${TSL_DEB_TRIPLET}")
  string(CONCAT TSL_DEB_PROBLEM "its libdir is ${CMAKE_INSTALL_LIBDIR}, not Debian's "
                "lib/${TSL_DEB_TRIPLET}: configure with -DCMAKE_INSTALL_PREFIX=/usr "
                "(make deb does)")
endif()
string(REPLACE ";" " " TSL_DEB_NAMES "${TSL_DEB_ALTERNATIVES}") # the scripts' for-loop words
set(tsl_deb_control ${CMAKE_CURRENT_BINARY_DIR}/deb-control)
configure_file(cmake/deb/postinst.in ${tsl_deb_control}/postinst @ONLY)
configure_file(cmake/deb/prerm.in ${tsl_deb_control}/prerm @ONLY)
configure_file(cmake/deb/triggers ${tsl_deb_control}/triggers COPYONLY)

# One package, `tessel`, with everything `make install` installs: a user installs tessel as a whole
# (library, drop-in, command), as from source. (Debian's own split, libtessel0 / libtessel-dev /
# tessel, would need a library package without headers and its own soname policy; this is not it.)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME tessel)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${TSL_DEB_PREFIX})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "OpenCL BLAS and LAPACK on GPUs, with a drop-in libblas.so.3 and liblapack.so.3")
set(CPACK_PACKAGE_DESCRIPTION
    "tessel runs dense linear algebra (GEMM, the Level-3 BLAS, LU, Cholesky and QR) as portable
OpenCL kernels with tuned parameters per device. The package holds the library libtessel and its
headers, the tessel command (benchmarks, verification against OpenBLAS and CLBlast, tuning), and
the drop-in BLAS libtessel_blas: every BLAS, CBLAS and LAPACK symbol, run on the device where a
cost model says it pays and on OpenBLAS otherwise. The drop-in is registered as a libblas.so.3
and liblapack.so.3 alternative below OpenBLAS; update-alternatives --config selects it.")
set(TESSEL_DEB_MAINTAINER "tessel maintainers <maintainers@users.noreply.a-seed-9cf9644e.example>"
    CACHE STRING "the Maintainer field of the Debian package (make deb)")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${TESSEL_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION math)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # tessel_<version>_<arch>.deb
# Depends: what the binaries link, from dpkg-shlibdeps (libc, the OpenCL loader, OpenBLAS,
# CLBlast and MPI where the build found them), and the CPU BLAS and LAPACK the drop-in loads at
# run time (src/blas/cpu.c: OpenBLAS, else the reference BLAS and LAPACK), which no ELF names.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0 | libblas3, libopenblas0 | liblapack3")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd") # a device to run on
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnuplot-nox") # the figures of `tessel study`
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${tsl_deb_control}/postinst ${tsl_deb_control}/prerm
                                       ${tsl_deb_control}/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_TESSEL_DEB_PROBLEM "${TSL_DEB_PROBLEM}")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_SOURCE_DIR}/cmake/deb/cpack_checks.cmake)
include(CPack)
