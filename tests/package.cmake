# The installed package (issue 14), included by tests/CMakeLists.txt: package_example installs
# this build into a temporary prefix and builds README.md's example against it with pkg-config and
# with find_package(tessel) (tests/package.sh). man_page checks that docs/tessel.1, the installed
# man page, names every command and option that `tessel --help` and `tessel CMD --help` print, and
# no option they do not (tests/man_page.sh).
find_program(TSL_BASH_PKG bash REQUIRED)
add_test(NAME package_example
         COMMAND ${TSL_BASH_PKG} ${CMAKE_CURRENT_SOURCE_DIR}/package.sh ${CMAKE_COMMAND}
                 ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CMAKE_C_COMPILER} ${TESSEL_SANITIZE})
set_tests_properties(package_example PROPERTIES ENVIRONMENT "${TSL_TEST_ENV}" TIMEOUT 300
                                                SKIP_RETURN_CODE 77 LABELS "package")
