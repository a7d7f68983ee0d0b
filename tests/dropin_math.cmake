# The drop-in's math modes (TESSEL_BLAS_MATH; docs/dropin.md, "Math modes"), included by
# tests/CMakeLists.txt. dropin_math_error, linked with -ltessel_blas as a program links it, runs
# sgemm_ and cblas_sgemm on the device (TESSEL_BLAS_ROUTE=device) and judges their error for the
# mode the case expects (tests/dropin/math_error.c has the bounds): FP32's when the variable is
# unset or fp32, 3xTF32's (FP32-level) with 3xtf32, TF32's (far above FP32's, so the mode is
# proven applied) with tf32; a bad value gives one warning and FP32. tests/dropin/math_check.sh
# checks the report's header and the warnings. The same program measures the error table of
# docs/dropin.md (bench/dropin/math_error.sh).
add_executable(dropin_math_error ${CMAKE_CURRENT_SOURCE_DIR}/dropin/math_error.c)
target_include_directories(dropin_math_error PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(dropin_math_error PRIVATE tessel_blas m)
# case|TESSEL_BLAS_MATH (empty: unset)|the mode expected|warnings
foreach(entry "unset||fp32|0" "fp32|fp32|fp32|0" "tf32|tf32|tf32|0" "3xtf32|3xTF32|3xtf32|0"
              "bad|fp16|fp32|1")
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 case)
  list(GET parts 1 value)
  list(GET parts 2 mode)
  list(GET parts 3 warnings)
  add_test(NAME dropin_math_${case}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/dropin/math_check.sh
                   $<TARGET_FILE:dropin_math_error> ${mode} ${warnings})
  set(env ${TSL_DROPIN_ENV} "TESSEL_BLAS_ROUTE=device")
  if(NOT value STREQUAL "")
    list(APPEND env "TESSEL_BLAS_MATH=${value}")
  endif()
  set_tests_properties(dropin_math_${case} PROPERTIES ENVIRONMENT "${env}" TIMEOUT 120
                                                      LABELS dropin)
endforeach()
