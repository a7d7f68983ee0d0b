# Real clients of the drop-in BLAS (issue 16): unmodified programs that call the BLAS ABI, run
# with libtessel_blas.so preloaded and TESSEL_BLAS_ROUTE=device so every supported call reaches
# the (PoCL) device, each checking its own results and that the calls really reached tessel.
set(TSL_DROPIN_CLIENT_ENV ${TSL_DROPIN_ENV} "TESSEL_BLAS_ROUTE=device")
set(TSL_NUMPY_ENV ${TSL_DROPIN_CLIENT_ENV})
set(TSL_EXPECT_DEVICE ${CMAKE_CURRENT_SOURCE_DIR}/dropin/expect_device.sh)

# Reference LAPACK (Debian's liblapack3): dgesv, dposv, dgels, dsyev, residuals scaled by n eps.
# The program records only the soname liblapack.so.3, which the alternatives would resolve to
# OpenBLAS's LAPACK (whose LU and Cholesky call no BLAS symbol): LD_LIBRARY_PATH names the
# reference's folder, and lapack_check refuses to run on another (TSL_REQUIRE_LAPACK).
set(TSL_REF_LAPACK_DIR /usr/lib/x86_64-linux-gnu/lapack)
set(TSL_REF_LAPACK ${TSL_REF_LAPACK_DIR}/liblapack.so.3)
list(APPEND TSL_DROPIN_CLIENT_ENV "LD_LIBRARY_PATH=${TSL_REF_LAPACK_DIR}"
     "TSL_REQUIRE_LAPACK=${TSL_REF_LAPACK_DIR}/")
# the reference's LU and Cholesky, not the drop-in's own dgesv_/dposv_ (lapack_on_cpu.conf)
set(TSL_REF_LU_ENV "TESSEL_LAPACK_CPU=${TSL_REF_LAPACK}"
    "TESSEL_BLAS_CONFIG=${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_on_cpu.conf")
if(EXISTS ${TSL_REF_LAPACK})
  add_executable(lapack_check dropin/lapack_check.c)
  target_link_libraries(lapack_check PRIVATE ${TSL_REF_LAPACK} m)
  add_test(NAME dropin_lapack
           COMMAND ${TSL_EXPECT_DEVICE} "dgemm dtrsm dsyrk dtrmm dsyr2k"
                   ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> - $<TARGET_FILE:lapack_check>)
  set_tests_properties(dropin_lapack PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV};${TSL_REF_LU_ENV}"
                       TIMEOUT 600 LABELS dropin)
  # linked instead of preloaded: -ltessel_blas before the LAPACK, as a program would link it
  add_executable(lapack_check_linked dropin/lapack_check.c)
  target_link_libraries(lapack_check_linked PRIVATE tessel_blas ${TSL_REF_LAPACK} m)
  # as tessel-blas.pc links it: the program names no symbol of tessel_blas, and a linker that
  # drops such libraries (--as-needed: this Debian's gcc outside the sanitizer build) would drop it
  target_link_options(lapack_check_linked PRIVATE "LINKER:--no-as-needed")
  add_test(NAME dropin_lapack_linked
           COMMAND ${TSL_EXPECT_DEVICE} "dgemm dtrsm" $<TARGET_FILE:lapack_check_linked> 130)
  set_tests_properties(dropin_lapack_linked PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV};${TSL_REF_LU_ENV}"
                       TIMEOUT 300 LABELS dropin)
endif()

# The drop-in's own LAPACK symbols (s/d getrf, getrs, gesv, potrf, potrs, posv), linked as a
# Fortran program links LAPACK: on the device, checked by LAPACK's test ratios, info against the
# reference LAPACK's, bad arguments through the program's xerbla_. Then the same with every device
# call failing (TESSEL_BLAS_FAULT): each falls back to the CPU LAPACK from untouched arrays.
if(EXISTS ${TSL_REF_LAPACK})
  add_executable(lapack_symbols dropin/lapack_symbols.c)
  target_link_libraries(lapack_symbols PRIVATE tessel_blas ${CMAKE_DL_LIBS} m)
  target_link_options(lapack_symbols PRIVATE "LINKER:--no-as-needed")
  add_test(NAME dropin_lapack_symbols
           COMMAND ${TSL_EXPECT_DEVICE}
                   "sgetrf dgetrf sgetrs dgetrs sgesv dgesv spotrf dpotrf spotrs dpotrs sposv dposv dsgesv"
                   $<TARGET_FILE:lapack_symbols> ${TSL_REF_LAPACK})
  add_test(NAME dropin_lapack_fallback
           COMMAND bash -c "set -o pipefail; \"$0\" \"$1\" 2>&1 | tee /dev/stderr | grep -c 'on the device failed' >/dev/null"
                   $<TARGET_FILE:lapack_symbols> ${TSL_REF_LAPACK})
  set_tests_properties(dropin_lapack_symbols PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV}"
                       TIMEOUT 300 LABELS dropin)
  set_tests_properties(dropin_lapack_fallback PROPERTIES
                       ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV};TESSEL_BLAS_FAULT=*:opencl"
                       TIMEOUT 300 LABELS dropin)
endif()

# Reference LAPACK's own test programs (Debian's liblapack-test) on LU (GE), Cholesky (PO) and
# triangular solves (TR), every routine the drop-in serves and every TRSM on the device. The
# inputs are the shipped dtest.in/stest.in trimmed for time: M and N in {0 1 3 5 10 33}, NRHS
# {1 15}, NB {1 20}; single precision runs GE and PO only (its TR's overflow types fail in
# SLATRS3 with reference LAPACK 3.11 over OpenBLAS alone, 83 of 4944; the TRSM code is the
# double one's, which DTR runs).
foreach(p d s)
  set(tester ${TSL_REF_LAPACK_DIR}/xlintst${p})
  if(EXISTS ${tester})
    set(routines "${p}getrf ${p}getrs ${p}potrf ${p}potrs")
    if(p STREQUAL d)
      string(APPEND routines " dtrsm")
    endif()
    add_test(NAME dropin_xlintst${p}
             COMMAND ${TSL_EXPECT_DEVICE} "${routines}"
                     ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> -
                     ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_tester.sh ${tester}
                     ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_${p}test.in)
    set_tests_properties(dropin_xlintst${p} PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV}"
                         TIMEOUT 600 LABELS dropin)
    # QR (QR: geqrf, ormqr through dgeqrs; LS: gels and the other drivers, whose QR steps are
    # the drop-in's too), M and N in {0 1 5 33}; LS on its types 1, 3 and 5 (full rank unscaled
    # and scaled up, rank deficient scaled down: both ranks, every driver, two scalings; the
    # six types took twice the time, most of it the SVD drivers' small BLAS calls on the device)
    add_test(NAME dropin_xlintst${p}_qr
             COMMAND ${TSL_EXPECT_DEVICE} "${p}geqrf ${p}ormqr ${p}gels"
                     ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> -
                     ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_tester.sh ${tester}
                     ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_${p}qrtest.in)
    set_tests_properties(dropin_xlintst${p}_qr PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV}"
                         TIMEOUT 600 LABELS dropin)
  endif()
endforeach()

# The drop-in as the system's liblapack.so.3 and libblas.so.3 (what Debian's alternatives make of
# the package, tests/dropin/as_system_lapack.sh): xlintstd on LU (its own routines, on the device),
# symmetric indefinite (DSY: LAPACK routines it forwards to the CPU LAPACK) and least squares (its
# types 1, 3 and 5, as dropin_xlintstd_qr).
if(EXISTS ${TSL_REF_LAPACK_DIR}/xlintstd AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  add_test(NAME dropin_as_system_lapack
           COMMAND ${TSL_EXPECT_DEVICE} "dgetrf dgels"
                   ${CMAKE_CURRENT_SOURCE_DIR}/dropin/as_system_lapack.sh $<TARGET_FILE:tessel_blas>
                   ${TSL_REF_LAPACK_DIR}/xlintstd ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_dsystest.in)
  set_tests_properties(dropin_as_system_lapack PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV}"
                       TIMEOUT 600 LABELS dropin)
endif()

# The mixed-precision solvers' tester (xlintstds: dsgesv, dsposv) on the shipped dstest.in trimmed
# for time (tests/dropin/lapack_dstest.in): every matrix type, M in {0 1 2 13 45 132} of the
# shipped eleven, NRHS {1 15} of {1 2 15 16}.
if(EXISTS ${TSL_REF_LAPACK_DIR}/xlintstds)
  add_test(NAME dropin_xlintstds
           COMMAND ${TSL_EXPECT_DEVICE} "dsgesv dsposv"
                   ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> -
                   ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_tester.sh
                   ${TSL_REF_LAPACK_DIR}/xlintstds ${CMAKE_CURRENT_SOURCE_DIR}/dropin/lapack_dstest.in)
  set_tests_properties(dropin_xlintstds PROPERTIES ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV}"
                       TIMEOUT 600 LABELS dropin)
endif()

# numpy (Debian's python3-numpy calls CBLAS through libblas.so.3): its own tests of matmul, dot
# and numpy.linalg, with the library preloaded into the system python.
if(EXISTS /usr/bin/python3)
  add_test(NAME dropin_numpy
           COMMAND ${TSL_EXPECT_DEVICE} "cblas_sgemm cblas_dgemm dgesv dgetrf dpotrf dgeqrf"
                   ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> - ${CMAKE_CURRENT_SOURCE_DIR}/dropin/numpy_check.sh)
  set_tests_properties(dropin_numpy PROPERTIES ENVIRONMENT "${TSL_NUMPY_ENV}"
                       TIMEOUT 900 LABELS dropin)
endif()

# numpy's complex64 and complex128 products (cblas_cgemm, cblas_zgemm) on the device.
if(EXISTS /usr/bin/python3)
  add_test(NAME dropin_numpy_complex
           COMMAND ${TSL_EXPECT_DEVICE} "cblas_cgemm cblas_zgemm"
                   ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> - ${CMAKE_CURRENT_SOURCE_DIR}/dropin/numpy_complex.sh)
  set_tests_properties(dropin_numpy_complex PROPERTIES ENVIRONMENT "${TSL_NUMPY_ENV}"
                       TIMEOUT 300 LABELS dropin)
endif()

# The same clients with the device's memory capped at 16 KiB for the drop-in: every GEMM larger
# than that runs in blocks of C and of k (dispatch.c), as one larger than a real device would.
if(EXISTS ${TSL_REF_LAPACK})
  add_test(NAME dropin_lapack_blocks
           COMMAND ${TSL_EXPECT_DEVICE} "dgemm" ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas> -
                   $<TARGET_FILE:lapack_check> 201)
  set_tests_properties(dropin_lapack_blocks PROPERTIES
                       ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV};${TSL_REF_LU_ENV};TESSEL_BLAS_DEVICE_MEMORY=16384"
                       TIMEOUT 300 LABELS dropin)
endif()
# The widened Level-3 tester (sizes up to 65, every beta and transpose) with the same 16 KiB cap:
# each GEMM it makes runs as blocks of C and of k.
set(TSL_BLOCKS_DIR ${CMAKE_CURRENT_BINARY_DIR}/dropin_blocks)
file(MAKE_DIRECTORY ${TSL_BLOCKS_DIR})
foreach(p s d)
  add_test(NAME dropin_blocks_xblat3${p}
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/dropin/run_tester.py
                   --lib $<TARGET_FILE:tessel_blas> --way preload
                   --input ${CMAKE_CURRENT_SOURCE_DIR}/dropin/${p}blat3_wide.in
                   --summary ${p}blat3.out --device ${p}gemm
                   -- /usr/lib/x86_64-linux-gnu/blas/xblat3${p}
           WORKING_DIRECTORY ${TSL_BLOCKS_DIR})
  set_tests_properties(dropin_blocks_xblat3${p} PROPERTIES
                       ENVIRONMENT "${TSL_DROPIN_CLIENT_ENV};TESSEL_BLAS_DEVICE_MEMORY=16384"
                       TIMEOUT 300 LABELS dropin RESOURCE_LOCK dropin_blocks)
endforeach()
# The blocks of C and k are the dispatcher's, the same code in both precisions: make check runs
# single precision (and dropin_lapack_blocks double), make check-full both.
set_property(TEST dropin_blocks_xblat3d APPEND PROPERTY LABELS full)
