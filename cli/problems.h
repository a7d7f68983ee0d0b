/* problems.h: the data and the --verify rules of `tessel gemm` and `tessel poisson`, shared by
 * their single-device runs (cmd_gemm.c, cmd_poisson.c) and their multi-device and distributed
 * runs (multi.c), so that a case run either way sees the same numbers and passes or fails by the
 * same rule. It sits below all three: it includes none of them. */
#ifndef TESSEL_CLI_PROBLEMS_H
#define TESSEL_CLI_PROBLEMS_H

#include <stddef.h>

#include "tessel.h"

/* A, B and C of case `index`, as `tessel gemm` fills them from --seed. */
void cli_gemm_fill(tsl_precision prec, unsigned long long seed, size_t index, void *a, size_t ea,
                   void *b, size_t eb, void *c0, size_t ec);
/* f and the initial u of grid `index`: the sine problem or seeded random data. */
void cli_poisson_problem(int random_problem, int is_double, unsigned long long seed, size_t index,
                         size_t n, void *f, void *u0);
/* --verify of a Poisson iterate: max |u - u_ref| / max |u_ref| and its pass threshold. */
double cli_poisson_error(int is_double, const void *out, const double *ref, size_t count);
double cli_poisson_tolerance(int is_double, double tolerance, int sweeps);

#endif
