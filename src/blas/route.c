/* route.c: where a call runs. FIRST CUT (to be replaced by the cost model): TESSEL_BLAS_ROUTE=
 * device sends every supported call to the device, anything else keeps it on the CPU. One
 * context for the process, created on first use, one thread on it at a time. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas/blas_internal.h"

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static tsl_context *g_ctx;
static int g_state; /* 0 untried, 1 usable, -1 unusable */

static int route_device(void)
{
    const char *r = getenv("TESSEL_BLAS_ROUTE");
    return r && strcmp(r, "device") == 0;
}

tsl_context *tsl__blas_device_begin(tsl__blas_call *call)
{
    if (!route_device()) return NULL;
    pthread_mutex_lock(&g_lock);
    if (g_state == 0) {
        tsl_status s = tsl_context_create(getenv("TESSEL_BLAS_DEVICES"), &g_ctx);
        g_state = s == TSL_OK ? 1 : -1;
        if (s != TSL_OK)
            fprintf(stderr, "tessel-blas: warning: no device (%s: %s); the CPU BLAS does every call\n",
                    tsl_status_name(s), tsl_last_error());
    }
    if (g_state != 1) {
        pthread_mutex_unlock(&g_lock);
        return NULL;
    }
    call->t0 = tsl__blas_clock();
    return g_ctx; /* locked until tsl__blas_device_end */
}

int tsl__blas_device_end(tsl__blas_call *call, tsl_context *ctx, tsl_status status)
{
    static int warned;
    if (status != TSL_OK && !warned) {
        warned = 1;
        fprintf(stderr, "tessel-blas: warning: %s on the device failed (%s: %s); the CPU BLAS does it\n",
                call->stat->name, tsl_status_name(status), tsl_context_error(ctx));
    }
    pthread_mutex_unlock(&g_lock);
    if (status == TSL_OK) tsl__blas_stat_add(call->stat, 1, tsl__blas_clock() - call->t0);
    return status == TSL_OK;
}
