/* test_cache.c: the on-disk binary cache of built OpenCL programs. In a fresh temporary
 * TESSEL_CACHE_DIR (PoCL's own kernel cache off, so it cannot hide a rebuild): the first context
 * builds (timing.build_ms = b1 > 0) and leaves at least one file; a second context loads from disk
 * (b2 < b1 / 2) with a correct result and leaves the files as they were. Then, for each way of
 * damaging an entry (truncated to half, zero length, bytes flipped in the middle, the last byte
 * flipped, garbage over the header), every file in the directory is damaged that way, and the
 * next context must still compute the right result, rebuild, and rewrite every damaged file; the
 * context after it must load that entry and keep it. Two processes started at once on an empty
 * cache both get correct results and leave an entry the next context accepts (writes are atomic).
 * A cache location that cannot be used (TESSEL_CACHE_DIR naming a regular file, or a directory
 * under one) still computes correctly and leaves the file alone. Without TESSEL_CACHE_DIR a good
 * entry is used from $XDG_CACHE_HOME/tessel, and without that from $HOME/.cache/tessel. Where
 * builds and loads are far apart in time (b1 >= 10 b2, as on PoCL), each verdict is also checked
 * by time against the geometric mean of b1 and b2. Within one context a repeated call builds
 * nothing, and every call's timing breakdown is non-negative with kernel_ms > 0. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define M 40
#define N 36
#define K 52

static unsigned long long g_seed = 4242;

/* ---- files ----------------------------------------------------------------------------------- */

typedef void (*file_fn)(const char *path, void *arg);

/* Calls fn on every regular file under dir (recursively); returns how many there were. */
static size_t walk(const char *dir, file_fn fn, void *arg)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        struct stat sb;
        if (lstat(path, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) {
            n += walk(path, fn, arg);
        } else if (S_ISREG(sb.st_mode)) {
            ++n;
            if (fn) fn(path, arg);
        }
    }
    closedir(d);
    return n;
}

static void remove_tree(const char *path)
{
    struct stat sb;
    if (lstat(path, &sb) != 0) return;
    if (S_ISDIR(sb.st_mode)) {
        chmod(path, 0700);
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                char sub[4096];
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

static unsigned char *read_all(const char *path, size_t *size);
static void write_all(const char *path, const unsigned char *data, size_t size);

/* Copies the files and folders under src into dst (created, with missing parents). */
static void copy_tree(const char *src, const char *dst)
{
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dst);
    for (char *p = parent + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            mkdir(parent, 0700);
            *p = '/';
        }
    mkdir(dst, 0700);
    DIR *d = opendir(src);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char from[4096], to[4096];
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dst, e->d_name);
        struct stat sb;
        if (lstat(from, &sb) != 0) continue;
        if (S_ISDIR(sb.st_mode)) {
            copy_tree(from, to);
        } else if (S_ISREG(sb.st_mode)) {
            size_t size = 0;
            unsigned char *data = read_all(from, &size);
            if (data) write_all(to, data, size);
            free(data);
        }
    }
    closedir(d);
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(sz > 0 ? (size_t)sz : 1);
    size_t got = buf && sz > 0 ? fread(buf, 1, (size_t)sz, f) : 0;
    fclose(f);
    *size = got;
    return buf;
}

static void write_all(const char *path, const unsigned char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    if (size) fwrite(data, 1, size, f);
    fclose(f);
}

static void random_bytes(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        g_seed ^= g_seed << 13;
        g_seed ^= g_seed >> 7;
        g_seed ^= g_seed << 17;
        p[i] = (unsigned char)(g_seed >> 24);
    }
}

/* Each costs a real build per run (seconds on PoCL, more under ASan), so the list is the
 * distinct failure shapes: short, empty, payload damaged in the middle and at the end, header. */
enum damage { TRUNCATE_HALF, ZERO_LENGTH, FLIP_MIDDLE, FLIP_LAST, GARBAGE_HEADER, NDAMAGE };
static const char *damage_name[] = {"truncated to half", "zero length",
                                    "bytes flipped in the middle", "last byte flipped",
                                    "garbage header"};

static void damage_file(const char *path, void *arg)
{
    enum damage how = *(enum damage *)arg;
    size_t size = 0;
    unsigned char *data = read_all(path, &size);
    if (!data) return;
    switch (how) {
    case TRUNCATE_HALF:
        write_all(path, data, size / 2);
        break;
    case ZERO_LENGTH:
        write_all(path, data, 0);
        break;
    case FLIP_MIDDLE:
        for (size_t i = size / 2; i < size / 2 + 16 && i < size; ++i)
            data[i] ^= 0xFF;
        write_all(path, data, size);
        break;
    case FLIP_LAST:
        if (size) data[size - 1] ^= 0x01;
        write_all(path, data, size);
        break;
    case GARBAGE_HEADER:
        random_bytes(data, size < 64 ? size : 64);
        write_all(path, data, size);
        break;
    default:
        break;
    }
    free(data);
}

/* The contents of every file under a directory, to tell rewritten entries from kept ones. */
typedef struct {
    size_t n;
    char path[16][1024];
    unsigned char *data[16];
    size_t size[16];
} snapshot;

static void snap_add(const char *path, void *arg)
{
    snapshot *sn = arg;
    if (sn->n >= 16 || strlen(path) >= sizeof sn->path[0]) return;
    snprintf(sn->path[sn->n], sizeof sn->path[0], "%s", path);
    sn->data[sn->n] = read_all(path, &sn->size[sn->n]);
    ++sn->n;
}

static void snap_take(snapshot *sn, const char *dir)
{
    memset(sn, 0, sizeof *sn);
    walk(dir, snap_add, sn);
}

static void snap_free(snapshot *sn)
{
    for (size_t i = 0; i < sn->n; ++i)
        free(sn->data[i]);
    sn->n = 0;
}

/* How many of the snapshot's files now differ from it or are gone. */
static size_t snap_changed(const snapshot *sn)
{
    size_t changed = 0;
    for (size_t i = 0; i < sn->n; ++i) {
        size_t size = 0;
        unsigned char *now = read_all(sn->path[i], &size);
        changed += !now || size != sn->size[i] || (size && memcmp(now, sn->data[i], size) != 0);
        free(now);
    }
    return changed;
}

/* ---- one context, one GEMM ------------------------------------------------------------------- */

typedef struct {
    int ok;          /* the call returned TSL_OK with a correct result */
    double build_ms; /* of the first call */
    double repeat_build_ms;
} run_result;

/* Creates a context, runs one sgemm with the naive variant (twice), checks the result against
 * the reference and the timing fields, destroys the context. */
static run_result run_once(const char *label)
{
    run_result r = {0, -1.0, -1.0};
    static float a[M * K], b[K * N], c[M * N];
    static double ad[M * K], bd[K * N], cd[M * N];
    unsigned long long st = ++g_seed * 0x9E3779B97F4A7C15ull;
    tsl_ref_fill_f(a, M * K, &st);
    tsl_ref_fill_f(b, K * N, &st);
    tsl_ref_fill_f(c, M * N, &st);
    for (size_t i = 0; i < M * K; ++i)
        ad[i] = a[i];
    for (size_t i = 0; i < K * N; ++i)
        bd[i] = b[i];
    for (size_t i = 0; i < M * N; ++i)
        cd[i] = c[i];

    tsl_context *ctx = NULL;
    tsl_status s = tsl_context_create(NULL, &ctx);
    CHECK(s == TSL_OK, "%s: tsl_context_create: %s: %s", label, tsl_status_name(s),
          tsl_last_error());
    if (s != TSL_OK) return r;
    s = tsl_context_set_variant(ctx, "gemm", "naive");
    CHECK(s == TSL_OK, "%s: set_variant naive: %s", label, tsl_context_error(ctx));
    s = tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, M, N, K, 1.25f, a, K, b, N, 0.5f,
                  c, N);
    CHECK(s == TSL_OK, "%s: tsl_sgemm: %s: %s", label, tsl_status_name(s), tsl_context_error(ctx));
    tsl_timing t = {-1, -1, -1, -1};
    if (s == TSL_OK) {
        tsl_ref_dgemm(TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, M, N, K, 1.25, ad, K, bd, N, 0.5,
                      cd, N);
        double err = tsl_ref_rel_err_f(M, N, c, N, cd, N), tol = tsl_ref_gemm_tolerance(0, K);
        CHECK(err <= tol, "%s: relative error %.3g > %.3g", label, err, tol);
        s = tsl_context_timing(ctx, &t);
        CHECK(s == TSL_OK, "%s: tsl_context_timing: %s", label, tsl_status_name(s));
        CHECK(t.build_ms >= 0 && t.upload_ms >= 0 && t.kernel_ms > 0 && t.download_ms >= 0,
              "%s: timing build=%g upload=%g kernel=%g download=%g (want >= 0, kernel > 0)", label,
              t.build_ms, t.upload_ms, t.kernel_ms, t.download_ms);
        r.ok = err <= tol;
        r.build_ms = t.build_ms;

        /* The same call again in the same context: the program is already built. */
        s = tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, M, N, K, 1.25f, a, K, b, N,
                      0.5f, c, N);
        CHECK(s == TSL_OK, "%s: repeated tsl_sgemm: %s", label, tsl_status_name(s));
        tsl_timing t2 = {-1, -1, -1, -1};
        tsl_context_timing(ctx, &t2);
        r.repeat_build_ms = t2.build_ms;
        CHECK(t2.build_ms >= 0 && t2.upload_ms >= 0 && t2.kernel_ms > 0 && t2.download_ms >= 0,
              "%s: repeated call timing build=%g upload=%g kernel=%g download=%g", label,
              t2.build_ms, t2.upload_ms, t2.kernel_ms, t2.download_ms);
    }
    printf("%-44s build_ms %9.2f  (repeat %.2f)  upload %.3f kernel %.3f download %.3f\n", label,
           r.build_ms, r.repeat_build_ms, t.upload_ms, t.kernel_ms, t.download_ms);
    fflush(stdout);
    tsl_context_destroy(ctx);
    return r;
}

/* ---- phases ---------------------------------------------------------------------------------- */

static char g_root[1024]; /* the temporary directory everything lives in */

static void make_dir(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", g_root, name);
    CHECK(mkdir(out, 0700) == 0, "mkdir %s: %s", out, strerror(errno));
}

/* Starts n copies of this program in --child mode at once; returns how many succeeded. */
static int run_children(const char *self, int n)
{
    pid_t pids[8];
    for (int i = 0; i < n; ++i) {
        fflush(stdout);
        fflush(stderr);
        pids[i] = fork();
        if (pids[i] == 0) {
            execl(self, self, "--child", (char *)NULL);
            _exit(127);
        }
    }
    int ok = 0;
    for (int i = 0; i < n; ++i) {
        int status = 0;
        if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0)
            ++ok;
    }
    return ok;
}

int main(int argc, char **argv)
{
    /* PoCL keeps its own kernel cache; with it on, a "rebuild" would be a PoCL cache hit.
     * (NVIDIA's driver cache stays on: it caches only the PTX-to-SASS step, so a rebuild from
     * source still costs the compile, while without it every load from tessel's cache would pay
     * the PTX JIT again and look like a build.) */
    setenv("POCL_KERNEL_CACHE", "0", 1);
    if (argc == 2 && strcmp(argv[1], "--child") == 0) {
        char label[64];
        snprintf(label, sizeof label, "child %d", (int)getpid());
        g_seed += (unsigned long long)getpid();
        run_result r = run_once(label);
        /* _exit: the status is this check's verdict alone, not LeakSanitizer's view of PoCL's
         * and LLVM's process-lifetime allocations (the parent's runs cover tessel's own). */
        fflush(stdout);
        fflush(stderr);
        _exit(r.ok && check_failures_ == 0 ? 0 : 1);
    }

    const char *tmp = getenv("TMPDIR");
    snprintf(g_root, sizeof g_root, "%s/tessel-test-cache-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(g_root)) {
        fprintf(stderr, "mkdtemp %s: %s\n", g_root, strerror(errno));
        return 1;
    }
    char dir[4096];
    make_dir(dir, sizeof dir, "cache");

    /* tsl_cache_dir: the rule's first source wins and a missing directory is created; a buffer too
     * small or NULL is an invalid argument, never a truncated path. */
    char nested[4200], got[4200];
    snprintf(nested, sizeof nested, "%s/made/by/tsl_cache_dir", g_root);
    setenv("TESSEL_CACHE_DIR", nested, 1);
    CHECK(tsl_cache_dir(got, sizeof got) == TSL_OK && strcmp(got, nested) == 0,
          "tsl_cache_dir: '%s', expected '%s'", got, nested);
    struct stat made;
    CHECK(stat(nested, &made) == 0 && S_ISDIR(made.st_mode), "tsl_cache_dir did not create %s",
          nested);
    CHECK(tsl_cache_dir(got, 8) == TSL_ERR_INVALID_ARG && got[0] == '\0',
          "tsl_cache_dir into 8 bytes: not TSL_ERR_INVALID_ARG with an empty string");
    CHECK(tsl_cache_dir(NULL, 64) == TSL_ERR_INVALID_ARG, "tsl_cache_dir(NULL) accepted");
    setenv("TESSEL_CACHE_DIR", "/proc/tessel-cannot-be-made", 1);
    CHECK(tsl_cache_dir(got, sizeof got) == TSL_ERR_IO, "an impossible directory was not TSL_ERR_IO");
    setenv("TESSEL_CACHE_DIR", dir, 1);

    /* (a) a fresh cache: a real build, and an entry on disk. */
    run_result r1 = run_once("1 empty cache");
    size_t files1 = walk(dir, NULL, NULL);
    CHECK(r1.ok && r1.build_ms > 0, "first build: ok=%d build_ms=%g (want > 0)", r1.ok,
          r1.build_ms);
    CHECK(files1 >= 1, "no file in the cache directory %s after a build", dir);
    CHECK(r1.repeat_build_ms >= 0 && r1.repeat_build_ms < r1.build_ms / 10,
          "a repeated call in the same context spent %g ms building (first call %g)",
          r1.repeat_build_ms, r1.build_ms);

    /* (b) a second context loads from disk, and leaves the entry as it was. */
    snapshot good, bad;
    snap_take(&good, dir);
    run_result r2 = run_once("2 warm cache");
    CHECK(r2.ok, "second context: wrong result");
    CHECK(r2.build_ms >= 0 && r2.build_ms < r1.build_ms / 2,
          "build_ms did not drop with a warm cache: %g then %g (want < half)", r1.build_ms,
          r2.build_ms);
    CHECK(walk(dir, NULL, NULL) == files1 && snap_changed(&good) == 0,
          "a cache hit rewrote or added entries (%zu files before, %zu after)", files1,
          walk(dir, NULL, NULL));
    snap_free(&good);
    /* Build/load verdicts by time need the two well apart: PoCL compiles for seconds and loads in
     * milliseconds; a driver with its own compile cache (NVIDIA's) can make both milliseconds.
     * The verdicts by file contents (a damaged entry is rewritten, a good one is kept) hold on
     * every device. */
    double threshold = sqrt(r1.build_ms * (r2.build_ms > 0.01 ? r2.build_ms : 0.01));
    int timed = r1.build_ms >= 10 * r2.build_ms;
    if (timed)
        printf("threshold between load and build: %.2f ms\n", threshold);
    else
        SKIP("build (%.2f ms) and load (%.2f ms) are too close on this device to tell apart by "
             "time: only the file-content checks of rebuilds apply",
             r1.build_ms, r2.build_ms);

    /* (c) every way of damaging the entries: not trusted, rebuilt, rewritten, then kept. */
    for (int how = 0; how < NDAMAGE; ++how) {
        enum damage d = (enum damage)how;
        size_t n = walk(dir, damage_file, &d);
        CHECK(n >= 1, "no cache file to damage");
        snap_take(&bad, dir);
        char label[96];
        snprintf(label, sizeof label, "3 %s", damage_name[how]);
        run_result r3 = run_once(label);
        CHECK(r3.ok, "cache entries %s: wrong result or failure", damage_name[how]);
        size_t rewritten = snap_changed(&bad);
        snap_free(&bad);
        CHECK(rewritten == n,
              "cache entries %s: %zu of %zu damaged files were left as they were (trusted, or "
              "not rewritten after the rebuild)",
              damage_name[how], n - rewritten, n);
        CHECK(!timed || r3.build_ms > threshold,
              "cache entries %s: build_ms %.2f looks like a cache load (threshold %.2f): the "
              "damaged entry was trusted",
              damage_name[how], r3.build_ms, threshold);
        snap_take(&good, dir);
        snprintf(label, sizeof label, "4 after rebuild (%s)", damage_name[how]);
        run_result r4 = run_once(label);
        CHECK(r4.ok, "after a rebuild from entries %s: wrong result or failure", damage_name[how]);
        CHECK(snap_changed(&good) == 0,
              "after a rebuild from entries %s the rewritten entry was rewritten again: not "
              "accepted as valid",
              damage_name[how]);
        snap_free(&good);
        CHECK(!timed || r4.build_ms < threshold,
              "after a rebuild from entries %s the next context spent %.2f ms building "
              "(threshold %.2f): the entry was not rewritten",
              damage_name[how], r4.build_ms, threshold);
    }

    /* Concurrent writers on an empty cache: both correct, and what they leave is valid. */
    char dir2[4096];
    make_dir(dir2, sizeof dir2, "concurrent");
    setenv("TESSEL_CACHE_DIR", dir2, 1);
    int ok = run_children(argv[0], 2);
    CHECK(ok == 2, "%d of 2 concurrent processes failed on an empty cache", 2 - ok);
    snap_take(&good, dir2);
    CHECK(good.n >= 1, "no cache entry after 2 concurrent writers");
    run_result r5 = run_once("5 after concurrent writers");
    CHECK(r5.ok && snap_changed(&good) == 0,
          "after 2 concurrent writers the entry was not accepted (rewritten, or the call failed)");
    snap_free(&good);
    CHECK(!timed || r5.build_ms < threshold,
          "after 2 concurrent writers the entry did not load fast: build_ms %.2f", r5.build_ms);

    /* (d) unusable cache locations still compute. */
    char file[2048];
    snprintf(file, sizeof file, "%s/not-a-directory", g_root);
    static const unsigned char content[] = "a regular file, not a cache directory\n";
    write_all(file, content, sizeof content - 1);
    setenv("TESSEL_CACHE_DIR", file, 1);
    run_result r6 = run_once("6 TESSEL_CACHE_DIR is a file");
    CHECK(r6.ok, "TESSEL_CACHE_DIR naming a regular file: the call failed");
    size_t size = 0;
    unsigned char *after = read_all(file, &size);
    CHECK(after && size == sizeof content - 1 && memcmp(after, content, size) == 0,
          "the regular file named by TESSEL_CACHE_DIR was modified");
    free(after);
    char under[4096];
    snprintf(under, sizeof under, "%s/sub/dir", file);
    setenv("TESSEL_CACHE_DIR", under, 1);
    run_result r7 = run_once("7 TESSEL_CACHE_DIR under a file");
    CHECK(r7.ok, "TESSEL_CACHE_DIR under a regular file: the call failed");
    if (geteuid() != 0) {
        char ro[4096];
        make_dir(ro, sizeof ro, "read-only");
        chmod(ro, 0500);
        setenv("TESSEL_CACHE_DIR", ro, 1);
        run_result r8 = run_once("8 read-only cache directory");
        CHECK(r8.ok, "read-only TESSEL_CACHE_DIR: the call failed");
        CHECK(walk(ro, NULL, NULL) == 0, "files appeared in a read-only directory");
    } else {
        SKIP("read-only cache directory: running as root, permissions do not apply");
    }

    /* Default locations: $XDG_CACHE_HOME/tessel, then $HOME/.cache/tessel. Each is seeded with
     * a copy of the good cache: the library must use it as it is (no rebuild, nothing new in
     * it) and write nowhere else that the test can see (HOME points at an empty directory while
     * XDG_CACHE_HOME is tested, so the real home is never touched). */
    char xdg[2048], home[2048], where[4096], elsewhere[4096];
    make_dir(xdg, sizeof xdg, "xdg");
    make_dir(home, sizeof home, "home");
    snprintf(where, sizeof where, "%s/tessel", xdg);
    snprintf(elsewhere, sizeof elsewhere, "%s/.cache", home);
    copy_tree(dir, where);
    snap_take(&good, where);
    unsetenv("TESSEL_CACHE_DIR");
    setenv("XDG_CACHE_HOME", xdg, 1);
    setenv("HOME", home, 1);
    run_result r9 = run_once("9 XDG_CACHE_HOME");
    CHECK(r9.ok && walk(where, NULL, NULL) == good.n && snap_changed(&good) == 0 &&
              walk(elsewhere, NULL, NULL) == 0,
          "TESSEL_CACHE_DIR unset: the entry copied to $XDG_CACHE_HOME/tessel was not used as it "
          "was (%zu files there now, %zu before; %zu under $HOME/.cache)",
          walk(where, NULL, NULL), good.n, walk(elsewhere, NULL, NULL));
    CHECK(!timed || r9.build_ms < threshold,
          "TESSEL_CACHE_DIR unset: build_ms %.2f with a good entry in $XDG_CACHE_HOME/tessel",
          r9.build_ms);
    snap_free(&good);

    snprintf(where, sizeof where, "%s/.cache/tessel", home);
    copy_tree(dir, where);
    snap_take(&good, where);
    unsetenv("XDG_CACHE_HOME");
    run_result r10 = run_once("10 HOME");
    CHECK(r10.ok && walk(where, NULL, NULL) == good.n && snap_changed(&good) == 0,
          "TESSEL_CACHE_DIR and XDG_CACHE_HOME unset: the entry copied to $HOME/.cache/tessel was "
          "not used as it was (%zu files there now, %zu before)",
          walk(where, NULL, NULL), good.n);
    CHECK(!timed || r10.build_ms < threshold,
          "TESSEL_CACHE_DIR and XDG_CACHE_HOME unset: build_ms %.2f with a good entry in "
          "$HOME/.cache/tessel",
          r10.build_ms);
    snap_free(&good);

    remove_tree(g_root);
    return check_summary("test_cache");
}
