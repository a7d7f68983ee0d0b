/* lapack_forward.c: the resolver of the drop-in's LAPACK forwarders (docs/dropin.md, "Every other
 * LAPACK symbol"). Every LAPACK symbol the drop-in does not define itself (src/blas/
 * lapack_forward.txt) is an assembly trampoline (cmake/lapack_forward.cmake) that jumps through a
 * slot; the first call of each lands here with the symbol's index, and the slot then holds the
 * CPU LAPACK's function of the same name (tsl__blas_lapack_sym: TESSEL_LAPACK_CPU, the CPU BLAS
 * when it carries LAPACK, else the reference liblapack.so.3; never the drop-in itself), so later
 * calls cost one indirect jump. Where the CPU LAPACK lacks the symbol (said once on stderr by
 * tsl__blas_lapack_sym), the call returns without computing, as the BLAS forwarders do. x86-64
 * only: elsewhere the drop-in has no forwarders and programs link a LAPACK of their own. */
#include "blas/blas_internal.h"

#if defined(TSL_LAPACK_FORWARD)
extern void *tsl__lapack_slots[];
extern const char *const tsl__lapack_names[];
extern const unsigned tsl__lapack_count;

/* What a call of a missing symbol runs: nothing. */
static void missing(void)
{
}

__attribute__((visibility("hidden"))) void *tsl__lapack_resolve(unsigned index);
void *tsl__lapack_resolve(unsigned index)
{
    if (index >= tsl__lapack_count) return (void *)missing;
    void *f = tsl__blas_lapack_sym(tsl__lapack_names[index]);
    if (!f) f = (void *)missing;
    __atomic_store_n(&tsl__lapack_slots[index], f, __ATOMIC_RELEASE);
    return f;
}
#endif
