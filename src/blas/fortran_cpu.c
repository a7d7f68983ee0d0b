/* fortran_cpu.c: the CPU BLAS function behind each Fortran symbol, looked up once (fortran.h),
 * and the scalar tests the routines' quick returns use. */
#include <pthread.h>

#include "blas/fortran.h"

/* One lock for every first lookup: it is taken once per symbol, so it never contends, and it
 * makes "the CPU BLAS has no xyz_" print once even when threads race to the first call. */
static pthread_mutex_t g_lookup = PTHREAD_MUTEX_INITIALIZER;

void *tsl__blas_cpu_get(tsl__blas_cpu_fn *f)
{
    int state = atomic_load_explicit(&f->state, memory_order_acquire);
    if (state == 0) {
        pthread_mutex_lock(&g_lookup);
        state = atomic_load_explicit(&f->state, memory_order_relaxed);
        if (state == 0) {
            f->fn = tsl__blas_cpu_sym(f->symbol);
            state = f->fn ? 1 : -1;
            atomic_store_explicit(&f->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&g_lookup);
    }
    return state > 0 ? f->fn : NULL;
}

int tsl__blas_is_zero(char prec, const void *x)
{
    return prec == 'd' ? *(const double *)x == 0.0 : *(const float *)x == 0.0f;
}

int tsl__blas_is_one(char prec, const void *x)
{
    return prec == 'd' ? *(const double *)x == 1.0 : *(const float *)x == 1.0f;
}
