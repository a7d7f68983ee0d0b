# Level-3 library suite (issue 15), included by tests/CMakeLists.txt: test_level3 runs one routine
# per process (so ctest runs them in parallel), each with the default block size and with blocks
# of 16, which makes the blocked paths run over several blocks with a ragged last one at the test
# shapes; lib_level3_batched checks strided batched GEMM, lib_level3_errors bad input.
add_executable(test_level3 ${CMAKE_CURRENT_SOURCE_DIR}/test_level3.c)
target_include_directories(test_level3 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_level3 PRIVATE tessel_static tessel_ref m)

foreach(r symm syrk syr2k trmm trsm)
  add_test(NAME lib_level3_${r} COMMAND test_level3 ${r})
  set_tests_properties(lib_level3_${r} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                  LABELS "lib;level3")
  if(NOT r STREQUAL "symm") # SYMM has no blocks: one GEMM on the expanded matrix
    add_test(NAME lib_level3_${r}_block16 COMMAND test_level3 ${r} 16)
    set_tests_properties(lib_level3_${r}_block16 PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}"
                                                            TIMEOUT 300 LABELS "lib;level3")
  endif()
endforeach()
foreach(t batched errors)
  add_test(NAME lib_level3_${t} COMMAND test_level3 ${t})
  set_tests_properties(lib_level3_${t} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                  LABELS "lib;level3")
endforeach()
