/* common.c: the pieces every measuring subcommand shares (see common.h). */
#include "common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "ref/ref.h"

int cli_argc;
char **cli_argv;

/* Physical memory of this machine in bytes, 0 if unknown. */
long double cli_host_memory(void)
{
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) return (long double)pages * (long double)page;
#endif
    return 0;
}

/* The one error line for a context that could not be created. */
int cli_device_error(tsl_status st, const char *spec)
{
    char detail[512];
    snprintf(detail, sizeof detail, "%s", tsl_last_error());
    const char *env = getenv("TESSEL_DEVICE");
    char what[300];
    if (spec && spec[0])
        snprintf(what, sizeof what, "--device '%s'", spec);
    else if (env && env[0])
        snprintf(what, sizeof what, "TESSEL_DEVICE='%s'", env);
    else
        what[0] = '\0';
    if (st != TSL_ERR_NO_DEVICE)
        return cli_error(CLI_EXIT_RUNTIME, "cannot open the OpenCL device%s%s: %s (%s)",
                         what[0] ? " of " : "", what, detail[0] ? detail : "no details",
                         tsl_status_name(st));
    size_t count = 0;
    tsl_device_info list[16];
    if (tsl_devices(list, 16, &count) != TSL_OK || count == 0)
        return cli_error(CLI_EXIT_RUNTIME,
                         "no OpenCL device found: install an OpenCL driver (for the CPU, "
                         "pocl-opencl-icd) and check /etc/OpenCL/vendors");
    char devs[2048] = "";
    for (size_t i = 0; i < count && i < 16; ++i) {
        size_t used = strlen(devs);
        snprintf(devs + used, sizeof devs - used, "%s%d:%d %s", i ? ", " : "",
                 list[i].platform_index, list[i].device_index, list[i].name);
    }
    if (count > 16) strncat(devs, ", ...", sizeof devs - strlen(devs) - 1);
    return cli_error(CLI_EXIT_RUNTIME,
                     "no OpenCL device matches %s (devices: %s); pass --device P:D or part of a "
                     "device name",
                     what[0] ? what : "the default choice", devs);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double cli_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

size_t cli_elem_size(tsl_precision prec)
{
    return prec == TSL_DOUBLE                          ? sizeof(double)
           : prec == TSL_HALF || prec == TSL_BFLOAT16 ? sizeof(uint16_t)
                                                      : sizeof(float);
}

const char *cli_precision_name(tsl_precision prec)
{
    return prec == TSL_DOUBLE     ? "double"
           : prec == TSL_HALF     ? "half"
           : prec == TSL_BFLOAT16 ? "bfloat16"
                                  : "single";
}

void cli_fill_random(tsl_precision prec, void *x, size_t n, unsigned long long *state)
{
    if (prec == TSL_DOUBLE) {
        tsl_ref_fill_d(x, n, state);
    } else if (prec == TSL_HALF || prec == TSL_BFLOAT16) {
        uint16_t *h = x;
        float f;
        for (size_t i = 0; i < n; ++i) {
            tsl_ref_fill_f(&f, 1, state);
            h[i] = prec == TSL_HALF ? tsl_float_to_half(f) : tsl_float_to_bf16(f);
        }
    } else {
        tsl_ref_fill_f(x, n, state);
    }
}

void cli_fill_nan(tsl_precision prec, void *x, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (prec == TSL_DOUBLE)
            ((double *)x)[i] = NAN;
        else if (prec == TSL_HALF)
            ((uint16_t *)x)[i] = 0x7E00u; /* a quiet NaN */
        else if (prec == TSL_BFLOAT16)
            ((uint16_t *)x)[i] = 0x7FC0u;
        else
            ((float *)x)[i] = NAN;
    }
}

double *cli_to_double(tsl_precision prec, const void *x, size_t n)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) return NULL;
    for (size_t i = 0; i < n; ++i)
        d[i] = prec == TSL_DOUBLE ? ((const double *)x)[i]
               : prec == TSL_HALF ? (double)tsl_half_to_float(((const uint16_t *)x)[i])
               : prec == TSL_BFLOAT16 ? (double)tsl_bf16_to_float(((const uint16_t *)x)[i])
                                      : (double)((const float *)x)[i];
    return d;
}
