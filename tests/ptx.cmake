# The sm_90a patch of a program's PTX (src/runtime/ptx.c): pure text, no device needed.
add_executable(test_ptx ${CMAKE_CURRENT_SOURCE_DIR}/test_ptx.c)
target_include_directories(test_ptx PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_ptx PRIVATE tessel_static)
add_test(NAME lib_ptx_patch COMMAND test_ptx)
set_tests_properties(lib_ptx_patch PROPERTIES TIMEOUT 60 LABELS "lib")
# The patched build's refusal on the test device (no sm_90 PTX there): no error, remembered.
add_test(NAME lib_ptx_refusal COMMAND test_ptx refusal)
set_tests_properties(lib_ptx_refusal PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                                LABELS "lib")
