/* cpu.c: the CPU BLAS (and the CPU LAPACK) behind the drop-in, loaded with dlopen on first use. Candidates in order:
 * TESSEL_BLAS_CPU (a path or soname), OpenBLAS (libopenblas.so.0), the reference BLAS (Debian's
 * blas/libblas.so.3). RTLD_LOCAL keeps its symbols out of the global scope, and dlsym on its
 * handle finds its own definitions first, so a forwarded call runs the CPU library's code even
 * though our symbols come first for everyone else. A candidate whose dgemm_ is ours (tessel
 * installed as libblas.so.3, or named by TESSEL_BLAS_CPU) is refused: that would be recursion. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas/blas_internal.h"


static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static void *g_handle;
static char g_path[1024];

static int is_ours_at(void *handle, const char *sym)
{
    void *f = dlsym(handle, sym);
    if (!f) return 0;
    Dl_info theirs, mine;
    if (!dladdr(f, &theirs) || !dladdr((void *)&tsl__blas_cpu_path, &mine)) return 0;
    return theirs.dli_fbase == mine.dli_fbase;
}

/* Opens name as the CPU `what` ("BLAS", "LAPACK") identified by its symbol sym: refused when it
 * lacks sym (where require), or when sym is ours (recursion). On success the handle and the
 * library's path (where sym lives) go into *handle and path. */
static int try_open(const char *name, const char *what, const char *sym, int require, int loud,
                    void **handle, char *path, size_t cap)
{
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        if (loud)
            fprintf(stderr, "tessel-blas: error: cannot load the CPU %s %s: %s\n", what, name,
                    dlerror());
        return 0;
    }
    void *f = dlsym(h, sym);
    if (require && !f) {
        if (loud) fprintf(stderr, "tessel-blas: error: %s has no %s (%s)\n", name, what, sym);
        dlclose(h);
        return 0;
    }
    if (is_ours_at(h, sym)) {
        fprintf(stderr, "tessel-blas: warning: %s is libtessel_blas itself, not a CPU %s; skipped\n",
                name, what);
        dlclose(h);
        return 0;
    }
    *handle = h;
    Dl_info info;
    snprintf(path, cap, "%s", f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : name);
    return 1;
}

static int try_load(const char *name, int loud)
{
    return try_open(name, "BLAS", "dgemm_", 0, loud, &g_handle, g_path, sizeof g_path);
}

static void load(void)
{
    const char *env = getenv("TESSEL_BLAS_CPU");
    if (env && *env) {
        try_load(env, 1);
        return; /* the user's choice or nothing: no silent substitute */
    }
    static const char *const candidates[] = {
        "libopenblas.so.0",
        "/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0",
        "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3",
        "libblas.so.3",
    };
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
        if (try_load(candidates[i], 0)) return;
    fprintf(stderr, "tessel-blas: error: no CPU BLAS found (tried OpenBLAS and the reference BLAS; "
                    "set TESSEL_BLAS_CPU)\n");
}

void *tsl__blas_cpu_sym(const char *name)
{
    pthread_once(&g_once, load);
    if (!g_handle) return NULL;
    void *f = dlsym(g_handle, name);
    if (!f) fprintf(stderr, "tessel-blas: error: the CPU BLAS %s has no %s\n", g_path, name);
    return f;
}

void *tsl__blas_cpu_sym_opt(const char *name)
{
    pthread_once(&g_once, load);
    return g_handle ? dlsym(g_handle, name) : NULL;
}

const char *tsl__blas_cpu_path(void)
{
    pthread_once(&g_once, load);
    return g_path;
}

/* ---- the CPU LAPACK -------------------------------------------------------------------------- */

static pthread_once_t g_lapack_once = PTHREAD_ONCE_INIT;
static void *g_lapack;
static char g_lapack_path[1024];

static int try_lapack(const char *name, int loud)
{
    return try_open(name, "LAPACK", "dgetrf_", 1, loud, &g_lapack, g_lapack_path,
                    sizeof g_lapack_path);
}

static void load_lapack(void)
{
    const char *env = getenv("TESSEL_LAPACK_CPU");
    if (env && *env) {
        try_lapack(env, 1);
        return;
    }
    /* the CPU BLAS first when it carries a LAPACK (OpenBLAS), so both halves are one library */
    pthread_once(&g_once, load);
    if (g_handle && dlsym(g_handle, "dgetrf_") && try_lapack(g_path, 0)) return;
    static const char *const candidates[] = {
        "/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3",
        "liblapack.so.3",
    };
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
        if (try_lapack(candidates[i], 0)) return;
    fprintf(stderr, "tessel-blas: error: no CPU LAPACK found (tried the CPU BLAS %s and the "
                    "reference LAPACK; set TESSEL_LAPACK_CPU)\n", g_path[0] ? g_path : "(none)");
}

void *tsl__blas_lapack_sym(const char *name)
{
    pthread_once(&g_lapack_once, load_lapack);
    if (!g_lapack) return NULL;
    void *f = dlsym(g_lapack, name);
    if (!f) fprintf(stderr, "tessel-blas: error: the CPU LAPACK %s has no %s\n", g_lapack_path, name);
    return f;
}

const char *tsl__blas_lapack_path(void)
{
    pthread_once(&g_lapack_once, load_lapack);
    return g_lapack_path;
}
