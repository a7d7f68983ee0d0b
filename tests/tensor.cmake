# Tensor-core GEMM (issue 17), included by tests/CMakeLists.txt: tiled2d's MMA=4 (f16, bf16) and
# MMA=5 (TF32, 3xTF32) configurations through their OpenCL C emulation on the test device, each
# kind checked element by element against a reference from the operands the instruction multiplies
# (tests/test_tensor.c says the bounds), and the bad inputs of the math mode and of bfloat16.
add_executable(test_tensor ${CMAKE_CURRENT_SOURCE_DIR}/test_tensor.c)
target_include_directories(test_tensor PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_tensor PRIVATE tessel_static tessel_ref m)
foreach(kind half bf16 tf32 3xtf32 bad)
  add_test(NAME lib_tensor_${kind} COMMAND test_tensor ${kind})
  set_tests_properties(lib_tensor_${kind} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 1500
                                                     LABELS "lib;tensor")
endforeach()
# The FP64 instructions (MMA = 1, 2, 3) fed by the asynchronous ring (ASYNC, FPIPE): one shard
# per instruction, and BATCH (tests/test_dmma_async.c); the triangle modes run in level3.cmake.
add_executable(test_dmma_async ${CMAKE_CURRENT_SOURCE_DIR}/test_dmma_async.c)
target_include_directories(test_dmma_async PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                   ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_dmma_async PRIVATE tessel_static tessel_ref m)
foreach(part m1 m2 m3 batch)
  add_test(NAME lib_dmma_async_${part} COMMAND test_dmma_async ${part})
  set_tests_properties(lib_dmma_async_${part} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 1500
                                                         LABELS "lib;tensor")
endforeach()
