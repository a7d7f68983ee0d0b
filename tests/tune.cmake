# The tuning layer of issues 4 and 14 (tests/test_tune.c): the user database (store, lookup, auto
# reading it, damaged files ignored with a warning), the search, explicit configurations as
# variants, every configuration of the shipped defaults parsed (and, label full, verified on issue
# 4's shapes scaled down),
# the store-or-keep-auto rule of `tessel tune` (cli/tune_decide.c) on synthetic times, and entries
# that apply only near the shapes they were measured on.
add_executable(test_tune ${CMAKE_CURRENT_SOURCE_DIR}/test_tune.c
                         ${CMAKE_SOURCE_DIR}/cli/tune_decide.c)
target_include_directories(test_tune PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/cli
                                             ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_tune PRIVATE tessel_static tessel_ref m)
foreach(mode db tuner decide near)
  add_test(NAME lib_tune_${mode} COMMAND test_tune ${mode})
  set_tests_properties(lib_tune_${mode} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 600
                                                    LABELS "lib;tune")
endforeach()
# The two long suites (every configuration compiled on PoCL, minutes cold) run as shards that
# ctest runs side by side: configs in 3, defaults in 2.
foreach(k 0 1 2)
  add_test(NAME lib_tune_configs_${k} COMMAND test_tune configs ${k}/3)
  set_tests_properties(lib_tune_configs_${k} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 900
                                                        LABELS "lib;tune")
endforeach()
# Every entry of the shipped defaults run on issue 4's shapes: data, each entry a program of its
# own (minutes of PoCL compiles), whose kernel paths lib_tune_configs_*, lib_tensor_* and
# lib_dmma_async_* run: label full (make check-full). make check parses every entry against its
# kind's rule, compiling nothing (lib_tune_defaults_valid).
foreach(k 0 1)
  add_test(NAME lib_tune_defaults_${k}
           COMMAND test_tune defaults ${CMAKE_SOURCE_DIR}/src/tune/defaults.tuning ${k}/2)
  set_tests_properties(lib_tune_defaults_${k} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 900
                                                         LABELS "lib;tune;full")
endforeach()
add_test(NAME lib_tune_defaults_valid
         COMMAND test_tune defaults_valid ${CMAKE_SOURCE_DIR}/src/tune/defaults.tuning)
set_tests_properties(lib_tune_defaults_valid PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60
                                                        LABELS "lib;tune")
# The tensor-core kinds' spaces (issue 17): refused on a device without the instruction; on a
# context made to look like an sm_80 GPU, MMA=4 / MMA=5 candidates that run, ASYNC/FPIPE/BT searched;
# double's ring axes and points on contexts made to look like sm_90, sm_80 and sm_86 GPUs.
add_executable(test_tune_tensor ${CMAKE_CURRENT_SOURCE_DIR}/test_tune_tensor.c)
target_include_directories(test_tune_tensor PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                    ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_tune_tensor PRIVATE tessel_static m)
add_test(NAME lib_tune_tensor COMMAND test_tune_tensor)
set_tests_properties(lib_tune_tensor PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                                LABELS "lib;tune")
add_test(NAME lib_tune_layers COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tune_layers.sh
                                      ${CMAKE_SOURCE_DIR})
set_tests_properties(lib_tune_layers PROPERTIES TIMEOUT 30 LABELS "lib;tune")
# The lookup order (tests/test_tune_lookup.c): names normalized, each selector level on synthetic
# devices and databases, the user's entries first, the shipped sm_90 entries on every Hopper, and
# TRSM's block sizes, parts and leaf classes read from the database.
add_executable(test_tune_lookup ${CMAKE_CURRENT_SOURCE_DIR}/test_tune_lookup.c)
target_include_directories(test_tune_lookup PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                    ${CMAKE_SOURCE_DIR}/src)
target_link_libraries(test_tune_lookup PRIVATE tessel_static tessel_ref m)
foreach(mode names levels shipped trsm)
  add_test(NAME lib_tune_lookup_${mode} COMMAND test_tune_lookup ${mode})
  set_tests_properties(lib_tune_lookup_${mode} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                          LABELS "lib;tune")
endforeach()
