# The registry of temporary files that an interrupted program removes (src/runtime/tempfile.c,
# issue 14): no device needed. tests/cli/interrupt.sh checks the tessel command's use of it.
add_executable(test_tempfile ${CMAKE_CURRENT_SOURCE_DIR}/test_tempfile.c)
target_include_directories(test_tempfile PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_tempfile PRIVATE tessel_static Threads::Threads)
add_test(NAME lib_tempfile COMMAND test_tempfile)
set_tests_properties(lib_tempfile PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60 LABELS "lib")
