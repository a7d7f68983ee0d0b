# The transpose family and the copy reference of issue 3 (tests/test_transpose.c): one ctest per
# transpose variant, plus the copy variant's refusal, bad input, tsl_copy_buf and pinned memory.
add_executable(test_transpose ${CMAKE_CURRENT_SOURCE_DIR}/test_transpose.c)
target_include_directories(test_transpose PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_transpose PRIVATE tessel_static tessel_ref m)

foreach(part naive coalesced nobank diagonal vector auto copy-variant errors copy pinned)
  add_test(NAME lib_transpose_${part} COMMAND test_transpose ${part})
  set_tests_properties(lib_transpose_${part} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                        LABELS "lib;transpose")
endforeach()
# Pinned blocks left allocated must be released by tsl_context_destroy: under AddressSanitizer
# this one test runs with leak detection on (it builds no kernels, and PoCL leaks nothing here).
set_tests_properties(lib_transpose_pinned PROPERTIES ENVIRONMENT
                     "${TSL_TEST_ENV};ASAN_OPTIONS=detect_leaks=1:abort_on_error=0")
