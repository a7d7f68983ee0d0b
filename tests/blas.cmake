# BLAS-1/2 library suites (issue 3), included by tests/CMakeLists.txt: test_blas runs one op and
# one variant per process, so ctest runs them in parallel; lib_blas_errors checks bad input through
# the API; lib_blas_variant_list_<op> fails if tsl_variant_name lists a different set than
# TSL_BLAS1_VARIANTS or TSL_GEMV_VARIANTS (add a new variant here when the library gains one).
set(TSL_BLAS1_VARIANTS naive vector wide)
set(TSL_GEMV_VARIANTS naive vector)

add_executable(test_blas ${CMAKE_CURRENT_SOURCE_DIR}/test_blas.c)
target_include_directories(test_blas PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_blas PRIVATE tessel_static tessel_ref m)

foreach(op axpy dot nrm2 gemv)
  if(op STREQUAL "gemv")
    set(variants ${TSL_GEMV_VARIANTS})
  else()
    set(variants ${TSL_BLAS1_VARIANTS})
  endif()
  foreach(v ${variants} auto)
    add_test(NAME lib_blas_${op}_${v} COMMAND test_blas ${op} ${v})
    set_tests_properties(lib_blas_${op}_${v} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                        LABELS "lib;blas")
  endforeach()
  add_test(NAME lib_blas_variant_list_${op}
           COMMAND test_blas --expect-variants ${op} ${variants})
  set_tests_properties(lib_blas_variant_list_${op} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}"
                                                              TIMEOUT 60 LABELS "lib;blas")
endforeach()
add_test(NAME lib_blas_errors COMMAND test_blas errors)
set_tests_properties(lib_blas_errors PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 120
                                                LABELS "lib;blas")
