# The documents' references to the tree (tests/doc_links.sh): every bench/results/, bench/scripts/,
# docs/, src/, cli/ and tests/ path that README.md, docs/*.md and bench/*.md name exists. Plain
# bash, no device: under a second.
find_program(TSL_DOCS_BASH bash REQUIRED)
add_test(NAME docs_links
         COMMAND ${TSL_DOCS_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/doc_links.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(docs_links PROPERTIES TIMEOUT 30 LABELS "docs")
