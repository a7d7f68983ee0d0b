/* common.h: what every measuring subcommand of the tessel command shares: opening the device
 * with the documented error lines, the median of timed runs, random and NaN fills of host
 * arrays in either precision, and the machine's memory for size checks. */
#ifndef TESSEL_CLI_COMMON_H
#define TESSEL_CLI_COMMON_H

#include <stddef.h>

#include "tessel.h"

/* The one error line (and exit code) for a context tsl_context_create could not make from spec:
 * an unmatched spec lists the devices. */
int cli_device_error(tsl_status st, const char *spec);
/* Median of n values; sorts v. */
double cli_median(double *v, size_t n);
/* Physical memory of this machine in bytes, 0 if unknown. */
long double cli_host_memory(void);
/* n random values in [-1, 1) (never zeros), float or double, from *state. */
void cli_fill_random(int is_double, void *x, size_t n, unsigned long long *state);
void cli_fill_nan(int is_double, void *x, size_t n);
/* A malloc'ed double copy of n floats or doubles; NULL when out of memory. */
double *cli_to_double(int is_double, const void *x, size_t n);

#endif
