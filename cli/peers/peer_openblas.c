/* peer_openblas.c: the OpenBLAS peer, GEMM on the host CPU through the CBLAS reference of
 * src/ref (tsl_ref_sgemm / tsl_ref_dgemm), timed with the monotonic host clock around each call.
 * It answers "how does the OpenCL device compare with a tuned CPU BLAS on this machine", and so it
 * also says which OpenBLAS ran, with which kernels and threads (peer_openblas.h): a peer running
 * OpenBLAS's generic fallback kernels is no answer. */
#define _POSIX_C_SOURCE 200809L /* getline, strdup, strtok_r */
#include "peer_openblas.h"
#include "peers.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/ref.h"

/* OpenBLAS's own extensions, declared here because only some cblas.h files declare them (Debian's
 * does; the reference CBLAS header and older OpenBLAS ones do not). */
char *openblas_get_config(void);
char *openblas_get_corename(void);
int openblas_get_num_threads(void);

/* ---- which core ------------------------------------------------------------------------------ */

/* The cores OpenBLAS falls back to on an x86-64 CPU it does not recognize, or that it picks for
 * CPUs older than AVX: with AVX flags present, each is the wrong choice. (OpenBLAS reports the
 * 32-bit ones as Prescott on x86-64; they are listed for completeness.) */
static const char *const generic_cores[] = {
    "Unknown", "Katmai",       "Coppermine", "Northwood",  "Prescott", "Banias",
    "Atom",    "Core2",        "Penryn",     "Dunnington", "Nehalem",  "Athlon",
    "Opteron", "Opteron_SSE3", "Barcelona",  "Nano",       "Bobcat",
};

static int same_name(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

/* 1 if flags (words separated by white space) holds the word `flag` exactly: "avx512f" is not
 * found in "avx512fp16". */
static int has_flag(const char *flags, const char *flag)
{
    size_t len = strlen(flag);
    for (const char *p = flags; *p;) {
        while (*p && isspace((unsigned char)*p))
            ++p;
        size_t n = 0;
        while (p[n] && !isspace((unsigned char)p[n]))
            ++n;
        if (n == len && strncmp(p, flag, n) == 0) return 1;
        p += n;
    }
    return 0;
}

static int has_all(const char *flags, const char *const *list)
{
    for (; *list; ++list)
        if (!has_flag(flags, *list)) return 0;
    return 1;
}

const char *tsl_openblas_better_core(const char *detected, const char *cpu_flags)
{
    if (!detected || !cpu_flags) return NULL;
    int generic = 0;
    for (size_t i = 0; i < sizeof generic_cores / sizeof generic_cores[0]; ++i)
        generic |= same_name(detected, generic_cores[i]);
    if (!generic) return NULL;
    /* Best first; each row is what OpenBLAS's own detection asks of a CPU for that core. */
    static const char *const cooperlake[] = {"avx512f",  "avx512cd",    "avx512bw", "avx512dq",
                                             "avx512vl", "avx512_bf16", NULL};
    static const char *const skylakex[] = {"avx512f",  "avx512cd", "avx512bw",
                                           "avx512dq", "avx512vl", NULL};
    static const char *const haswell[] = {"avx", "avx2", "fma", NULL};
    static const char *const sandybridge[] = {"avx", NULL};
    static const struct {
        const char *core;
        const char *const *flags;
    } ladder[] = {{"Cooperlake", cooperlake},
                  {"SkylakeX", skylakex},
                  {"Haswell", haswell},
                  {"Sandybridge", sandybridge}};
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; ++i)
        if (has_all(cpu_flags, ladder[i].flags)) return ladder[i].core;
    return NULL;
}

char *tsl_cpu_flags(void)
{
    const char *path = getenv("TESSEL_TEST_CPUINFO");
    FILE *f = fopen(path && *path ? path : "/proc/cpuinfo", "r");
    if (!f) return NULL;
    char *line = NULL, *flags = NULL;
    size_t cap = 0;
    while (!flags && getline(&line, &cap, f) > 0) {
        const char *colon = strchr(line, ':');
        if (strncmp(line, "flags", 5) == 0 && colon) flags = strdup(colon + 1);
    }
    free(line);
    fclose(f);
    return flags;
}

const char *tsl_openblas_detected_core(void)
{
    const char *fake = getenv("TESSEL_TEST_OPENBLAS_CORE");
    return fake && *fake ? fake : tsl_openblas_core();
}

const char *tsl_openblas_planned_core(void)
{
    if (getenv("OPENBLAS_CORETYPE") || getenv(TSL_OPENBLAS_DETECTED_ENV) || !tsl_openblas_dynamic())
        return NULL;
    char *flags = tsl_cpu_flags();
    const char *core = tsl_openblas_better_core(tsl_openblas_detected_core(), flags);
    free(flags);
    return core;
}

/* ---- what ran -------------------------------------------------------------------------------- */

const char *tsl_openblas_core(void)
{
    const char *c = openblas_get_corename();
    return c ? c : "unknown";
}

const char *tsl_openblas_config(void)
{
    const char *c = openblas_get_config();
    return c ? c : "OpenBLAS";
}

int tsl_openblas_threads(void)
{
    return openblas_get_num_threads();
}

int tsl_openblas_dynamic(void)
{
    return has_flag(tsl_openblas_config(), "DYNAMIC_ARCH");
}

/* Appends printf-style text at buf + *used, never past cap (the text is cut there). */
static void put(char *buf, size_t cap, size_t *used, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void put(char *buf, size_t cap, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, cap - *used, fmt, ap);
    va_end(ap);
    if (n > 0) *used += (size_t)n < cap - *used ? (size_t)n : cap - *used - 1;
}

void tsl_openblas_describe(char *buf, size_t cap)
{
    if (!buf || cap == 0) return;
    buf[0] = '\0';
    const char *core = tsl_openblas_core();
    /* openblas_get_config(): "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY SkylakeX
     * MAX_THREADS=64": name and version, then build options with the core among them. */
    char words[512];
    snprintf(words, sizeof words, "%s", tsl_openblas_config());
    char *save = NULL, *name = strtok_r(words, " ", &save), *version = strtok_r(NULL, " ", &save);
    size_t used = 0;
    put(buf, cap, &used, "host CPU: %s %s %s %d threads (", name ? name : "OpenBLAS",
        version ? version : "", core, tsl_openblas_threads());
    const char *sep = "";
    for (char *w = strtok_r(NULL, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (same_name(w, core) || strchr(w, ',')) continue;
        put(buf, cap, &used, "%s%s", sep, w);
        sep = " ";
    }
    /* The variable as this process got it (the caller's, or the command's own choice). */
    const char *forced = getenv("OPENBLAS_CORETYPE"), *detected = getenv(TSL_OPENBLAS_DETECTED_ENV);
    if (forced && *forced && !strchr(forced, ',')) {
        put(buf, cap, &used, "%sOPENBLAS_CORETYPE=%s", *sep ? "; " : "", forced);
        if (detected && *detected && !strchr(detected, ','))
            put(buf, cap, &used, " set by tessel; detected %s", detected);
    }
    put(buf, cap, &used, ")");
}

/* ---- the peer -------------------------------------------------------------------------------- */

void tsl__peer_openblas_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    tsl_openblas_describe(res->device, sizeof res->device);
    /* CBLAS takes int sizes. */
    if (args->m > INT_MAX || args->n > INT_MAX || args->k > INT_MAX || args->lda > INT_MAX ||
        args->ldb > INT_MAX || args->ldc > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "OpenBLAS takes sizes up to %d (CBLAS int)", INT_MAX);
        return;
    }
    size_t ec = 0;
    tsl_peer_matrix_elems(args->layout, TSL_NO_TRANS, args->m, args->n, args->ldc, &ec);
    size_t c_bytes = ec * (args->is_double ? sizeof(double) : sizeof(float)) * (args->cplx ? 2 : 1);
    double za[2] = {args->alpha, args->alpha_im}, zb[2] = {args->beta, args->beta_im};
    float ca[2] = {(float)za[0], (float)za[1]}, cb[2] = {(float)zb[0], (float)zb[1]};

    for (unsigned run = 0; run < args->warmup + args->repeat; ++run) {
        if (c_bytes) memcpy(res->c, args->c, c_bytes); /* every run starts from the same C */
        double t0 = tsl__peer_now_ms();
        if (args->cplx && args->is_double)
            tsl_ref_zgemm(args->layout, args->transa, args->transb, args->m, args->n, args->k, za,
                          args->a, args->lda, args->b, args->ldb, zb, res->c, args->ldc);
        else if (args->cplx)
            tsl_ref_cgemm(args->layout, args->transa, args->transb, args->m, args->n, args->k, ca,
                          args->a, args->lda, args->b, args->ldb, cb, res->c, args->ldc);
        else if (args->is_double)
            tsl_ref_dgemm(args->layout, args->transa, args->transb, args->m, args->n, args->k,
                          args->alpha, args->a, args->lda, args->b, args->ldb, args->beta, res->c,
                          args->ldc);
        else
            tsl_ref_sgemm(args->layout, args->transa, args->transb, args->m, args->n, args->k,
                          (float)args->alpha, args->a, args->lda, args->b, args->ldb,
                          (float)args->beta, res->c, args->ldc);
        double t1 = tsl__peer_now_ms();
        if (run >= args->warmup) res->run_ms[run - args->warmup] = t1 - t0;
    }
    res->status = TSL_PEER_OK;
}
