/* test_level3.h: what the three files of test_level3 share (test_level3.c: the routines' cases
 * and main; test_level3_batched.c: strided batched GEMM; test_level3_errors.c: bad input). One
 * process, one context; check.h's counters are shared (CHECK_SHARED, defined by the build). */
#ifndef TSL_TEST_LEVEL3_H
#define TSL_TEST_LEVEL3_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

extern tsl_context *g_ctx; /* the process's context */
extern int g_fp64;         /* whether the device has double precision */

/* signalling NaN sentinels in the output arrays: arithmetic would change them */
static const uint32_t NAN_OUT_F = 0x7F8DEAD1u;
static const uint64_t NAN_OUT_D = 0x7FF0DEADBEEF0001ull;

unsigned long long next_seed(void);          /* a fresh seed per case, from the run's seed */
double rand_scalar(unsigned long long *st);  /* alpha or beta: magnitude 0.25 to 1.5 */
void *xmalloc(size_t bytes);                 /* malloc, or exit 2 */
size_t es_of(int dbl);                       /* the element size */
void set_gemm(int dbl);                      /* the gemm variant of that precision on g_ctx */

void run_batched(void); /* test_level3_batched.c */
void run_errors(void);  /* test_level3_errors.c */

#endif
