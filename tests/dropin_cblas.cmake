# The CBLAS symbols of libtessel_blas.so (issue 16; docs/dropin.md, "The CBLAS symbols"),
# included by tests/CMakeLists.txt:
#   dropin_cblas_exports     the exported cblas_* set is the reference CBLAS's (Debian's
#                            blas/libblas.so.3), RowMajorStrg and CBLAS_CallFromC included
#   dropin_cblas_prototypes  the generated definitions compile against Debian's cblas.h
#                            (cblas-netlib.h): a prototype unlike the standard one fails
#   dropin_cblas_generated   cblas_gen.c is what cblas_gen.py writes from cblas_table.txt
#   dropin_cblas_<route>_<x> the reference CBLAS testers (libblas-test) with the library
#                            preloaded, shipped inputs (error exits, both layouts):
#                            device: s and d (and c, z Level 3) with TESSEL_BLAS_ROUTE=device,
#                            each also checking that its routines made device calls (GEMM, and
#                            for c and z Level 3 every routine); cpu: s, d, c, z with
#                            TESSEL_BLAS_ROUTE=cpu; wide: s and d Level 2 and 3 on the device
#                            with inputs widened to odd sizes up to the testers' NMAX (65)
set(TSL_CBLAS_REF_DIR /usr/lib/x86_64-linux-gnu/blas)
set(TSL_CBLAS_RUN ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_tester.sh)
set(TSL_CBLAS_WORK ${CMAKE_CURRENT_BINARY_DIR}/dropin_cblas)

if(EXISTS ${TSL_CBLAS_REF_DIR}/libblas.so.3)
  add_test(NAME dropin_cblas_exports
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_exports.sh
                   $<TARGET_FILE:tessel_blas> ${TSL_CBLAS_REF_DIR}/libblas.so.3)
  set_tests_properties(dropin_cblas_exports PROPERTIES TIMEOUT 60 LABELS "dropin;cblas")
else()
  message(STATUS "reference BLAS not found (libblas3): dropin_cblas_exports not added")
endif()

find_file(TSL_CBLAS_NETLIB_H cblas-netlib.h PATHS /usr/include/x86_64-linux-gnu NO_DEFAULT_PATH)
if(TSL_CBLAS_NETLIB_H)
  add_test(NAME dropin_cblas_prototypes
           COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -Werror -D_POSIX_C_SOURCE=200809L
                   -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/include
                   -include ${TSL_CBLAS_NETLIB_H} ${PROJECT_SOURCE_DIR}/src/blas/cblas_gen.c
                   ${PROJECT_SOURCE_DIR}/src/blas/cblas_cabs1.c)
  set_tests_properties(dropin_cblas_prototypes PROPERTIES TIMEOUT 60 LABELS "dropin;cblas")
else()
  message(STATUS "cblas-netlib.h not found (libblas-dev): dropin_cblas_prototypes not added")
endif()

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  add_test(NAME dropin_cblas_generated
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/src/blas/cblas_gen.py --check)
  set_tests_properties(dropin_cblas_generated PROPERTIES TIMEOUT 60 LABELS "dropin;cblas")
endif()

# One tester run: NAME, ROUTE (device|cpu), TESTER, INPUT (a file or -), the routines whose
# device calls must be nonzero (separated by commas; "" for none).
function(tsl_cblas_tester name route tester input devroutine)
  set(dir ${TSL_CBLAS_WORK}/${name})
  file(MAKE_DIRECTORY ${dir})
  add_test(NAME ${name}
           COMMAND ${TSL_CBLAS_RUN} ${TSL_PRELOAD} $<TARGET_FILE:tessel_blas>
                   ${TSL_CBLAS_REF_DIR}/${tester} ${input} ${devroutine}
           WORKING_DIRECTORY ${dir})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${TSL_DROPIN_ENV};TESSEL_BLAS_ROUTE=${route};TESSEL_BLAS_VERBOSE=1"
    TIMEOUT 300 LABELS "dropin;cblas")
endfunction()

if(EXISTS ${TSL_CBLAS_REF_DIR}/xdcblat3)
  foreach(p s d c z)
    # every precision through the CPU BLAS (complex always goes there)
    tsl_cblas_tester(dropin_cblas_cpu_${p}1 cpu x${p}cblat1 - "")
    tsl_cblas_tester(dropin_cblas_cpu_${p}2 cpu x${p}cblat2 ${TSL_CBLAS_REF_DIR}/${p}in2 "")
    tsl_cblas_tester(dropin_cblas_cpu_${p}3 cpu x${p}cblat3 ${TSL_CBLAS_REF_DIR}/${p}in3 "")
  endforeach()
  foreach(p s d)
    tsl_cblas_tester(dropin_cblas_device_${p}1 device x${p}cblat1 - cblas_${p}dot)
    tsl_cblas_tester(dropin_cblas_device_${p}2 device x${p}cblat2 ${TSL_CBLAS_REF_DIR}/${p}in2
                     cblas_${p}gemv)
    tsl_cblas_tester(dropin_cblas_device_${p}3 device x${p}cblat3 ${TSL_CBLAS_REF_DIR}/${p}in3
                     cblas_${p}gemm)
    tsl_cblas_tester(dropin_cblas_wide_${p}2 device x${p}cblat2
                     ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_${p}in2_wide cblas_${p}gemv)
    tsl_cblas_tester(dropin_cblas_wide_${p}3 device x${p}cblat3
                     ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_${p}in3_wide cblas_${p}gemm)
  endforeach()
  # complex Level 3: every routine on the device (both layouts)
  foreach(p c z)
    set(devs "")
    foreach(r gemm symm hemm syrk herk syr2k her2k trmm trsm)
      list(APPEND devs cblas_${p}${r})
    endforeach()
    string(REPLACE ";" "," devs "${devs}")
    tsl_cblas_tester(dropin_cblas_device_${p}3 device x${p}cblat3 ${TSL_CBLAS_REF_DIR}/${p}in3
                     ${devs})
  endforeach()
else()
  message(STATUS "reference CBLAS testers not found (libblas-test): dropin_cblas testers not added")
endif()

# The error calls the testers do not reach (cgerc, the reference's oddities, the globals), with
# the program's own cblas_xerbla and xerbla_ (exported, so they replace the library's).
add_executable(dropin_cblas_errors ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_errors.c)
target_include_directories(dropin_cblas_errors PRIVATE ${PROJECT_SOURCE_DIR}/src
                                                       ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(dropin_cblas_errors PRIVATE tessel_blas)
set_target_properties(dropin_cblas_errors PROPERTIES ENABLE_EXPORTS ON)
add_test(NAME dropin_cblas_errors COMMAND dropin_cblas_errors)
set_tests_properties(dropin_cblas_errors PROPERTIES
  ENVIRONMENT "${TSL_TEST_ENV};TESSEL_BLAS_ROUTE=cpu" TIMEOUT 60 LABELS "dropin;cblas")

# Differential test of every checked routine: cblas_fuzz.c (generated from cblas_table.txt by
# cblas_fuzz_gen.py) calls each with seeded random good and bad arguments and prints every error
# call; built against libtessel_blas.so and against the reference CBLAS, the outputs must match.
if(Python3_Interpreter_FOUND AND EXISTS ${TSL_CBLAS_REF_DIR}/libblas.so.3)
  set(fuzz_c ${CMAKE_CURRENT_BINARY_DIR}/generated/cblas_fuzz.c)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/generated)
  add_custom_command(
    OUTPUT ${fuzz_c}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_fuzz_gen.py
            ${PROJECT_SOURCE_DIR}/src/blas/cblas_table.txt ${fuzz_c} 400
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_fuzz_gen.py
            ${PROJECT_SOURCE_DIR}/src/blas/cblas_table.txt
    COMMENT "Generating cblas_fuzz.c" VERBATIM)
  add_executable(dropin_cblas_fuzz ${fuzz_c})
  target_link_libraries(dropin_cblas_fuzz PRIVATE tessel_blas)
  add_executable(dropin_cblas_fuzz_ref ${fuzz_c})
  target_link_libraries(dropin_cblas_fuzz_ref PRIVATE ${TSL_CBLAS_REF_DIR}/libblas.so.3)
  set_target_properties(dropin_cblas_fuzz dropin_cblas_fuzz_ref PROPERTIES ENABLE_EXPORTS ON
                        BUILD_RPATH "${TSL_CBLAS_REF_DIR};${CMAKE_BINARY_DIR}")
  file(MAKE_DIRECTORY ${TSL_CBLAS_WORK}/dropin_cblas_fuzz)
  add_test(NAME dropin_cblas_fuzz
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/dropin/cblas_fuzz.sh
                   $<TARGET_FILE:dropin_cblas_fuzz> $<TARGET_FILE:dropin_cblas_fuzz_ref>
           WORKING_DIRECTORY ${TSL_CBLAS_WORK}/dropin_cblas_fuzz)
  set(env "${TSL_TEST_ENV};TESSEL_BLAS_ROUTE=cpu;TESSEL_BLAS_CPU=${TSL_CBLAS_REF_DIR}/libblas.so.3")
  set_tests_properties(dropin_cblas_fuzz PROPERTIES ENVIRONMENT "${env}" TIMEOUT 120
                                                    LABELS "dropin;cblas")
endif()
