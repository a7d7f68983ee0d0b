# The multi-device layer of issue 6 (tests/test_multi.c): a group of PoCL CPU devices. PoCL 3.1
# exposes one CPU device per entry of POCL_DEVICES, so "pthread pthread pthread" gives three
# devices (0:0, 0:1, 0:2) on this machine's cores; each area is its own process.
add_executable(test_multi ${CMAKE_CURRENT_SOURCE_DIR}/test_multi.c)
target_include_directories(test_multi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_multi PRIVATE tessel_static tessel_ref Threads::Threads m)

foreach(area devices gemm poisson faults calibration)
  add_test(NAME lib_multi_${area} COMMAND test_multi ${area})
  set_tests_properties(lib_multi_${area} PROPERTIES
                       ENVIRONMENT "${TSL_TEST_ENV};POCL_DEVICES=pthread pthread pthread"
                       TIMEOUT 300 LABELS "lib;multi")
endforeach()
