# Library test suites (tests/test_*.c), included by tests/CMakeLists.txt. Each suite is its own
# executable linked with libtessel (static) and the CPU reference, and each ctest is its own
# process with a timeout, so a hung kernel fails one test, not the suite. All of them share the
# kernel binary cache of TSL_TEST_ENV, except test_cache, which makes its own.

# The GEMM variants of issue 2, one ctest each so `ctest -j` runs them in parallel. The test
# lib_gemm_variant_list fails if tsl_variant_name("gemm", i) lists a different set: add a new
# variant here when the library gains one.
set(TSL_GEMM_VARIANTS naive tiled_2x2 tiled_4x4 tiled_8x8 tiled_16x16 tiled_32x32 regblock_2 regblock_4
                      tiled2d)

function(tsl_lib_test name)
  add_executable(${name} ${CMAKE_CURRENT_SOURCE_DIR}/${name}.c)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name} PRIVATE tessel_static tessel_ref m)
endfunction()

foreach(t test_gemm test_api_errors test_cache test_devices)
  tsl_lib_test(${t})
endforeach()

foreach(v ${TSL_GEMM_VARIANTS} auto)
  add_test(NAME lib_gemm_${v} COMMAND test_gemm ${v})
  set_tests_properties(lib_gemm_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                LABELS "lib;gemm")
endforeach()
# tiled2d with the edges peeled (PEEL=2: the strips gemm_edge computes; the GPU setting, off by
# default on CPUs) over the whole plan: 257 = 2 x 128 + 1 rows and 8 x 32 + 1 columns, transposes,
# both layouts, padded leading dimensions, beta.
add_test(NAME lib_gemm_tiled2d_peel COMMAND test_gemm
         "tiled2d:MWG=128,NWG=32,KWG=8,MDIMC=16,NDIMC=1,VW=8,SA=0,SB=0,PF=0,STRIDED=0,VWA=1,ALIAS=1,PEEL=2")
set_tests_properties(lib_gemm_tiled2d_peel PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                     LABELS "lib;gemm")
add_test(NAME lib_gemm_variant_list COMMAND test_gemm --expect-variants ${TSL_GEMM_VARIANTS})
set_tests_properties(lib_gemm_variant_list PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                                      LABELS "lib;gemm")

add_test(NAME lib_api_errors COMMAND test_api_errors)
set_tests_properties(lib_api_errors PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                               LABELS "lib")

# test_cache points TESSEL_CACHE_DIR at its own temporary directory and builds from scratch
# several times (PoCL's kernel cache off), so it is the slowest suite per program.
add_test(NAME lib_cache COMMAND test_cache)
set_tests_properties(lib_cache PROPERTIES ENVIRONMENT "${TSL_TEST_ENV};POCL_KERNEL_CACHE=0"
                                          TIMEOUT 400 LABELS "lib")

add_test(NAME lib_devices COMMAND test_devices)
set_tests_properties(lib_devices PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                            LABELS "lib")

# Complex GEMM (tsl_[cz]gemm, _buf, batched) against cblas_zgemm: every layout x op(A) x op(B) with
# N, T and C on odd padded shapes, beta 0 over NaN, real and complex; and bad arguments, with the
# real routines taking TSL_CONJ_TRANS as TSL_TRANS.
tsl_lib_test(test_zgemm)
# 3m: the same cases in the 3M form (the complex_gemm variant 3m), with twice the bound.
foreach(t cases errors 3m)
  add_test(NAME lib_zgemm_${t} COMMAND test_zgemm ${t})
  set_tests_properties(lib_zgemm_${t} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                 LABELS "lib;gemm")
endforeach()
# the same cases under a GPU-like tiled2d (staged tiles, DIRECT = 2: the real GEMM reads op(A) and
# B's real form in place at the odd shapes; split k 2)
add_test(NAME lib_zgemm_gpucfg COMMAND test_zgemm cases
         "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=1,DIRECT=2,KSPLIT=2")
set_tests_properties(lib_zgemm_gpucfg PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                LABELS "lib;gemm")
