/* common.h: what every measuring subcommand of the tessel command shares: opening the device
 * with the documented error lines, the median of timed runs, random and NaN fills of host
 * arrays in either precision, the machine's memory for size checks, and the command line that
 * the records quote. */
#ifndef TESSEL_CLI_COMMON_H
#define TESSEL_CLI_COMMON_H

#include <stddef.h>

#include "tessel.h"

/* The whole command line, for the record written into --json output (main sets it). */
extern int cli_argc;
extern char **cli_argv;

/* The one error line (and exit code) for a context tsl_context_create could not make from spec:
 * an unmatched spec lists the devices. */
int cli_device_error(tsl_status st, const char *spec);
/* Seconds of the monotonic clock, for wall-clock timings. */
double cli_now_s(void);
/* Median of n values; sorts v. */
double cli_median(double *v, size_t n);
/* Physical memory of this machine in bytes, 0 if unknown. */
long double cli_host_memory(void);
/* The arrays below hold floats, doubles or halves (binary16 bits, uint16_t) by prec; the
 * commands' is_double (0 or 1) is TSL_SINGLE or TSL_DOUBLE. */
/* Bytes of one element. */
size_t cli_elem_size(tsl_precision prec);
/* "single", "double", "half" or "bfloat16", as the CSV's precision column spells it. */
const char *cli_precision_name(tsl_precision prec);
/* n random values in [-1, 1) (never zeros) from *state; halves (bfloat16s) are float values
 * rounded to half (tsl_float_to_half; tsl_float_to_bf16), so the data is what a float program
 * would store as half (bfloat16). */
void cli_fill_random(tsl_precision prec, void *x, size_t n, unsigned long long *state);
void cli_fill_nan(tsl_precision prec, void *x, size_t n);
/* A malloc'ed double copy of n values (exact in every precision); NULL when out of memory. */
double *cli_to_double(tsl_precision prec, const void *x, size_t n);

#endif
