# How ctest orders the suites of tests/*.cmake and shares their programs, included by
# tests/CMakeLists.txt after every suite is added (the CLI suites' share is in tests/cli/). Most of
# a cold run is PoCL compiling programs (seconds each, a minute for a large tiled2d one); every
# program goes into the shared binary cache (TESSEL_CACHE_DIR) and PoCL's own, so it is compiled
# once per run as long as no two tests compile it at the same time. Three tools see to that:
#   COST           the seconds a test takes cold (measured), so that ctest -j, which has no
#                  timings of its own on a fresh build, starts the long ones first and the short
#                  ones fill in beside them;
#   FIXTURES       a family's programs are compiled by the tests that run all of its cases first
#                  (FIXTURES_SETUP), the tests that run the same kernels again (other block sizes,
#                  the drop-in BLAS's clients) start after them and find every program built;
#                  `ctest -R NAME` runs NAME's setups too (`-FS tsl_` leaves them out);
#   RESOURCE_LOCK  tests of one family that compile mostly the same programs never run side by
#                  side: the second finds what the first compiled.
# None of it changes what a test runs or checks.

# Long tests first (seconds, cold, make check's kernel flags, -j2 on a 2-core host; only their
# order matters; the CLI suites' are in tests/cli/). A fixture's setups come first of all (ctest
# does not pass the cost of the tests waiting on a fixture to its setups): a long test waiting for
# them must not start last.
set(TSL_TEST_COSTS
    dropin_numpy 30 dropin_xlintsts 30 dropin_xlintstd 21 lib_tensor_half 29 dropin_cblas_device_d3 24 lib_lapack_chol 24
    lib_lapack_lu 22 lib_level3_trsm_leaf_tiles16 21 lib_level3_batched_gpucfg 21
    lib_tensor_3xtf32 21 lib_tensor_bf16 19 cli_gemm_tensor 17 lib_tensor_tf32 17
    dropin_cblas_device_s3 16 lib_tune_tensor 15 dropin_blocks_xblat3s 15 lib_gemm_tiled2d 14
    lib_multi_gemm 13 lib_cache 11 lib_tune_configs_1 10 dropin_cblas_wide_d3 9
    lib_level3_trsm_leaf_streams 9 lib_tune_configs_2 9 lib_level3_trsm_gpucfg 9
    lib_multi_poisson 9 oclgrind_l3_trsm_fused 8 dropin_cblas_wide_s3 8 lib_transpose_vector 8
    dropin_fortran_xblat3s 8 dropin_fortran_xblat3d 7 dropin_fortran_alternatives_xblat3d 7
    cli_timeouts 7 oclgrind_lapack_leaf 14 lib_level3_complex_sym 6 lib_level3_complex_trmm 8
    lib_level3_complex_rk_gpucfg 8 dropin_cblas_device_c3 30 dropin_cblas_device_z3 28
    dropin_fortran_xblat3c 15 dropin_fortran_xblat3z 13)
list(APPEND TSL_TEST_COSTS lib_level3_symm 300 lib_level3_syrk 300 lib_level3_syr2k 300
     lib_level3_trmm 300 lib_level3_trsm 300 lib_level3_batched 300 lib_level3_trmm_gpucfg 250
     lib_level3_trsm_leaf_gpucfg 250)
list(LENGTH TSL_TEST_COSTS n)
math(EXPR last "${n} - 1")
foreach(i RANGE 0 ${last} 2)
  math(EXPR j "${i} + 1")
  list(GET TSL_TEST_COSTS ${i} name)
  list(GET TSL_TEST_COSTS ${j} cost)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()

# tsl_fixture(FIXTURE SETUP test... REQUIRED test...): the tests after SETUP compile the family's
# programs, those after REQUIRED start once they are done. Tests this build does not have (no
# reference BLAS testers, no numpy) are left out.
function(tsl_fixture fixture)
  cmake_parse_arguments(F "" "" "SETUP;REQUIRED" ${ARGN})
  foreach(t ${F_SETUP})
    if(TEST ${t})
      set_property(TEST ${t} APPEND PROPERTY FIXTURES_SETUP ${fixture})
    endif()
  endforeach()
  foreach(t ${F_REQUIRED})
    if(TEST ${t})
      set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED ${fixture})
    endif()
  endforeach()
endfunction()

# The Level-3 routines with their default variants and PoCL's tiled2d configuration (the shipped
# type=cpu entries), both precisions: test_level3 ROUTINE runs every combination of side, uplo,
# trans and diag over the odd shapes, so it compiles every program the routine has there; the
# tests with other block sizes and inverse variants, and the drop-in BLAS's clients of the same
# routines (the reference testers, LAPACK, numpy), then run on what they built.
tsl_fixture(tsl_l3_default
  SETUP lib_level3_symm lib_level3_syrk lib_level3_syr2k lib_level3_trmm lib_level3_trsm
        lib_level3_batched
  REQUIRED lib_level3_syrk_block16 lib_level3_syr2k_block16 lib_level3_trmm_block16
           lib_level3_trsm_inverse lib_level3_trsm_block16 lib_level3_trsm_blocked16
           lib_level3_trsm_inverse_rec16 lib_level3_trsm_double1 lib_level3_trsm_double2
           lib_level3_trsm_double3 lib_level3_trsm_inv_panel lib_level3_trsm_leaf16
           lib_level3_trsm_leaf_double2 lib_level3_trsm_leaf_double3 lib_level3_trsm_leaf_fused
           dropin_cblas_device_s3 dropin_cblas_device_d3 dropin_cblas_wide_s3 dropin_cblas_wide_d3
           dropin_fortran_xblat3s dropin_fortran_xblat3d dropin_fortran_wide_xblat3s
           dropin_fortran_wide_xblat3d dropin_fortran_alternatives_xblat3d dropin_fortran_link
           dropin_blocks_xblat3s dropin_blocks_xblat3d dropin_lapack dropin_lapack_linked
           dropin_lapack_blocks dropin_numpy lib_lapack_lu lib_lapack_chol)

# The GPU-like tiled2d configurations under the Level-3 routines (level3.cmake's L3_GEMM_SINGLE
# and L3_GEMM_DOUBLE): TRMM's triangle modes (TRI 3 to 6) and TRSM's leaves (which multiply in
# them too, and in the batched modes) are most of the family's programs; SYRK's modes, the batch
# modes, the other TRSM variants and the asynchronous ring's runs follow.
tsl_fixture(tsl_l3_gpucfg
  SETUP lib_level3_trmm_gpucfg lib_level3_trsm_leaf_gpucfg
  REQUIRED lib_level3_syrk_gpucfg lib_level3_syr2k_gpucfg lib_level3_batched_gpucfg
           lib_level3_syrk_async64 lib_level3_trmm_async64 lib_level3_trsm_gpucfg
           lib_level3_trsm_double3_gpucfg lib_level3_trsm_leaf_streams
           lib_level3_trsm_leaf_fused_gpucfg lib_level3_trsm_leaf_split)

# The complex GEMM's pre-passes and the real tiled2d programs of its 4M form (PoCL's entries and
# lib_zgemm_gpucfg's GPU-like configuration): the complex Level-3 routines run every flop there,
# so their tests start once the complex GEMM's have compiled them.
tsl_fixture(tsl_zgemm_programs
  SETUP lib_zgemm_cases lib_zgemm_gpucfg
  REQUIRED lib_level3_complex_sym lib_level3_complex_rk lib_level3_complex_trmm
           lib_level3_complex_trsm lib_level3_complex_rk_gpucfg lib_level3_complex_trmm_gpucfg
           lib_level3_complex_rk_recursive lib_zgemm_3m)

# The complex Level-3 routines' programs (level3_complex.cl and the 4M form's GEMMs at their
# shapes): the drop-in's complex Level-3 clients (the reference testers, complex_level3) run on
# what the library's tests of those routines compiled.
tsl_fixture(tsl_zl3_programs
  SETUP lib_level3_complex_sym lib_level3_complex_rk lib_level3_complex_trmm
        lib_level3_complex_trsm
  REQUIRED dropin_fortran_xblat3c dropin_fortran_xblat3z dropin_cblas_device_c3
           dropin_cblas_device_z3 dropin_fortran_complex_level3
           dropin_fortran_complex_level3_tf32)

# tiled2d's TF32 configurations, which the drop-in's sgemm_ runs in TESSEL_BLAS_MATH's modes
# (tests/dropin_math.cmake): the tensor tests compile them, the drop-in's cases then find them.
tsl_fixture(tsl_tensor_tf32_programs
  SETUP lib_tensor_tf32 lib_tensor_3xtf32
  REQUIRED dropin_math_tf32 dropin_math_3xtf32)

# Pairs that compile mostly the same programs: the 16-bit tensor-core kinds (half, bfloat16: the
# same tiles, pre-passes and epilogues), the TF32 math modes (the same tiles), the FP64 ring's
# m16n8k8 configuration (m2 and batch); among the setups above, SYRK and SYR2K (the triangle
# modes TRI 1 and 2), TRMM and TRSM (TRI 3 to 6), and the two GPU-like ones.
foreach(pair "lib_tensor_half;lib_tensor_bf16;tsl_tensor16"
             "lib_tensor_tf32;lib_tensor_3xtf32;tsl_tensor_tf32"
             "lib_dmma_async_m2;lib_dmma_async_batch;tsl_dmma_m2"
             "lib_level3_syrk;lib_level3_syr2k;tsl_l3_sym"
             "lib_level3_trmm;lib_level3_trsm;tsl_l3_tri"
             "lib_level3_trmm_gpucfg;lib_level3_trsm_leaf_gpucfg;tsl_l3_gpucfg_tri")
  list(GET pair 0 a)
  list(GET pair 1 b)
  list(GET pair 2 lock)
  set_property(TEST ${a} ${b} APPEND PROPERTY RESOURCE_LOCK ${lock})
endforeach()

# Tests of kernels whose work-groups wait on each other through counters (getrf's lu_col, TRSM's
# fused inverses): PoCL runs their groups on two threads (POCL_MAX_PTHREAD_COUNT is 1 for the
# rest, tests/CMakeLists.txt), so that groups really run side by side here too, as on a GPU.
foreach(t lib_lapack_lu_columns lib_lapack_qr_columns lib_level3_trsm_leaf_fused
          lib_level3_trsm_leaf_fused_gpucfg)
  set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "POCL_MAX_PTHREAD_COUNT=2")
endforeach()

# Tests whose kernels do so much arithmetic that they run longer unoptimized than compiling them
# optimized takes (the Poisson solvers' sweeps: lib_poisson_local 64 s cold with
# -cl-opt-disable, 7 s without): they leave TESSEL_TEST_KERNEL_FLAGS (tests/CMakeLists.txt) out.
set(TSL_TEST_OPTIMIZED lib_poisson_naive lib_poisson_local lib_poisson_temporal_2
    lib_poisson_temporal_4 lib_poisson_temporal_8 lib_poisson_auto lib_multi_poisson)
foreach(t ${TSL_TEST_OPTIMIZED})
  if(TEST ${t})
    get_test_property(${t} ENVIRONMENT env)
    list(FILTER env EXCLUDE REGEX "^POCL_EXTRA_BUILD_FLAGS=")
    set_tests_properties(${t} PROPERTIES ENVIRONMENT "${env}")
  endif()
endforeach()
