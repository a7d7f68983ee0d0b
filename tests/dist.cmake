# The MPI layer's all-or-nothing results (tests/test_dist.c, run by tests/dist.sh under mpirun -np
# 2 on two PoCL pthread devices): built where the tessel command has MPI (CMakeLists.txt's
# tessel_dist); a build without MPI has no such test.
if(TARGET tessel_dist)
  add_executable(test_dist ${CMAKE_CURRENT_SOURCE_DIR}/test_dist.c)
  target_include_directories(test_dist PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(test_dist PRIVATE tessel_dist tessel_ref m)
  find_program(TSL_DIST_BASH bash REQUIRED)
  if(NOT MPIEXEC_EXECUTABLE)
    set(MPIEXEC_EXECUTABLE mpirun)
  endif()
  add_test(NAME lib_dist
           COMMAND ${TSL_DIST_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/dist.sh $<TARGET_FILE:test_dist>
                   ${MPIEXEC_EXECUTABLE})
  set_tests_properties(lib_dist PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77
                       ENVIRONMENT "${TSL_TEST_ENV}" LABELS "lib;multi")
endif()
