/* dropin_route.h: the shared pieces of the drop-in routing tests (test_dropin_route.c, the
 * in-process cases and main; test_dropin_route_exit.c, what a process prints; their helpers in
 * dropin_route_helpers.c). */
#ifndef TSL_TEST_DROPIN_ROUTE_H
#define TSL_TEST_DROPIN_ROUTE_H

#include <stddef.h>

#include "blas/route.h"

/* uniform in [-1, 1), a fixed xorshift sequence */
double urand(void);
/* stderr of a stretch of this process, into a string the caller frees */
void capture_begin(void);
char *capture_end(void);
/* occurrences of needle in text */
int count_of(const char *text, const char *needle);
/* C = A B (+ beta C), column-major, in double: the reference */
void ref_gemm(int m, int n, int k, const float *a, const float *b, float beta, float *c);
/* every element within tol relative to y */
int same(const float *x, const float *y, size_t n, double tol);
/* one sgemm as the drop-in runs it; 1 when it ran on the device */
int dropin_sgemm(tsl__blas_stat *st, int m, int n, int k, const float *a, const float *b, float beta,
                 float *c);
/* a random problem through dropin_sgemm, checked: 1 device, 0 CPU, -1 wrong */
int checked_sgemm(tsl__blas_stat *st, int m, int n, int k);
/* this program again with one case and extra environment (name, value pairs, NULL-ended); its
 * stderr into *err (freed by the caller); its exit status */
int run_child(const char *which, const char *const *env, char **err);

/* the cost model's figures of a GPU-like device */
tsl__blas_rates gpu_like(void);

/* the cases of test_dropin_route_exit.c */
void test_verbose(void);
void test_bad_route(void);
void test_bad_devices(void);
void test_config_env(void);
void test_auto_pocl(void);
void test_hint(void);
void child_verbose(void);
void child_calls(void);

#endif
