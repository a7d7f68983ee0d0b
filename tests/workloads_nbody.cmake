# The N-body workload of 002 (tests/test_nbody.c): one ctest per variant so `ctest -j` runs them
# in parallel, one for bad input and options, and one that fails if tsl_variant_name("nbody", i)
# lists a different set than TSL_NBODY_VARIANTS (add a new variant here when the library gains one).
set(TSL_NBODY_VARIANTS original local optimized)

add_executable(test_nbody ${CMAKE_CURRENT_SOURCE_DIR}/test_nbody.c)
target_include_directories(test_nbody PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_nbody PRIVATE tessel_static tessel_ref m)

foreach(v ${TSL_NBODY_VARIANTS} auto errors)
  add_test(NAME lib_nbody_${v} COMMAND test_nbody ${v})
  set_tests_properties(lib_nbody_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                 LABELS "lib;nbody")
endforeach()
add_test(NAME lib_nbody_variant_list COMMAND test_nbody --expect-variants ${TSL_NBODY_VARIANTS})
set_tests_properties(lib_nbody_variant_list PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60
                                                       LABELS "lib;nbody")
