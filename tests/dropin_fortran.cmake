# Drop-in BLAS, the Fortran symbols (issue 16; docs/dropin.md "The BLAS symbols"), included by
# tests/CMakeLists.txt. The reference BLAS testers (Debian's libblas-test) run against
# libtessel_blas with TESSEL_BLAS_ROUTE=device, so every call tessel supports (s/d, and c/z Level
# 3) reaches the PoCL device: with their shipped inputs (error exits included), with inputs widened
# to odd sizes up to the testers' NMAX = 65 (tests/dropin/*_wide.in), once with
# TESSEL_BLAS_ROUTE=cpu, and once the Debian-alternatives way (LD_LIBRARY_PATH on a libblas.so.3
# that is our library). C programs linked with -ltessel_blas check the device routines against plain loops, the reference semantics
# and the error handlers; one checks that our own library is refused as the CPU BLAS. The exported
# set must equal the reference's, and the generated forwarders what their table gives.
# tests/dropin/run_tester.py runs each program and judges it (its header says how).
set(TSL_BLAS_TESTERS /usr/lib/x86_64-linux-gnu/blas CACHE PATH
    "Debian libblas-test: the reference BLAS testers and their inputs")
set(TSL_REFERENCE_BLAS ${TSL_BLAS_TESTERS}/libblas.so.3)
set(TSL_FORTRAN_RUN ${CMAKE_CURRENT_SOURCE_DIR}/dropin/run_tester.py)
set(TSL_FORTRAN_DIR ${CMAKE_CURRENT_BINARY_DIR}/dropin_fortran)

# One test: NAME, then WAY, ROUTE, and the run_tester.py arguments after them.
function(tsl_dropin_fortran_test name way route)
  set(dir ${TSL_FORTRAN_DIR}/${name})
  file(MAKE_DIRECTORY ${dir})
  add_test(NAME dropin_fortran_${name}
           COMMAND python3 ${TSL_FORTRAN_RUN} --lib $<TARGET_FILE:tessel_blas> --way ${way}
                   ${ARGN}
           WORKING_DIRECTORY ${dir})
  set_tests_properties(dropin_fortran_${name} PROPERTIES
                       ENVIRONMENT "${TSL_DROPIN_ENV};TESSEL_BLAS_ROUTE=${route}"
                       TIMEOUT 300 LABELS "dropin;fortran")
endfunction()

# ---- the exported symbols and the generated forwarders --------------------------------------
# (and the LAPACK routines it serves, each also in reference LAPACK when that is installed)
set(TSL_SYMBOLS_LAPACK /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3)
if(NOT EXISTS ${TSL_SYMBOLS_LAPACK})
  set(TSL_SYMBOLS_LAPACK "")
endif()
add_test(NAME dropin_fortran_symbols
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/dropin/fortran_symbols.py
                 $<TARGET_FILE:tessel_blas> ${TSL_REFERENCE_BLAS} ${TSL_SYMBOLS_LAPACK})
add_test(NAME dropin_fortran_generated
         COMMAND python3 ${CMAKE_SOURCE_DIR}/src/blas/fortran_gen.py --check)
set_tests_properties(dropin_fortran_symbols dropin_fortran_generated PROPERTIES
                     TIMEOUT 60 LABELS "dropin;fortran")

# ---- the reference testers, preloaded, every supported call on the device ------------------
# The routines that must have reached the device (TESSEL_BLAS_VERBOSE's dev_calls), per tester.
set(TSL_DEV_1s saxpy,sdot,snrm2)
set(TSL_DEV_1d daxpy,ddot,dnrm2)
set(TSL_DEV_2s sgemv)
set(TSL_DEV_2d dgemv)
set(TSL_DEV_3s sgemm,ssymm,ssyrk,ssyr2k,strmm,strsm)
set(TSL_DEV_3d dgemm,dsymm,dsyrk,dsyr2k,dtrmm,dtrsm)
set(TSL_DEV_3c cgemm,csymm,chemm,csyrk,cherk,csyr2k,cher2k,ctrmm,ctrsm)
set(TSL_DEV_3z zgemm,zsymm,zhemm,zsyrk,zherk,zsyr2k,zher2k,ztrmm,ztrsm)
foreach(p s d c z)
  set(dev1 "")
  set(dev2 "")
  set(dev3 --device ${TSL_DEV_3${p}})
  if(p STREQUAL "s" OR p STREQUAL "d")
    set(dev1 --device ${TSL_DEV_1${p}})
    set(dev2 --device ${TSL_DEV_2${p}})
  endif()
  tsl_dropin_fortran_test(xblat1${p} preload device --level1 ${dev1}
                          -- ${TSL_BLAS_TESTERS}/xblat1${p})
  foreach(l 2 3)
    tsl_dropin_fortran_test(xblat${l}${p} preload device --input ${TSL_BLAS_TESTERS}/${p}blat${l}.in
                            --summary ${p}blat${l}.out ${dev${l}} -- ${TSL_BLAS_TESTERS}/xblat${l}${p})
  endforeach()
endforeach()

# Odd sizes up to the testers' limit (NMAX = 65): copies of the shipped s/d inputs whose N (and
# band width K) values are 0 1 7 31 33 65.
foreach(p s d)
  foreach(l 2 3)
    tsl_dropin_fortran_test(wide_xblat${l}${p} preload device
                            --input ${CMAKE_CURRENT_SOURCE_DIR}/dropin/${p}blat${l}_wide.in
                            --summary ${p}blat${l}.out --device ${TSL_DEV_${l}${p}}
                            -- ${TSL_BLAS_TESTERS}/xblat${l}${p})
  endforeach()
endforeach()

# The widened Level-3 testers reach the same device paths at the same sizes through CBLAS
# (dropin_cblas_wide_[sd]3, in both layouts), and the Fortran symbols are covered by the shipped
# inputs above: their Fortran runs are in make check-full (label full).
set_property(TEST dropin_fortran_wide_xblat3s dropin_fortran_wide_xblat3d APPEND PROPERTY LABELS
             full)

# The same library with TESSEL_BLAS_ROUTE=cpu: nothing may reach the device.
tsl_dropin_fortran_test(cpu_xblat3d preload cpu --input ${TSL_BLAS_TESTERS}/dblat3.in
                        --summary dblat3.out --device none -- ${TSL_BLAS_TESTERS}/xblat3d)

# Debian's alternatives: the tester finds our library as libblas.so.3, no preload.
tsl_dropin_fortran_test(alternatives_xblat3d alternatives device
                        --input ${TSL_BLAS_TESTERS}/dblat3.in --summary dblat3.out
                        --device ${TSL_DEV_3d} -- ${TSL_BLAS_TESTERS}/xblat3d)
tsl_dropin_fortran_test(alternatives_xblat2s alternatives device
                        --input ${TSL_BLAS_TESTERS}/sblat2.in --summary sblat2.out
                        --device ${TSL_DEV_2s} -- ${TSL_BLAS_TESTERS}/xblat2s)

# ---- C programs linked with -ltessel_blas ---------------------------------------------------
foreach(prog fortran_link fortran_errors fortran_cblas_xerbla)
  add_executable(dropin_${prog} ${CMAKE_CURRENT_SOURCE_DIR}/dropin/${prog}.c)
  target_include_directories(dropin_${prog} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(dropin_${prog} PRIVATE tessel_blas m)
endforeach()
tsl_dropin_fortran_test(link direct device --device ${TSL_DEV_3d},${TSL_DEV_3s},dgemv,sgemv,ddot
                        -- $<TARGET_FILE:dropin_fortran_link>)
tsl_dropin_fortran_test(link_cpu direct cpu --device none -- $<TARGET_FILE:dropin_fortran_link>)
# Our default error handlers; and a program's own cblas_xerbla winning over ours.
add_test(NAME dropin_fortran_errors COMMAND dropin_fortran_errors)
add_test(NAME dropin_fortran_cblas_xerbla COMMAND dropin_fortran_cblas_xerbla)
set_tests_properties(dropin_fortran_errors dropin_fortran_cblas_xerbla PROPERTIES
                     ENVIRONMENT "${TSL_DROPIN_ENV}" TIMEOUT 60 LABELS "dropin;fortran")

# The complex GEMM symbols (Fortran, CBLAS, OpenBLAS's 3M names) against long double loops: on
# the device, on the device in blocks of C and of k (its memory capped at 2 KiB for the drop-in),
# and on the CPU BLAS.
add_executable(dropin_complex_gemm ${CMAKE_CURRENT_SOURCE_DIR}/dropin/complex_gemm.c)
target_include_directories(dropin_complex_gemm PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dropin_complex_gemm PRIVATE tessel_blas m)
set(TSL_DEV_COMPLEX_GEMM
    cgemm,zgemm,cgemm3m,zgemm3m,cblas_cgemm,cblas_zgemm,cblas_cgemm3m,cblas_zgemm3m)
tsl_dropin_fortran_test(complex_gemm direct device --device ${TSL_DEV_COMPLEX_GEMM}
                        -- $<TARGET_FILE:dropin_complex_gemm>)
tsl_dropin_fortran_test(complex_gemm_blocks direct device --device ${TSL_DEV_COMPLEX_GEMM}
                        -- $<TARGET_FILE:dropin_complex_gemm>)
set_property(TEST dropin_fortran_complex_gemm_blocks APPEND PROPERTY ENVIRONMENT
             "TESSEL_BLAS_DEVICE_MEMORY=2048")
tsl_dropin_fortran_test(complex_gemm_cpu direct cpu --device none
                        -- $<TARGET_FILE:dropin_complex_gemm>)

# The other complex Level-3 symbols (Fortran and CBLAS), one call each on the device, against the
# CPU BLAS's own on the same data.
add_executable(dropin_complex_level3 ${CMAKE_CURRENT_SOURCE_DIR}/dropin/complex_level3.c)
target_include_directories(dropin_complex_level3 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dropin_complex_level3 PRIVATE tessel_blas m ${CMAKE_DL_LIBS})
set(devs "")
foreach(p c z)
  foreach(r symm hemm syrk herk syr2k her2k trmm trsm)
    list(APPEND devs ${p}${r} cblas_${p}${r})
  endforeach()
endforeach()
string(REPLACE ";" "," devs "${devs}")
tsl_dropin_fortran_test(complex_level3 direct device --device ${devs}
                        -- $<TARGET_FILE:dropin_complex_level3>)
# The same under TESSEL_BLAS_MATH=tf32: the complex Level-3 routines stay FP32, as the real ones
# (libtessel runs their complex GEMMs in FP32 whatever the context's math mode).
tsl_dropin_fortran_test(complex_level3_tf32 direct device --device ${devs}
                        -- $<TARGET_FILE:dropin_complex_level3>)
set_property(TEST dropin_fortran_complex_level3_tf32 APPEND PROPERTY ENVIRONMENT
             "TESSEL_BLAS_MATH=tf32")

# TESSEL_BLAS_CPU naming our own library must be refused in one line, not recurse or hang.
tsl_dropin_fortran_test(recursion direct cpu --stderr-only "libtessel_blas itself"
                        -- $<TARGET_FILE:dropin_fortran_link> recursion)
set_property(TEST dropin_fortran_recursion APPEND PROPERTY ENVIRONMENT
             "TESSEL_BLAS_CPU=$<TARGET_FILE:tessel_blas>")
set_tests_properties(dropin_fortran_recursion PROPERTIES TIMEOUT 60)
