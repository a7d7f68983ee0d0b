# The Poisson / Jacobi solver of issue 3 (tests/test_poisson.c): one ctest per variant so
# `ctest -j` runs them in parallel, one for bad input and options, and one that fails if
# tsl_variant_name("poisson", i) lists a different set than TSL_POISSON_VARIANTS (add a new
# variant here when the library gains one).
set(TSL_POISSON_VARIANTS naive local temporal_2 temporal_4 temporal_8)

add_executable(test_poisson ${CMAKE_CURRENT_SOURCE_DIR}/test_poisson.c)
target_include_directories(test_poisson PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_poisson PRIVATE tessel_static tessel_ref m)

foreach(v ${TSL_POISSON_VARIANTS} auto errors)
  add_test(NAME lib_poisson_${v} COMMAND test_poisson ${v})
  set_tests_properties(lib_poisson_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                   LABELS "lib;poisson")
endforeach()
add_test(NAME lib_poisson_variant_list
         COMMAND test_poisson --expect-variants ${TSL_POISSON_VARIANTS})
set_tests_properties(lib_poisson_variant_list PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60
                                                         LABELS "lib;poisson")
