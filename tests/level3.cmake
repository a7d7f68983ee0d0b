# Level-3 library suite (issue 15), included by tests/CMakeLists.txt: test_level3 runs one routine
# per process (so ctest runs them in parallel). Each routine runs with its default variant and
# block size (SYRK, SYR2K, TRMM: tiled2d's triangle modes; TRSM: blocked on PoCL, inverse_rec on GPUs,
# so inverse is named here too), and with blocks of 16,
# which makes the blocked paths run over several blocks with a ragged last one at the test shapes:
# there the older algorithms (SYRK/SYR2K recursive, TRMM and TRSM blocked) and TRSM's three inverse
# variants. The _gpucfg runs put GPU-like tiled2d configurations under the routines (staged tiles,
# DIRECT = 2, small tiles so the test shapes cross many of them; double through the emulated FP64
# matrix instruction), so the triangle and batch modes run the kernel paths a GPU runs; the
# _async64 runs put the FP64 instruction's asynchronous ring under SYRK and TRMM.
# lib_level3_batched checks strided batched GEMM, lib_level3_errors bad input.
add_executable(test_level3 ${CMAKE_CURRENT_SOURCE_DIR}/test_level3.c
                           ${CMAKE_CURRENT_SOURCE_DIR}/test_level3_batched.c
                           ${CMAKE_CURRENT_SOURCE_DIR}/test_level3_errors.c)
target_compile_definitions(test_level3 PRIVATE CHECK_SHARED)
target_include_directories(test_level3 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_level3 PRIVATE tessel_static tessel_ref m)

set(L3_GEMM_SINGLE "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=1,DIRECT=2")
set(L3_GEMM_DOUBLE "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,DIRECT=2,MMA=1")

function(l3_test name)
  add_test(NAME lib_level3_${name} COMMAND test_level3 ${ARGN})
  set_tests_properties(lib_level3_${name} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                     LABELS "lib;level3")
endfunction()

foreach(r symm syrk syr2k trmm trsm batched)
  l3_test(${r} ${r})
endforeach()
l3_test(syrk_block16 syrk 16 recursive)
l3_test(syr2k_block16 syr2k 16 recursive)
l3_test(trmm_block16 trmm 16 blocked)
l3_test(trsm_inverse trsm 0 inverse)
l3_test(trsm_block16 trsm 16 inverse)
l3_test(trsm_blocked16 trsm 16 blocked)
l3_test(trsm_inverse_rec16 trsm 16 inverse_rec)
foreach(r syrk syr2k trmm batched)
  l3_test(${r}_gpucfg ${r} 16 auto "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE}")
endforeach()
# The FP64 instruction fed by the asynchronous ring (ASYNC=3 with double-buffered fragments;
# tests/test_dmma_async.c checks the plain and batched GEMMs) under the triangle modes: SYRK's
# (TRI 1, 2: tiles of C's other triangle skipped) and TRMM's (3 to 6: each tile's k range cut
# to the triangle before the ring starts)
set(L3_GEMM_DOUBLE_ASYNC "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,DBUF=0,APAD=0,MMA=2,ASYNC=3,FPIPE=1")
foreach(r syrk trmm)
  l3_test(${r}_async64 ${r} 16 auto "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE_ASYNC}")
endforeach()
# blocks of 64: l3_tri_inv's panels of 32 run twice per block
l3_test(trsm_gpucfg trsm 64 inverse "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE}")
# the diagonal inverses by recursive doubling from l3_tri_inv's blocks of at most inv_block
# (the last argument): 1, 2 and 3 doublings (32 -> 16; 64 -> 16; 96 -> 12, a base that is no
# power of 2), ragged last blocks and pairs at the test shapes; with the GPU-like configurations,
# blocks of 128 from 16 (3 doublings through the batched tiled2d launches)
l3_test(trsm_double1 trsm 32 inverse_rec auto auto 16)
l3_test(trsm_double2 trsm 64 inverse auto auto 16)
l3_test(trsm_double3 trsm 96 blocked auto auto 16)
l3_test(trsm_double3_gpucfg trsm 128 inverse_rec "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE}" 16)
# l3_tri_inv64 inverts blocks of up to 64 (every test above); blocks of 128 directly take the panel
# kernel l3_tri_inv (4 panels of 32)
l3_test(trsm_inv_panel trsm 128 inverse auto auto 128)
# inverse_leaf: the inverses on the diagonal of a ka x ldd matrix, every whole pair of a doubling
# level in one batched launch and the partial last pair alone (blocks of 64 from 16: 2 doublings;
# 96 from 12: 3, a base whose pairs are not vector-aligned, so one GEMM per pair), each leaf one
# launch in TRMM's triangle mode (the GPU-like configurations: the tiled kernel's TRI 3 to 6),
# op(A) = A^T through its dense strict triangle
l3_test(trsm_leaf16 trsm 16 inverse_leaf)
l3_test(trsm_leaf_double2 trsm 64 inverse_leaf auto auto 16)
l3_test(trsm_leaf_double3 trsm 96 inverse_leaf auto auto 12)
l3_test(trsm_leaf_gpucfg trsm 64 inverse_leaf "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE}" 16)
# B in 3 parts (columns left, rows right), each solved on a queue of its own (side queues)
l3_test(trsm_leaf_streams trsm 64 inverse_leaf "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE}" 16 3)
# the inverses of blocks up to 256 (from 64) in one launch of l3_tri_inv_fused (INV_FUSE 4096;
# the default on NVIDIA's GPUs only): its tasks, the counters they wait on and the partial last
# pairs at the test shapes (up to 200: pairs of 64 + 8, 128 + 72); with the GPU-like
# configurations and B in 2 parts, blocks of 128 (one fused level)
l3_test(trsm_leaf_fused trsm 256 inverse_leaf auto auto 0 1 4096)
l3_test(trsm_leaf_fused_gpucfg trsm 128 inverse_leaf "${L3_GEMM_SINGLE}" "${L3_GEMM_DOUBLE}" 0 2 4096)
# under a gemm variant without the triangle and batch modes (naive): every product dense
l3_test(trsm_leaf_naive trsm 64 inverse_leaf naive naive 16)
# split k forced under the updates: those that read C from B and write W (CIN) sum their slices
# with beta times B's rows (gemm_splitk_sum's Cin)
l3_test(trsm_leaf_split trsm 64 inverse_leaf "${L3_GEMM_SINGLE},KSPLIT=2" "${L3_GEMM_DOUBLE},KSPLIT=2" 16)
# 16 x 16 tiles, so the inverses' triangles (read in place, TSL__TRI_IN_PLACE) span several tiles of
# k: the leaves (TRI 3 to 6 without the pack), the doubling's batched triangle-mode products of
# pairs of 32 (and of 8, 16 from 8: l3_tri_inv's base). (inverse's X = alpha D^-1 Y, batched in
# the triangle modes, spans two tiles of 32 in trsm_gpucfg.) Double is what catches a wrong
# triangle mode in the doubling: the test triangles' inverses have small off-diagonal parts, and
# the error it makes (about 5e-5) is within single precision's tolerance.
set(L3_GEMM_SINGLE16 "tiled2d:MWG=16,NWG=16,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=1,DIRECT=2")
set(L3_GEMM_DOUBLE16 "tiled2d:MWG=16,NWG=16,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,DIRECT=2,MMA=1")
l3_test(trsm_leaf_tiles16 trsm 64 inverse_leaf "${L3_GEMM_SINGLE16}" "${L3_GEMM_DOUBLE16}" 8)
l3_test(errors errors)
# The complex routines (tsl_[cz]symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm; host and _buf)
# against OpenBLAS's cblas_z*: every layout x side x uplo x trans x diag on odd shapes with blocks
# of 16, one process a group; _gpucfg: the syrk group and TRSM under lib_zgemm_gpucfg's GPU-like
# tiled2d (DIRECT = 2, split k 2), the same programs the complex GEMM's tests build.
add_executable(test_level3_complex ${CMAKE_CURRENT_SOURCE_DIR}/test_level3_complex.c)
target_include_directories(test_level3_complex PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_level3_complex PRIVATE tessel_static tessel_ref m)
foreach(g sym rk rk_recursive trmm trsm errors)
  add_test(NAME lib_level3_complex_${g} COMMAND test_level3_complex ${g})
  set_tests_properties(lib_level3_complex_${g} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}"
                                                         TIMEOUT 300 LABELS "lib;level3")
endforeach()
foreach(g rk trmm)
  add_test(NAME lib_level3_complex_${g}_gpucfg COMMAND test_level3_complex ${g}
           "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,APAD=1,DIRECT=2,KSPLIT=2")
  set_tests_properties(lib_level3_complex_${g}_gpucfg PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}"
                                                                 TIMEOUT 300 LABELS "lib;level3")
endforeach()
