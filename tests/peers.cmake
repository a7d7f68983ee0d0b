# The peers' own logic (cli/peers), included by tests/CMakeLists.txt. peers_openblas_core checks
# the OpenBLAS core choice on cpuinfo flag lines and the openblas peer's device text, without a
# device; the command's re-execution with the chosen core is tests/cli/openblas_core.sh.
add_executable(test_openblas_core ${CMAKE_CURRENT_SOURCE_DIR}/test_openblas_core.c)
target_include_directories(test_openblas_core PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_openblas_core PRIVATE tessel_peers)
add_test(NAME peers_openblas_core COMMAND test_openblas_core)
set_tests_properties(peers_openblas_core PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60
                                                    LABELS "peers")
