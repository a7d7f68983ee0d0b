# The Pi and K-means workloads of 002 (tests/test_pi.c, tests/test_kmeans.c): one ctest per
# variant so `ctest -j` runs them in parallel, one for Pi's odd launches (--global/--local), one
# each for bad input and options, and one each that fails if tsl_variant_name lists a different set
# than TSL_PI_VARIANTS / TSL_KMEANS_VARIANTS (add a new variant here when the library gains one).
set(TSL_PI_VARIANTS original multithread float2 float4 float8 float16 optimized)
set(TSL_KMEANS_VARIANTS original unrolled optimized)

foreach(w pi kmeans)
  add_executable(test_${w} ${CMAKE_CURRENT_SOURCE_DIR}/test_${w}.c)
  target_include_directories(test_${w} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(test_${w} PRIVATE tessel_static tessel_ref m)
endforeach()

foreach(v ${TSL_PI_VARIANTS} auto launches errors)
  add_test(NAME lib_pi_${v} COMMAND test_pi ${v})
  set_tests_properties(lib_pi_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                              LABELS "lib;pi")
endforeach()
add_test(NAME lib_pi_variant_list COMMAND test_pi --expect-variants ${TSL_PI_VARIANTS})
set_tests_properties(lib_pi_variant_list PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60
                                                    LABELS "lib;pi")

foreach(v ${TSL_KMEANS_VARIANTS} auto errors)
  add_test(NAME lib_kmeans_${v} COMMAND test_kmeans ${v})
  set_tests_properties(lib_kmeans_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                  LABELS "lib;kmeans")
endforeach()
add_test(NAME lib_kmeans_variant_list COMMAND test_kmeans --expect-variants ${TSL_KMEANS_VARIANTS})
set_tests_properties(lib_kmeans_variant_list PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 60
                                                        LABELS "lib;kmeans")
