# Half storage (issue 5, the precision study) and bfloat16 (issue 17), included by
# tests/CMakeLists.txt. lib_bf16_convert and lib_bf16_device are the same two checks for bfloat16
# (tsl_float_to_bf16, tsl_bf16_to_float; the kernels' bfloat16 stores, ladder and tensor-core). lib_half_convert
# checks the host's float <-> binary16 conversion (tsl_float_to_half, tsl_half_to_float) on its
# edge values and every rounding boundary, without a device; lib_half_device checks that the
# kernels' vload_half / vstore_half_rte agree with it bit for bit on every half value. GEMM with
# half storage itself is tested per variant by test_gemm (lib.cmake).
add_executable(test_half ${CMAKE_CURRENT_SOURCE_DIR}/test_half.c)
target_include_directories(test_half PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_half PRIVATE tessel_static tessel_ref m)

add_test(NAME lib_half_convert COMMAND test_half convert)
set_tests_properties(lib_half_convert PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                                 LABELS "lib;half")
add_test(NAME lib_half_device COMMAND test_half device)
set_tests_properties(lib_half_device PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                LABELS "lib;half")
add_test(NAME lib_bf16_convert COMMAND test_half bf16)
set_tests_properties(lib_bf16_convert PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                                 LABELS "lib;half")
add_test(NAME lib_bf16_device COMMAND test_half bf16_device)
set_tests_properties(lib_bf16_device PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 600
                                                LABELS "lib;half")
