# The tuning layer of issue 4 (tests/test_tune.c): the user database (store, lookup, auto reading
# it, damaged files ignored with a warning), the search, explicit configurations as variants, and
# every configuration of the shipped defaults verified on issue 4's shapes scaled down.
add_executable(test_tune ${CMAKE_CURRENT_SOURCE_DIR}/test_tune.c)
target_include_directories(test_tune PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_tune PRIVATE tessel_static tessel_ref m)
foreach(mode db tuner configs)
  add_test(NAME lib_tune_${mode} COMMAND test_tune ${mode})
  set_tests_properties(lib_tune_${mode} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 600
                                                    LABELS "lib;tune")
endforeach()
add_test(NAME lib_tune_defaults
         COMMAND test_tune defaults ${CMAKE_SOURCE_DIR}/src/tune/defaults.tuning)
set_tests_properties(lib_tune_defaults PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 900
                                                  LABELS "lib;tune")
