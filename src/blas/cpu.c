/* cpu.c: the CPU BLAS behind the drop-in, loaded with dlopen on first use. Candidates in order:
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

static int is_ours(void *handle)
{
    void *f = dlsym(handle, "dgemm_");
    if (!f) return 0;
    Dl_info theirs, mine;
    if (!dladdr(f, &theirs) || !dladdr((void *)&tsl__blas_cpu_path, &mine)) return 0;
    return theirs.dli_fbase == mine.dli_fbase;
}

static int try_load(const char *name, int loud)
{
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        if (loud) fprintf(stderr, "tessel-blas: error: cannot load the CPU BLAS %s: %s\n", name, dlerror());
        return 0;
    }
    if (is_ours(h)) {
        fprintf(stderr, "tessel-blas: warning: %s is libtessel_blas itself, not a CPU BLAS; skipped\n", name);
        dlclose(h);
        return 0;
    }
    g_handle = h;
    Dl_info info;
    void *f = dlsym(h, "dgemm_");
    snprintf(g_path, sizeof g_path, "%s", f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : name);
    return 1;
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

const char *tsl__blas_cpu_path(void)
{
    pthread_once(&g_once, load);
    return g_path;
}
