# The routing and device side of the drop-in BLAS (src/blas/route.c, device.c, calibrate.c,
# config.c, stats.c; docs/dropin.md), included by tests/CMakeLists.txt. test_dropin_route is
# compiled with those sources and the CPU BLAS loader, not with the BLAS symbols: it calls the
# inner entry points a dgemm_ uses, one case per process. TESSEL_BLAS_ROUTE=device sends every
# call to PoCL; the auto cases run on PoCL as they would on any machine without a GPU.
set(TSL_DROPIN_ROUTE_SOURCES route.c device.c calibrate.c config.c stats.c cpu.c)
list(TRANSFORM TSL_DROPIN_ROUTE_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/src/blas/)
add_executable(test_dropin_route ${CMAKE_CURRENT_SOURCE_DIR}/test_dropin_route.c
                                 ${CMAKE_CURRENT_SOURCE_DIR}/test_dropin_route_exit.c
                                 ${CMAKE_CURRENT_SOURCE_DIR}/dropin_route_helpers.c
                                 ${TSL_DROPIN_ROUTE_SOURCES})
target_include_directories(test_dropin_route PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                                                     ${PROJECT_SOURCE_DIR}/src)
target_link_libraries(test_dropin_route PRIVATE tessel ${CMAKE_DL_LIBS} Threads::Threads m)

# case|extra environment, comma-separated. The cases whose own threads call the device run with
# ASan's alternate signal stack off: PoCL writes its kernel cache through LLVM's
# RemoveFileOnSignal, which installs LLVM's own sigaltstack on the calling thread, and ASan then
# fails ("unable to unmap") when that thread exits. A PoCL-under-ASan artefact, not ours.
set(TSL_DROPIN_NOALT "ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:use_sigaltstack=0")
set(TSL_DROPIN_ROUTE_CASES
    "model|" "config|" "calibrate|" "calibrate_default|" "device|TESSEL_BLAS_ROUTE=device"
    "threads|TESSEL_BLAS_ROUTE=device,${TSL_DROPIN_NOALT}"
    "fork|TESSEL_BLAS_ROUTE=device,${TSL_DROPIN_NOALT}"
    "errors|TESSEL_BLAS_ROUTE=device"
    "fault|TESSEL_BLAS_ROUTE=device,TESSEL_BLAS_FAULT=sgemm:out_of_memory"
    "verbose|" "bad_route|" "bad_devices|" "config_env|"
    "group|TESSEL_BLAS_ROUTE=device,POCL_DEVICES=pthread pthread,TESSEL_BLAS_DEVICES=0:0@0:1,${TSL_DROPIN_NOALT}"
    "one_of_all|TESSEL_BLAS_ROUTE=device,TESSEL_BLAS_DEVICES=all"
    "auto_pocl|OPENBLAS_NUM_THREADS=1,TESSEL_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/dropin_route_auto_cache"
    "hint|OPENBLAS_NUM_THREADS=1,TESSEL_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/dropin_route_hint_cache,${TSL_DROPIN_NOALT}")
foreach(entry ${TSL_DROPIN_ROUTE_CASES})
  string(REPLACE "|" ";" parts "${entry}")
  string(REPLACE "," ";" parts "${parts}")
  string(REPLACE "@" "," parts "${parts}") # a comma inside a value
  list(GET parts 0 case)
  list(LENGTH parts len)
  set(extra "")
  if(len GREATER 1)
    list(SUBLIST parts 1 -1 extra)
  endif()
  add_test(NAME dropin_route_${case} COMMAND test_dropin_route ${case})
  set_tests_properties(dropin_route_${case} PROPERTIES
                       ENVIRONMENT "${TSL_TEST_ENV};${extra}" TIMEOUT 300 LABELS "dropin")
endforeach()
