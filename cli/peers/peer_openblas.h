/* peer_openblas.h: what the tessel command knows about the OpenBLAS it links, so that a CPU peer
 * is honest and says what it was. OpenBLAS built with DYNAMIC_ARCH picks its kernels from the CPU
 * it recognizes when it loads, and on a CPU it does not know (a virtualized Xeon with AVX-512, for
 * one) it falls back to generic kernels that run at a fifth to a twentieth of the right ones'
 * speed. The only remedy is the OPENBLAS_CORETYPE environment variable, read once when the library
 * loads: the command (cli/main.c) re-executes itself with it; these functions decide which core
 * to name (a pure function of the detected core and the CPU's flags) and describe the result for
 * the device column of every OpenBLAS row and for the environment records. Nothing here changes
 * the environment. */
#ifndef TESSEL_PEER_OPENBLAS_H
#define TESSEL_PEER_OPENBLAS_H

#include <stddef.h>

/* The variable the command sets, beside OPENBLAS_CORETYPE, when it chose the core itself: it holds
 * the core OpenBLAS detected, for the records, and marks the re-executed process. */
#define TSL_OPENBLAS_DETECTED_ENV "TESSEL_OPENBLAS_DETECTED"

/* The OpenBLAS core type to name in OPENBLAS_CORETYPE instead of `detected` (what
 * openblas_get_corename() returned), given the flags of /proc/cpuinfo (space-separated words, as
 * on its "flags" line). NULL when nothing should change: detected is not one of OpenBLAS's
 * generic fallback cores (Prescott, Core2, Katmai, ...), or the flags support nothing better.
 * Otherwise "Cooperlake" (AVX-512 with avx512_bf16), "SkylakeX" (avx512f, cd, bw, dq and vl),
 * "Haswell" (avx2 and fma) or "Sandybridge" (avx), names of OpenBLAS's DYNAMIC_ARCH x86-64
 * cores (driver/others/dynamic.c). Names compare case-insensitively. Pure: no I/O, no state. */
const char *tsl_openblas_better_core(const char *detected, const char *cpu_flags);

/* The flags of the host CPU: the "flags" line of /proc/cpuinfo (or of the file that the
 * TESSEL_TEST_CPUINFO environment variable names, for the tests) without its label, in a buffer
 * the caller frees; NULL where there is none (not x86-64, no /proc). */
char *tsl_cpu_flags(void);

/* The core OpenBLAS detected when it loaded: openblas_get_corename(), or for the tests the value
 * of the TESSEL_TEST_OPENBLAS_CORE environment variable where set. */
const char *tsl_openblas_detected_core(void);

/* The core the command names in OPENBLAS_CORETYPE for commands that time OpenBLAS, as
 * tsl_openblas_better_core decides from the detected core and this CPU's flags: NULL when it sets
 * nothing (the core is fine, the user set OPENBLAS_CORETYPE, the command already chose, or
 * OpenBLAS was built without DYNAMIC_ARCH). */
const char *tsl_openblas_planned_core(void);

/* The running OpenBLAS: its core name (openblas_get_corename()), its build configuration
 * (openblas_get_config()), its thread count and whether it was built with DYNAMIC_ARCH (only then
 * does OPENBLAS_CORETYPE choose anything). */
const char *tsl_openblas_core(void);
const char *tsl_openblas_config(void);
int tsl_openblas_dynamic(void);
int tsl_openblas_threads(void); /* openblas_get_num_threads() */

/* One line, without commas, for the device column of OpenBLAS rows and the environment records:
 *   "host CPU: OpenBLAS 0.3.21 SkylakeX 16 threads (NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY
 *    MAX_THREADS=64; OPENBLAS_CORETYPE=SkylakeX set by tessel; detected Prescott)"
 * naming OPENBLAS_CORETYPE when it is set, and who set it. Truncated to cap bytes. */
void tsl_openblas_describe(char *buf, size_t cap);

#endif
