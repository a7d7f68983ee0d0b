# LAPACK library suite (docs/lapack.md), included by tests/CMakeLists.txt: test_lapack runs one
# family per process (LU with getrs and gesv, with each variant of its leaves; Cholesky with potrs
# and posv; bad input), against OpenBLAS's LAPACK on the CPU.
add_executable(test_lapack ${CMAKE_CURRENT_SOURCE_DIR}/test_lapack.c)
target_include_directories(test_lapack PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_lapack PRIVATE tessel_static ${OPENBLAS_LIBRARY} m)
foreach(family lu chol errors)
  add_test(NAME lib_lapack_${family} COMMAND test_lapack ${family})
  set_tests_properties(lib_lapack_${family} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                       LABELS "lib;lapack")
endforeach()
# LU's leaves over many work-groups (the variant GPUs take) on the same cases
add_test(NAME lib_lapack_lu_columns COMMAND test_lapack lu columns)
set_tests_properties(lib_lapack_lu_columns PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                      LABELS "lib;lapack")
# QR, its Q and least squares (test_qr.c)
add_executable(test_qr ${CMAKE_CURRENT_SOURCE_DIR}/test_qr.c)
target_include_directories(test_qr PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_qr PRIVATE tessel_static ${OPENBLAS_LIBRARY} m)
foreach(family qr errors)
  add_test(NAME lib_lapack_qr_${family} COMMAND test_qr ${family})
  set_tests_properties(lib_lapack_qr_${family} PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}"
                                                         TIMEOUT 300 LABELS "lib;lapack")
endforeach()
# QR's leaves over many work-groups (the variant GPUs take)
add_test(NAME lib_lapack_qr_columns COMMAND test_qr qr columns)
set_tests_properties(lib_lapack_qr_columns PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                      LABELS "lib;lapack")
