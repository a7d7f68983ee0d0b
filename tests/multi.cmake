# The multi-device layer of issue 6 (tests/test_multi.c): a group of PoCL CPU devices. PoCL 3.1
# exposes one CPU device per entry of POCL_DEVICES, so "pthread pthread pthread" gives three
# devices (0:0, 0:1, 0:2) on this machine's cores; each area is its own process.
add_executable(test_multi ${CMAKE_CURRENT_SOURCE_DIR}/test_multi.c)
target_include_directories(test_multi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(test_multi PRIVATE CL_TARGET_OPENCL_VERSION=120)
target_link_libraries(test_multi PRIVATE tessel_static tessel_ref Threads::Threads m)

foreach(area devices gemm poisson faults calibration lifetimes)
  add_test(NAME lib_multi_${area} COMMAND test_multi ${area})
  set_tests_properties(lib_multi_${area} PROPERTIES
                       ENVIRONMENT "${TSL_TEST_ENV};POCL_DEVICES=pthread pthread pthread"
                       TIMEOUT 300 LABELS "lib;multi")
endforeach()

# The GEMM pipeline on one device (tests/test_pipeline.c), the same GEMM cases as the groups'
# (tests/gemm_case.h).
add_executable(test_pipeline ${CMAKE_CURRENT_SOURCE_DIR}/test_pipeline.c)
target_include_directories(test_pipeline PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(test_pipeline PRIVATE CL_TARGET_OPENCL_VERSION=120)
target_link_libraries(test_pipeline PRIVATE tessel_static tessel_ref Threads::Threads m)
add_test(NAME lib_multi_pipeline COMMAND test_pipeline)
set_tests_properties(lib_multi_pipeline PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                     LABELS "lib;multi")

# Commands whose devices time out (issue 14): `tessel gemm|poisson --devices` with
# TESSEL_TIMEOUT=0.000001 exit 3 promptly, with one error line and nothing from the sanitizers,
# leaks included (tests/cli/timeouts.sh turns LeakSanitizer back on).
find_program(TSL_TIMEOUTS_BASH bash REQUIRED)
add_test(NAME cli_timeouts
         COMMAND ${TSL_TIMEOUTS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/cli/timeouts.sh
                 $<TARGET_FILE:tessel_cli>)
set_tests_properties(cli_timeouts PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                     SKIP_RETURN_CODE 77 LABELS "cli;multi")
