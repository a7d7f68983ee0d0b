# The source tree's structure, checked without a build or a device, included by
# tests/CMakeLists.txt. include_dag: the files' dependency graph (a file uses what another
# defines, through its header) has no cycle; include_dag_selftest: the check finds a planted one.
add_test(NAME include_dag COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/include_dag.sh
                                   ${PROJECT_SOURCE_DIR})
add_test(NAME include_dag_selftest
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/include_dag.sh --self-test)
set_tests_properties(include_dag include_dag_selftest PROPERTIES TIMEOUT 30 LABELS "structure")
