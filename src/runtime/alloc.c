/* alloc.c: the one place libtessel allocates host memory, so the allocator can be swapped. */
#include <stdlib.h>

#include "runtime/runtime.h"

void *tsl__malloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
void *tsl__calloc(size_t count, size_t size) { return calloc(count ? count : 1, size ? size : 1); }
void tsl__free(void *p) { free(p); }
