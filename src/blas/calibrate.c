/* calibrate.c: the figures of the cost model (docs/dropin.md, "Calibration"), measured once per
 * device and kept in tessel's cache directory. A measurement takes a second or two on a GPU:
 * the device's sgemm and dgemm on device buffers at two sizes, a copy in device memory, the
 * host-device link from ordinary (pageable) malloc memory, the cost of a tiny call, then the CPU
 * BLAS's sgemm_/dgemm_ (grown until a call takes 50 ms) and daxpy_ (its memory bandwidth). The
 * file is keyed by device name, driver, CPU BLAS path and CPU BLAS thread count: a new driver,
 * another CPU BLAS or another OPENBLAS_NUM_THREADS measures again. It is written to a temporary
 * and renamed into place, so concurrent processes never read half a file, and anything in it
 * that does not check out is ignored and measured again. Beside it lies a hint (the same figures
 * and the device's name) keyed by what is known before a device is opened (the device spec, the
 * CPU BLAS and its threads), so a program whose calls all belong on the CPU never opens one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blas/route.h"

#define FORMAT_LINE "tessel-blas calibration 2"
#define HINT_LINE "tessel-blas hint 2"

/* ---- where and under which key --------------------------------------------------------- */

/* libtessel's own directory (tsl_cache_dir), so the calibration sits beside the kernel cache. */
int tsl__blas_cache_dir(char *dir, size_t cap)
{
    return tsl_cache_dir(dir, cap) == TSL_OK ? 0 : -1;
}

int tsl__blas_cpu_threads(void)
{
    const char *path = tsl__blas_cpu_path();
    if (*path) {
        /* The CPU BLAS is loaded RTLD_LOCAL by cpu.c: reach it again by its path, quietly (it
         * need not be OpenBLAS). */
        void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
        if (h) {
            int (*get)(void) = (int (*)(void))dlsym(h, "openblas_get_num_threads");
            int n = get ? get() : 0;
            dlclose(h);
            if (n > 0) return n;
        }
    }
    static const char *const vars[] = {"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"};
    for (size_t i = 0; i < 2; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 0) return atoi(v);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void tsl__blas_calib_key(const tsl_device_info *info, char *key, size_t cap)
{
    snprintf(key, cap, "device=%s;platform=%s;driver=%s;cpu_blas=%s;cpu_threads=%d", info->name,
             info->platform, info->driver_version, tsl__blas_cpu_path(), tsl__blas_cpu_threads());
    for (char *p = key; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
}

/* dir/<prefix>-<hash of key>.txt */
static int cache_file(const char *prefix, const char *key, char *path, size_t cap)
{
    char dir[1024];
    if (tsl__blas_cache_dir(dir, sizeof dir) != 0) return -1;
    unsigned long long h = 1469598103934665603ull; /* FNV-1a, as the kernel cache names files */
    for (const char *p = key; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    int w = snprintf(path, cap, "%s/%s-%016llx.txt", dir, prefix, h);
    return w > 0 && (size_t)w < cap ? 0 : -1;
}

int tsl__blas_calib_path(const char *key, char *path, size_t cap)
{
    return cache_file("blas-calibration", key, path, cap);
}

void tsl__blas_hint_key(char *key, size_t cap)
{
    /* the spec open_devices (device.c) passes on, and what tessel does with an empty one */
    const char *spec = getenv("TESSEL_BLAS_DEVICES");
    if (!spec || !*spec) spec = getenv("TESSEL_DEVICE");
    snprintf(key, cap, "spec=%s;cpu_blas=%s;cpu_threads=%d", spec ? spec : "", tsl__blas_cpu_path(),
             tsl__blas_cpu_threads());
    for (char *p = key; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
}

int tsl__blas_hint_path(const char *key, char *path, size_t cap)
{
    return cache_file("blas-hint", key, path, cap);
}

/* ---- the file ------------------------------------------------------------------------------ */

static int positive(double v)
{
    return isfinite(v) && v > 0;
}

static int rates_valid(const tsl__blas_rates *r)
{
    int ok = isfinite(r->overhead_s) && r->overhead_s >= 0 && positive(r->dev_bw) &&
             positive(r->link_bw) && positive(r->cpu_gemm_rate[0]) &&
             positive(r->cpu_gemm_rate[1]) && positive(r->cpu_bw) &&
             positive(r->cpu_lu_rate[0]) && positive(r->cpu_lu_rate[1]);
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 2; i++) {
            /* dgemm is 0 on a device without fp64: never routed there (device.c checks fp64) */
            int need = p == 0 || r->gemm_rate[1][0] > 0;
            if (need && (!positive(r->gemm_flops[p][i]) || !positive(r->gemm_rate[p][i]) ||
                         !positive(r->lu_flops[p][i]) || !positive(r->lu_rate[p][i])))
                ok = 0;
        }
    return ok;
}

/* The calibration file (hint NULL) or the hint, which also has "device NAME" and "devices N"
 * right after its key. */
static int read_rates(const char *path, const char *key, tsl__blas_rates *r, tsl__blas_hint *hint)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[2048];
    tsl__blas_rates got;
    memset(&got, 0, sizeof got);
    int seen = 0, ok = 0, ndev = 0;
    char name[sizeof hint->name] = "";
    if (!fgets(line, sizeof line, f) || strcmp(line, hint ? HINT_LINE "\n" : FORMAT_LINE "\n") != 0)
        goto done;
    if (!fgets(line, sizeof line, f) || strncmp(line, "key ", 4) != 0) goto done;
    line[strcspn(line, "\n")] = '\0';
    if (strcmp(line + 4, key) != 0) goto done;
    if (hint) {
        char extra;
        if (!fgets(line, sizeof line, f) || strncmp(line, "device ", 7) != 0) goto done;
        line[strcspn(line, "\n")] = '\0';
        if (!line[7] || strlen(line + 7) >= sizeof name) goto done;
        memcpy(name, line + 7, strlen(line + 7) + 1);
        if (!fgets(line, sizeof line, f) || sscanf(line, "devices %d %c", &ndev, &extra) != 1 ||
            ndev < 1 || ndev > TSL__BLAS_MAX_DEVICES)
            goto done;
    }
    while (fgets(line, sizeof line, f)) {
        double a, b, c, d;
        char extra;
        if (sscanf(line, "overhead_s %lf %c", &a, &extra) == 1)
            got.overhead_s = a, seen |= 1;
        else if (sscanf(line, "gemm_s %lf %lf %lf %lf %c", &a, &b, &c, &d, &extra) == 4)
            got.gemm_flops[0][0] = a, got.gemm_rate[0][0] = b, got.gemm_flops[0][1] = c,
            got.gemm_rate[0][1] = d, seen |= 2;
        else if (sscanf(line, "gemm_d %lf %lf %lf %lf %c", &a, &b, &c, &d, &extra) == 4)
            got.gemm_flops[1][0] = a, got.gemm_rate[1][0] = b, got.gemm_flops[1][1] = c,
            got.gemm_rate[1][1] = d, seen |= 4;
        else if (sscanf(line, "lu_s %lf %lf %lf %lf %c", &a, &b, &c, &d, &extra) == 4)
            got.lu_flops[0][0] = a, got.lu_rate[0][0] = b, got.lu_flops[0][1] = c,
            got.lu_rate[0][1] = d, seen |= 128;
        else if (sscanf(line, "lu_d %lf %lf %lf %lf %c", &a, &b, &c, &d, &extra) == 4)
            got.lu_flops[1][0] = a, got.lu_rate[1][0] = b, got.lu_flops[1][1] = c,
            got.lu_rate[1][1] = d, seen |= 256;
        else if (sscanf(line, "dev_bw %lf %c", &a, &extra) == 1)
            got.dev_bw = a, seen |= 8;
        else if (sscanf(line, "link_bw %lf %c", &a, &extra) == 1)
            got.link_bw = a, seen |= 16;
        else if (sscanf(line, "cpu_gemm %lf %lf %c", &a, &b, &extra) == 2)
            got.cpu_gemm_rate[0] = a, got.cpu_gemm_rate[1] = b, seen |= 32;
        else if (sscanf(line, "cpu_lu %lf %lf %c", &a, &b, &extra) == 2)
            got.cpu_lu_rate[0] = a, got.cpu_lu_rate[1] = b, seen |= 512;
        else if (sscanf(line, "cpu_bw %lf %c", &a, &extra) == 1)
            got.cpu_bw = a, seen |= 64;
        else if (strcmp(line, "end\n") == 0) {
            ok = seen == 1023 && rates_valid(&got) && fgetc(f) == EOF;
            break;
        } else
            break;
    }
done:
    fclose(f);
    if (!ok) return -1;
    *r = got;
    if (hint) {
        memcpy(hint->name, name, sizeof name);
        hint->ndev = ndev;
    }
    return 0;
}

int tsl__blas_calib_read(const char *path, const char *key, tsl__blas_rates *r)
{
    return read_rates(path, key, r, NULL);
}

int tsl__blas_hint_read(const char *path, const char *key, tsl__blas_hint *h)
{
    return read_rates(path, key, &h->rates, h);
}

static int write_rates(const char *path, const char *key, const tsl__blas_rates *r,
                       const tsl__blas_hint *hint)
{
    char tmp[1200];
    if (snprintf(tmp, sizeof tmp, "%s.XXXXXX", path) >= (int)sizeof tmp) return -1;
    int fd = tsl_temporary_mkstemp(tmp); /* a program's interrupt handler can remove it */
    if (fd < 0) return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp);
        tsl_temporary_drop(tmp);
        return -1;
    }
    fprintf(f, "%s\nkey %s\n", hint ? HINT_LINE : FORMAT_LINE, key);
    if (hint) {
        char name[sizeof hint->name];
        snprintf(name, sizeof name, "%s", hint->name);
        for (char *p = name; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
        fprintf(f, "device %s\ndevices %d\n", name, hint->ndev);
    }
    fprintf(f, "overhead_s %.9g\n", r->overhead_s);
    for (int p = 0; p < 2; p++)
        fprintf(f, "gemm_%c %.9g %.9g %.9g %.9g\n", p ? 'd' : 's', r->gemm_flops[p][0],
                r->gemm_rate[p][0], r->gemm_flops[p][1], r->gemm_rate[p][1]);
    for (int p = 0; p < 2; p++)
        fprintf(f, "lu_%c %.9g %.9g %.9g %.9g\n", p ? 'd' : 's', r->lu_flops[p][0],
                r->lu_rate[p][0], r->lu_flops[p][1], r->lu_rate[p][1]);
    fprintf(f, "dev_bw %.9g\nlink_bw %.9g\ncpu_gemm %.9g %.9g\ncpu_lu %.9g %.9g\ncpu_bw %.9g\nend\n",
            r->dev_bw, r->link_bw, r->cpu_gemm_rate[0], r->cpu_gemm_rate[1], r->cpu_lu_rate[0],
            r->cpu_lu_rate[1], r->cpu_bw);
    int ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
    tsl_temporary_drop(tmp);
    return ok ? 0 : -1;
}

int tsl__blas_calib_write(const char *path, const char *key, const tsl__blas_rates *r)
{
    return write_rates(path, key, r, NULL);
}

int tsl__blas_hint_write(const char *path, const char *key, const tsl__blas_hint *h)
{
    return write_rates(path, key, &h->rates, h);
}

int tsl__blas_hint_save(const char *name, int ndev, const tsl__blas_rates *r)
{
    tsl__blas_hint h;
    memset(&h, 0, sizeof h);
    snprintf(h.name, sizeof h.name, "%s", name && *name ? name : "unnamed device");
    h.ndev = ndev < 1 ? 1 : ndev;
    h.rates = *r;
    char key[1024], path[1200];
    tsl__blas_hint_key(key, sizeof key);
    if (tsl__blas_hint_path(key, path, sizeof path) != 0) return -1;
    return tsl__blas_hint_write(path, key, &h);
}

tsl__blas_calib_sizes tsl__blas_calib_default_sizes(const tsl_device_info *info)
{
    tsl__blas_calib_sizes sz = {{1024, 4096}, 64u << 20, 2048, 1u << 23};
    /* Three double matrices in a quarter of the device memory, each one allocation. */
    while (sz.gemm_n[1] > 256 && (3.0 * 8 * sz.gemm_n[1] * sz.gemm_n[1] > info->global_mem / 4.0 ||
                                  8.0 * sz.gemm_n[1] * sz.gemm_n[1] > (double)info->max_alloc))
        sz.gemm_n[1] /= 2;
    if (sz.gemm_n[0] >= sz.gemm_n[1]) sz.gemm_n[0] = sz.gemm_n[1] / 4;
    if (sz.link_bytes > 8 * sz.gemm_n[1] * sz.gemm_n[1])
        sz.link_bytes = 8 * sz.gemm_n[1] * sz.gemm_n[1];
    return sz;
}

tsl_status tsl__blas_calibrate(tsl_context *ctx, tsl__blas_rates *r, int *cached, char *msg,
                               size_t cap)
{
    tsl_device_info info;
    tsl_status st = tsl_context_device(ctx, &info);
    if (st != TSL_OK) {
        snprintf(msg, cap, "%s", tsl_context_error(ctx));
        return st;
    }
    char key[1024], path[1200];
    tsl__blas_calib_key(&info, key, sizeof key);
    int have_path = tsl__blas_calib_path(key, path, sizeof path) == 0;
    const char *again = getenv("TESSEL_BLAS_RECALIBRATE");
    int fresh = again && *again && strcmp(again, "0") != 0;
    *cached = 0;
    if (have_path && !fresh && tsl__blas_calib_read(path, key, r) == 0) {
        *cached = 1;
        return TSL_OK;
    }
    tsl__blas_calib_sizes sz = tsl__blas_calib_default_sizes(&info);
    st = tsl__blas_calib_measure(ctx, &sz, r, msg, cap);
    if (st == TSL_OK && have_path) tsl__blas_calib_write(path, key, r); /* else: measured again */
    return st;
}

/* ---- the measurements ------------------------------------------------------------------------ */

typedef void (*fgemm_fn)(const char *, const char *, const int *, const int *, const int *,
                         const void *, const void *, const int *, const void *, const int *,
                         const void *, void *, const int *, size_t, size_t);
typedef void (*faxpy_fn)(const int *, const double *, const double *, const int *, double *,
                         const int *);

static unsigned long long g_seed = 0x9e3779b97f4a7c15ull;

/* Values in [-1, 1): timing data must never hold NaN or subnormals, which some units slow on. */
static void fill(void *p, size_t count, char prec)
{
    for (size_t i = 0; i < count; i++) {
        g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(g_seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (prec == 'd')
            ((double *)p)[i] = v;
        else
            ((float *)p)[i] = (float)v;
    }
}

static tsl_status fail(tsl_context *ctx, tsl_status st, const char *what, char *msg, size_t cap)
{
    snprintf(msg, cap, "%s: %s", what, ctx ? tsl_context_error(ctx) : "");
    return st;
}

/* Writes bytes of prec values into buf through a 1 MB host block. */
static tsl_status upload(tsl_context *ctx, tsl_buffer *buf, size_t bytes, char prec)
{
    size_t block = bytes < (1u << 20) ? bytes : (1u << 20);
    void *host = malloc(block);
    if (!host) return TSL_ERR_OUT_OF_MEMORY;
    fill(host, block / (prec == 'd' ? 8 : 4), prec);
    tsl_status st = TSL_OK;
    for (size_t at = 0; at < bytes && st == TSL_OK; at += block)
        st = tsl_buffer_write(ctx, buf, at, bytes - at < block ? bytes - at : block, host);
    free(host);
    return st;
}

static tsl_status gemm_buf(tsl_context *ctx, char prec, size_t n, tsl_buffer *a, tsl_buffer *b,
                           tsl_buffer *c)
{
    if (prec == 'd')
        return tsl_dgemm_buf(ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0, a, n, b,
                             n, 0.0, c, n);
    return tsl_sgemm_buf(ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0f, a, n, b, n,
                         0.0f, c, n);
}

/* One operation of the device measurements, for best_of. */
typedef struct {
    int what; /* 0 write, 1 read, 2 copy, 3 gemm on buffers, 4 tiny gemm from the host, 5 LU of
               * the buffer a (n x n; ipiv in host) */
    tsl_context *ctx;
    char prec;
    size_t n, bytes;
    tsl_buffer *a, *b, *c;
    void *host;
} op;

static tsl_status run_op(const op *o)
{
    switch (o->what) {
    case 0:
        return tsl_buffer_write(o->ctx, o->a, 0, o->bytes, o->host);
    case 1:
        return tsl_buffer_read(o->ctx, o->a, 0, o->bytes, o->host);
    case 2:
        return tsl_copy_buf(o->ctx, o->a, o->c, o->bytes);
    case 3:
        return gemm_buf(o->ctx, o->prec, o->n, o->a, o->b, o->c);
    case 5: {
        /* each run factors what the last left (L and U in one matrix): any matrix times alike */
        int info;
        if (o->prec == 'd')
            return tsl_dgetrf_buf(o->ctx, TSL_COL_MAJOR, o->n, o->n, o->a, o->n, o->host, &info);
        return tsl_sgetrf_buf(o->ctx, TSL_COL_MAJOR, o->n, o->n, o->a, o->n, o->host, &info);
    }
    default: {
        float *x = o->host; /* 3 x 64 floats: 8 x 8 A, B and C */
        return tsl_sgemm(o->ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 8, 8, 8, 1.0f, x, 8,
                         x + 64, 8, 0.0f, x + 128, 8);
    }
    }
}

/* The best seconds of reps timed runs after one untimed one (a build, a first touch). */
static tsl_status best_of(int reps, const op *o, double *best)
{
    tsl_status st = run_op(o);
    for (int i = 0; i < reps && st == TSL_OK; i++) {
        double t = tsl__blas_now();
        st = run_op(o);
        t = tsl__blas_now() - t;
        if (i == 0 || t < *best) *best = t;
    }
    if (*best < 1e-9) *best = 1e-9;
    return st;
}

static tsl_status measure_device(tsl_context *ctx, const tsl__blas_calib_sizes *sz,
                                 tsl__blas_rates *r, char *msg, size_t cap)
{
    tsl_device_info info;
    tsl_status st = tsl_context_device(ctx, &info);
    if (st != TSL_OK) return fail(ctx, st, "tsl_context_device", msg, cap);
    size_t n2 = sz->gemm_n[1], mat = 8 * n2 * n2,
           link = sz->link_bytes < mat ? sz->link_bytes : mat;
    tsl_buffer *a = NULL, *b = NULL, *c = NULL;
    void *h_in = malloc(link), *h_out = malloc(link);
    int *ipiv = malloc(n2 * sizeof(int));
    double t = 0, t_up = 0, t_down = 0;
    if (!h_in || !h_out || !ipiv) {
        st = fail(NULL, TSL_ERR_OUT_OF_MEMORY, "malloc", msg, cap);
        goto done;
    }
    if ((st = tsl_buffer_create(ctx, mat, &a)) != TSL_OK ||
        (st = tsl_buffer_create(ctx, mat, &b)) != TSL_OK ||
        (st = tsl_buffer_create(ctx, mat, &c)) != TSL_OK) {
        fail(ctx, st, "tsl_buffer_create", msg, cap);
        goto done;
    }
    /* The link from memory a program got from malloc, touched as its arrays would be. */
    fill(h_in, link / 8, 'd');
    memset(h_out, 0, link);
    op w = {0, ctx, 'd', 0, link, a, NULL, NULL, h_in}, rd = w, cp = w;
    rd.what = 1;
    rd.host = h_out;
    cp.what = 2;
    cp.c = c;
    if ((st = best_of(2, &w, &t_up)) != TSL_OK || (st = best_of(2, &rd, &t_down)) != TSL_OK) {
        fail(ctx, st, "host-device transfer", msg, cap);
        goto done;
    }
    r->link_bw = 2.0 * (double)link / (t_up + t_down);
    if ((st = best_of(3, &cp, &t)) != TSL_OK) {
        fail(ctx, st, "tsl_copy_buf", msg, cap);
        goto done;
    }
    r->dev_bw = 2.0 * (double)link / t;
    for (int p = 0; p < 2 && st == TSL_OK; p++) {
        char prec = p ? 'd' : 's';
        if (p && !info.fp64) break; /* dgemm stays 0: never routed to this device */
        if ((st = upload(ctx, a, mat, prec)) != TSL_OK ||
            (st = upload(ctx, b, mat, prec)) != TSL_OK) {
            fail(ctx, st, "tsl_buffer_write", msg, cap);
            break;
        }
        for (int i = 0; i < 2 && st == TSL_OK; i++) {
            op g = {3, ctx, prec, sz->gemm_n[i], 0, a, b, c, NULL};
            size_t n = g.n;
            if ((st = best_of(n >= 2048 ? 1 : 3, &g, &t)) != TSL_OK)
                fail(ctx, st, p ? "tsl_dgemm_buf" : "tsl_sgemm_buf", msg, cap);
            r->gemm_flops[p][i] = 2.0 * (double)n * n * n;
            r->gemm_rate[p][i] = r->gemm_flops[p][i] / t;
        }
        /* the factorizations' rate: an LU at the same two orders, on a's random matrix */
        for (int i = 0; i < 2 && st == TSL_OK; i++) {
            op lu = {5, ctx, prec, sz->gemm_n[i], 0, a, NULL, NULL, ipiv};
            size_t n = lu.n;
            if ((st = best_of(1, &lu, &t)) != TSL_OK)
                fail(ctx, st, p ? "tsl_dgetrf_buf" : "tsl_sgetrf_buf", msg, cap);
            r->lu_flops[p][i] = 2.0 / 3.0 * (double)n * n * n;
            r->lu_rate[p][i] = r->lu_flops[p][i] / t;
        }
    }
    if (st == TSL_OK) {
        /* A tiny call from host memory: the launch, the transfers' latency, the sync. */
        float x[3 * 64];
        fill(x, 3 * 64, 's');
        op tiny = {4, ctx, 's', 8, 0, NULL, NULL, NULL, x};
        if ((st = best_of(5, &tiny, &t)) != TSL_OK) fail(ctx, st, "tsl_sgemm", msg, cap);
        r->overhead_s = t;
    }
done:
    tsl_buffer_destroy(a);
    tsl_buffer_destroy(b);
    tsl_buffer_destroy(c);
    free(h_in);
    free(h_out);
    free(ipiv);
    return st;
}

typedef void (*fgetrf_fn)(const int *, const int *, void *, const int *, int *, int *);

/* The CPU LAPACK's LU rate, n growing from 256 until a call takes 50 ms (at most max), on a's
 * max^2 doubles. Only where the CPU LAPACK is the CPU BLAS's own library (OpenBLAS): another
 * one (reference LAPACK) would call our dgemm_ back from inside the calibration, which holds the
 * device; there the LU is taken to run at the CPU BLAS's GEMM rate. */
static void measure_cpu_lu(double *a, size_t max, tsl__blas_rates *r)
{
    fgetrf_fn getrf[2] = {NULL, NULL};
    if (strcmp(tsl__blas_lapack_path(), tsl__blas_cpu_path()) == 0) {
        getrf[0] = (fgetrf_fn)tsl__blas_lapack_sym("sgetrf_");
        getrf[1] = (fgetrf_fn)tsl__blas_lapack_sym("dgetrf_");
    }
    int *ipiv = malloc(sizeof(int) * max);
    for (int p = 0; p < 2; p++) {
        r->cpu_lu_rate[p] = r->cpu_gemm_rate[p];
        if (!getrf[p] || !ipiv) continue;
        int n = max < 256 ? (int)max : 256, info;
        for (;;) {
            fill(a, (size_t)n * n, p ? 'd' : 's');
            double t = tsl__blas_now();
            getrf[p](&n, &n, a, &n, ipiv, &info);
            t = tsl__blas_now() - t;
            r->cpu_lu_rate[p] = 2.0 / 3.0 * n * n * (double)n / (t > 1e-9 ? t : 1e-9);
            if (t >= 0.05 || (size_t)n * 2 > max) break;
            n *= 2;
        }
    }
    free(ipiv);
}

static tsl_status measure_cpu(const tsl__blas_calib_sizes *sz, tsl__blas_rates *r, char *msg,
                              size_t cap)
{
    fgemm_fn gemm[2] = {(fgemm_fn)tsl__blas_cpu_sym("sgemm_"),
                        (fgemm_fn)tsl__blas_cpu_sym("dgemm_")};
    faxpy_fn axpy = (faxpy_fn)tsl__blas_cpu_sym("daxpy_");
    if (!gemm[0] || !gemm[1] || !axpy) {
        snprintf(msg, cap, "no usable CPU BLAS (sgemm_, dgemm_, daxpy_)");
        return TSL_ERR_UNSUPPORTED;
    }
    size_t max = sz->cpu_gemm_max_n < 64 ? 64 : sz->cpu_gemm_max_n;
    double *a = malloc(8 * max * max), *b = malloc(8 * max * max), *c = malloc(8 * max * max);
    size_t an = sz->cpu_axpy_n;
    double *x = malloc(8 * an), *y = malloc(8 * an);
    tsl_status st = TSL_OK;
    if (!a || !b || !c || !x || !y) {
        snprintf(msg, cap, "malloc");
        st = TSL_ERR_OUT_OF_MEMORY;
        goto done;
    }
    for (int p = 0; p < 2; p++) {
        char prec = p ? 'd' : 's';
        fill(a, max * max, prec);
        fill(b, max * max, prec);
        double one_d = 1.0, zero_d = 0.0;
        float one_s = 1.0f, zero_s = 0.0f;
        const void *one = p ? (const void *)&one_d : (const void *)&one_s;
        const void *zero = p ? (const void *)&zero_d : (const void *)&zero_s;
        int n = max < 128 ? (int)max : 128;
        gemm[p]("N", "N", &n, &n, &n, one, a, &n, b, &n, zero, c, &n, 1, 1); /* its threads start */
        for (;;) {
            double t = tsl__blas_now();
            gemm[p]("N", "N", &n, &n, &n, one, a, &n, b, &n, zero, c, &n, 1, 1);
            t = tsl__blas_now() - t;
            r->cpu_gemm_rate[p] = 2.0 * n * n * (double)n / (t > 1e-9 ? t : 1e-9);
            if (t >= 0.05 || (size_t)n * 2 > max) break;
            n *= 2;
        }
    }
    measure_cpu_lu(a, max, r);
    fill(x, an, 'd');
    fill(y, an, 'd');
    int n = (int)an, inc = 1;
    double alpha = 1e-3, best = 0;
    for (int i = 0; i < 4; i++) {
        double t = tsl__blas_now();
        axpy(&n, &alpha, x, &inc, y, &inc);
        t = tsl__blas_now() - t;
        if (i == 1 || (i > 1 && t < best)) best = t; /* the first touches the pages */
    }
    r->cpu_bw = 24.0 * (double)an / (best > 1e-9 ? best : 1e-9);
done:
    free(a);
    free(b);
    free(c);
    free(x);
    free(y);
    return st;
}

tsl_status tsl__blas_calib_measure(tsl_context *ctx, const tsl__blas_calib_sizes *sz,
                                   tsl__blas_rates *r, char *msg, size_t cap)
{
    memset(r, 0, sizeof *r);
    msg[0] = '\0';
    tsl_status st = measure_device(ctx, sz, r, msg, cap);
    if (st == TSL_OK) st = measure_cpu(sz, r, msg, cap);
    if (st == TSL_OK && !rates_valid(r)) {
        snprintf(msg, cap, "a measured figure is not a positive number");
        st = TSL_ERR_UNSUPPORTED;
    }
    return st;
}
