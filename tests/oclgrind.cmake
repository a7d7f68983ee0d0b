# Kernels under Oclgrind (issue 33 part 6), included by tests/CMakeLists.txt: every kernel family
# runs through the `tessel` command on Oclgrind's simulated device (tests/oclgrind_run.sh), which
# reports what AddressSanitizer cannot see: out-of-bounds and uninitialized accesses, data races in
# local and global memory, barrier divergence, OpenCL API misuse. Any report fails the test, and
# so does a kernel the test names (EXPECT) that it did not launch. Shapes are small and odd (edges
# that are not tile multiples; the simulator runs a work-item at a time). Label `oclgrind`; the
# slow ones (the uninitialized-value plugin on unoptimized tiled2d, Level-3 TRSM, Poisson) also
# `full`, which `make check` leaves out. Without Oclgrind every test reports skipped.
set(TSL_OCLGRIND_RUN ${CMAKE_CURRENT_SOURCE_DIR}/oclgrind_run.sh)
set(TSL_OCLGRIND_ONCE --verify --repeat 1 --warmup 0)
# tiled2d's configurations, named by what they reach (tests/test_tensor.c, test_dmma_async.c)
set(TSL_OG_RING "SA=1,SB=1,PF=0,DBUF=0,STRIDED=1,VWA=1,APAD=0,VW=2")
set(TSL_OG_TILES16 "tiled2d:MWG=64,NWG=16,KWG=32,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=0,MMA=4,ASYNC=0,FPIPE=0")
set(TSL_OG_TILES32 "tiled2d:MWG=64,NWG=16,KWG=16,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=0,MMA=5,ASYNC=0,FPIPE=0")
set(TSL_OG_ASYNC16 "tiled2d:MWG=64,NWG=32,KWG=32,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,DBUF=0,APAD=0,MMA=4,ASYNC=3")
set(TSL_OG_ASYNC32 "tiled2d:MWG=64,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,DBUF=0,APAD=0,MMA=5,ASYNC=2")
set(TSL_OG_ASYNC32_BT "tiled2d:MWG=64,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,DBUF=0,APAD=0,MMA=5,ASYNC=3,FPIPE=1,BT=1")
set(TSL_OG_STAGED16 "tiled2d:MWG=64,NWG=128,KWG=16,MDIMC=8,NDIMC=16,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,DBUF=0,APAD=0,MMA=4,ASYNC=2,FPIPE=1,KSPLIT=1,DIRECT=0,PEEL=1")
set(TSL_OG_CPU "tiled2d:MWG=128,NWG=32,KWG=8,MDIMC=16,NDIMC=1,VW=8,SA=0,SB=0,PF=0,STRIDED=0,VWA=1,ALIAS=1,PEEL=2")

# tsl_oclgrind(NAME [FULL] [UNINIT] [EXIT code] [EXPECT k1,k2] [TUNING entry BUILT text]
#              ARGS tessel-arguments...)
function(tsl_oclgrind name)
  cmake_parse_arguments(OG "FULL;UNINIT" "EXPECT;EXIT;TUNING;BUILT" "ARGS" ${ARGN})
  set(opts)
  if(OG_UNINIT)
    list(APPEND opts --uninitialized)
  endif()
  if(OG_EXPECT)
    list(APPEND opts --expect ${OG_EXPECT})
  endif()
  if(OG_TUNING)
    list(APPEND opts --tuning ${OG_TUNING} --expect-build ${OG_BUILT})
  endif()
  if(DEFINED OG_EXIT)
    list(APPEND opts --exit ${OG_EXIT})
  endif()
  set(labels oclgrind)
  if(OG_FULL)
    list(APPEND labels full)
  endif()
  add_test(NAME oclgrind_${name}
           COMMAND ${TSL_BASH} ${TSL_OCLGRIND_RUN} ${opts} -- $<TARGET_FILE:tessel_cli> ${OG_ARGS})
  set_tests_properties(oclgrind_${name} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 600
                       SKIP_RETURN_CODE 77 LABELS "${labels}")
endfunction()
find_program(TSL_BASH bash REQUIRED)

# ---- GEMM: the ladder, tiled2d's paths, the emulated tensor cores, batched ---------------------
tsl_oclgrind(gemm_ladder EXPECT gemm_naive,gemm_tiled,gemm_regblock,gemm_tiled2d
             ARGS gemm --variant all -m 37 -n 29 -k 23 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(gemm_ladder_double_t EXPECT gemm_naive,gemm_tiled,gemm_regblock,gemm_tiled2d
             ARGS gemm --variant all --precision double --layout col --transa t --transb t
                  --beta 0.5 -m 19 -n 13 -k 11 ${TSL_OCLGRIND_ONCE})
# the CPU entry with its edges peeled: 131 = 128 + 3 rows, 33 = 32 + 1 columns (gemm_edge)
tsl_oclgrind(gemm_tiled2d_peel EXPECT gemm_tiled2d,gemm_edge
             ARGS gemm --variant ${TSL_OG_CPU} -m 131 -n 33 -k 23 --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(gemm_tiled2d_ksplit EXPECT gemm_pack,gemm_tiled2d,gemm_splitk_sum
             ARGS gemm --variant tiled2d:KSPLIT=2,PEEL=1 -m 37 -n 29 -k 45 ${TSL_OCLGRIND_ONCE})
# DIRECT reads A and B in place (any size: the guarded loads); transposed A is packed
tsl_oclgrind(gemm_tiled2d_direct EXPECT gemm_pack,gemm_tiled2d
             ARGS gemm --variant tiled2d:PF=1,DIRECT=1 -m 37 -n 29 -k 23 --transa t --layout col
                  ${TSL_OCLGRIND_ONCE})
# complex GEMM: op(A) = A^H and B packed into their real forms, a complex beta's scale, the real GEMM
tsl_oclgrind(gemm_complex EXPECT zgemm_pack,zgemm_scale,gemm_tiled2d
             ARGS gemm --precision complex --transa c --transb t -m 13 -n 9 -k 7 --alpha-im 1
                  --beta 0.5 --beta-im -1 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(gemm_batched EXPECT gemm_batched,gemm_tiled2d
             ARGS gemm --batch 3 --variant all -m 13 -n 11 -k 7 --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(tensor_half EXPECT gemm_tiled2d
             ARGS gemm --precision half --variant ${TSL_OG_TILES16} -m 37 -n 29 -k 45
                  ${TSL_OCLGRIND_ONCE})
# the ring's 16-bit epilogue stages C through all of its buffers
tsl_oclgrind(tensor_bf16_async EXPECT gemm_tiled2d
             ARGS gemm --precision bfloat16 --variant ${TSL_OG_ASYNC16} -m 37 -n 29 -k 45
                  ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(tensor_half_staged FULL EXPECT gemm_tiled2d
             ARGS gemm --precision half --variant ${TSL_OG_STAGED16} -m 37 -n 29 -k 45
                  ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(tensor_tf32 EXPECT gemm_tiled2d
             ARGS gemm --math tf32 --variant ${TSL_OG_TILES32} -m 37 -n 29 -k 23 ${TSL_OCLGRIND_ONCE})
# B packed transposed and both operands rounded to TF32 by the pack (BT, PRE_TF32), FPIPE
tsl_oclgrind(tensor_tf32_bt EXPECT gemm_pack,gemm_tiled2d
             ARGS gemm --math tf32 --variant ${TSL_OG_ASYNC32_BT} -m 37 -n 29 -k 23 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(tensor_3xtf32_async EXPECT gemm_tiled2d
             ARGS gemm --math 3xtf32 --variant ${TSL_OG_ASYNC32} -m 37 -n 29 -k 23
                  ${TSL_OCLGRIND_ONCE})
# FP64 instructions (emulated) fed by the ring
tsl_oclgrind(dmma_m1 EXPECT gemm_tiled2d
             ARGS gemm --precision double
                  --variant tiled2d:MWG=32,NWG=64,KWG=8,MDIMC=4,NDIMC=16,MMA=1,ASYNC=4,FPIPE=0,${TSL_OG_RING}
                  -m 37 -n 29 -k 23 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(dmma_m3 EXPECT gemm_tiled2d
             ARGS gemm --precision double
                  --variant tiled2d:MWG=32,NWG=32,KWG=32,MDIMC=4,NDIMC=8,MMA=3,ASYNC=2,FPIPE=1,${TSL_OG_RING}
                  -m 37 -n 29 -k 45 ${TSL_OCLGRIND_ONCE})
# A configuration whose tiles fit 48 KiB but not with the emulation's fragments is refused
# before it is built (exit 3, "does not fit"), not failed at launch with CL_OUT_OF_RESOURCES.
tsl_oclgrind(dmma_m2_refused EXIT 3
             ARGS gemm --precision double
                  --variant tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=2,ASYNC=3,FPIPE=1,${TSL_OG_RING}
                  -m 37 -n 29 -k 23 ${TSL_OCLGRIND_ONCE})

# ---- Level-3 ------------------------------------------------------------------------------------
set(TSL_OG_L3 -m 37 -n 29 -k 23 --block 16 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(l3_symm EXPECT l3_symm_expand,gemm_tiled2d
             ARGS blas3 --op symm --side right --uplo upper --beta 0.5 --variant all ${TSL_OG_L3})
tsl_oclgrind(l3_syrk EXPECT l3_tri_merge,gemm_tiled2d
             ARGS blas3 --op syrk --trans t --beta 0.5 --variant all ${TSL_OG_L3})
tsl_oclgrind(l3_syr2k EXPECT l3_tri_merge,gemm_tiled2d
             ARGS blas3 --op syr2k --uplo upper --variant all ${TSL_OG_L3})
tsl_oclgrind(l3_trmm EXPECT l3_copy,l3_tri_blocks,gemm_tiled2d
             ARGS blas3 --op trmm --side right --diag unit --variant all ${TSL_OG_L3})
tsl_oclgrind(l3_trsm_inverse EXPECT l3_tri_inv64,l3_tri_full,l3_copy,gemm_tiled2d
             ARGS blas3 --op trsm --variant inverse -m 37 -n 5 --block 16 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(l3_trsm_blocked EXPECT l3_trsm_diag,l3_copy,gemm_tiled2d
             ARGS blas3 --op trsm --variant blocked -m 5 -n 37 --block 16 --side right --uplo upper
                  --trans t ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(l3_trsm FULL EXPECT l3_tri_inv64,l3_tri_full,gemm_tiled2d
             ARGS blas3 --op trsm --variant all ${TSL_OG_L3})
# the triangle modes (SYRK's C tiles of one triangle, TRMM's k ranges cut to it) over the emulated
# FP64 instruction's ring, from a tuning entry of the simulator (tests/level3.cmake's _async64)
set(TSL_OG_L3_RING "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,MMA=2,ASYNC=3,FPIPE=1,${TSL_OG_RING}")
tsl_oclgrind(l3_syrk_ring EXPECT gemm_tiled2d TUNING "gemm double any ${TSL_OG_L3_RING}"
             BUILT "-DPRECISION=64 -DONLY_ONE_KERNEL -DONLY_gemm_tiled2d -DMWG=32 -DNWG=32 -DKWG=8 -DMDIMC=4 -DNDIMC=8"
             ARGS blas3 --op syrk --precision double --variant tri --uplo upper -n 37 -k 23
                  --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(l3_trmm_ring EXPECT gemm_tiled2d TUNING "gemm double any ${TSL_OG_L3_RING}"
             BUILT "-DPRECISION=64 -DONLY_ONE_KERNEL -DONLY_gemm_tiled2d -DMWG=32 -DNWG=32 -DKWG=8 -DMDIMC=4 -DNDIMC=8"
             ARGS blas3 --op trmm --precision double --variant tri --side right -m 37 -n 29
                  ${TSL_OCLGRIND_ONCE})
# alpha 0: C = beta C on the triangle (l3_scale), A not read
tsl_oclgrind(l3_syrk_alpha0 EXPECT l3_scale
             ARGS blas3 --op syrk --variant all -n 29 -k 23 --alpha 0 --beta 0.5 ${TSL_OCLGRIND_ONCE})
# diagonal blocks of 128 inverted by l3_tri_inv (above l3_tri_inv64's 64)
tsl_oclgrind(l3_trsm_inv128 FULL EXPECT l3_tri_inv,l3_tri_full
             ARGS blas3 --op trsm --variant inverse -m 133 -n 7 --inv-block 128 --block 128
                  ${TSL_OCLGRIND_ONCE})
# the inverses of up to 128 in one launch, its work-groups taking tasks from a ticket counter
tsl_oclgrind(l3_trsm_fused EXPECT l3_tri_inv_fused
             ARGS blas3 --op trsm --variant inverse_leaf -m 129 -n 2 --inv-fuse 128
                  ${TSL_OCLGRIND_ONCE})

# ---- memory-bound kernels and the workloads -------------------------------------------------------
tsl_oclgrind(transpose EXPECT transpose_naive,transpose_tiled,transpose_vec,copy_vec
             ARGS transpose --variant all --rows 37 --cols 29 --copy ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(blas1_axpy EXPECT axpy_scalar,axpy_vector,copy_vec
             ARGS blas1 --op axpy --variant all --size 1001 --copy ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(blas1_dot EXPECT dot_scalar,dot_vector,dot_wide,sum_finish,wide_finish
             ARGS blas1 --op dot --variant all --size 1001 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(blas1_nrm2 EXPECT nrm2_scalar,nrm2_vector,nrm2_finish,nrm2_wide
             ARGS blas1 --op nrm2 --variant all --size 1001 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(gemv_n EXPECT gemv_n_naive,gemv_n_vector
             ARGS gemv --variant all -m 37 -n 29 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(gemv_t EXPECT gemv_t_naive,gemv_t_vector
             ARGS gemv --variant all -m 37 -n 29 --trans t --beta 0.5 ${TSL_OCLGRIND_ONCE})
# T with its rows split across work-groups (301 rows on one compute unit), summed by gemv_t_finish
tsl_oclgrind(gemv_t_split EXPECT gemv_t_vector,gemv_t_finish
             ARGS gemv --variant vector -m 301 -n 29 --trans t --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(gemv_alpha0 EXPECT gemv_scale
             ARGS gemv --variant all -m 37 -n 29 --alpha 0 --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(poisson EXPECT poisson_jacobi_naive,poisson_jacobi_tiled,poisson_residual
             ARGS poisson --variant all --grid 21 --iters 2 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(pi EXPECT pi_partial ARGS pi --variant all --size 10007 --no-sequential
                                       ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(nbody EXPECT nbody_all_pairs,nbody_tiled
             ARGS nbody --variant all --size 67 --no-sequential ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(kmeans EXPECT kmeans_original,kmeans_unrolled,kmeans_tiled_float8
             ARGS kmeans --variant all --size 101 --clusters 7 --no-sequential ${TSL_OCLGRIND_ONCE})

# ---- uninitialized values (unoptimized kernels: slower) -------------------------------------------
tsl_oclgrind(uninit_gemm_ladder FULL UNINIT EXPECT gemm_naive,gemm_tiled,gemm_regblock
             ARGS gemm --variant all -m 13 -n 11 -k 7 --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_blas1_axpy UNINIT EXPECT axpy_scalar,copy_vec
             ARGS blas1 --op axpy --variant all --size 1001 --copy ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_blas1_nrm2 UNINIT EXPECT nrm2_scalar,nrm2_scaled_scalar
             ARGS blas1 --op nrm2 --variant all --size 1001 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_gemv_t UNINIT EXPECT gemv_t_naive,gemv_t_vector
             ARGS gemv --variant all -m 37 -n 29 --trans t --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_transpose UNINIT EXPECT transpose_naive,copy_vec
             ARGS transpose --variant all --rows 37 --cols 29 --copy ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_workloads_pi UNINIT EXPECT pi_partial
             ARGS pi --variant all --size 10007 --no-sequential ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_nbody UNINIT EXPECT nbody_tiled
             ARGS nbody --variant all --size 67 --no-sequential ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_kmeans UNINIT EXPECT kmeans_tiled_float8
             ARGS kmeans --variant all --size 101 --clusters 7 --no-sequential ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_poisson FULL UNINIT EXPECT poisson_jacobi_tiled
             ARGS poisson --variant all --grid 21 --iters 2 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_tiled2d FULL UNINIT EXPECT gemm_tiled2d,gemm_edge
             ARGS gemm --variant ${TSL_OG_CPU} -m 131 -n 33 -k 23 --beta 0.5 ${TSL_OCLGRIND_ONCE})
tsl_oclgrind(uninit_tensor_bf16_async FULL UNINIT EXPECT gemm_tiled2d
             ARGS gemm --precision bfloat16 --variant ${TSL_OG_ASYNC16} -m 37 -n 29 -k 45
                  ${TSL_OCLGRIND_ONCE})

# ---- LAPACK (lapack.cl through tests/test_lapack.c's small cases: the leaves, both layouts) ----
foreach(v leaf columns)
  set(expect lu_leaf,lu_swap,chol_diag,chol_solve)
  if(v STREQUAL columns)
    set(expect lu_col)
  endif()
  add_test(NAME oclgrind_lapack_${v}
           COMMAND ${TSL_BASH} ${TSL_OCLGRIND_RUN} --expect ${expect} --
                   $<TARGET_FILE:test_lapack> small ${v})
  set_tests_properties(oclgrind_lapack_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 600
                       SKIP_RETURN_CODE 77 LABELS oclgrind)
endforeach()
