/* test_dropin_route.c: the routing and device side of libtessel_blas (src/blas/route.c, device.c,
 * calibrate.c, config.c, stats.c), compiled into this program with the drop-in's CPU BLAS loader
 * and tested through the inner entry points the BLAS symbols use: a call of this test does what a
 * dgemm_ does (tsl__blas_device_begin, tsl_sgemm/tsl_dgemm, tsl__blas_device_end, else the CPU).
 * One case per process (argv[1]), the environment set by tests/dropin_route.cmake; cases that
 * check what a process prints at exit run themselves again as a child (argv[1] "child-...").
 * The cases from verbose on to hint live in test_dropin_route_exit.c, the shared helpers in
 * dropin_route_helpers.c (tests/dropin_route.h).
 *   model      the cost model's decisions on synthetic figures
 *   config     TESSEL_BLAS_CONFIG parsing, bad lines included
 *   calibrate  the measurements (tiny sizes on PoCL), the cache file and its directory rule
 *   calibrate_default  the real calibration of the default device, timed (skipped on a CPU
 *              device, which auto never calibrates: run it on a GPU machine)
 *   device     TESSEL_BLAS_ROUTE=device: calls on the device, results checked
 *   threads    several threads calling at once, each result checked against the CPU
 *   fork       a child forked while the parent uses the device computes on the CPU
 *   errors     a failed device call: one warning, the CPU does it, a broken device is given up
 *   fault      the TESSEL_BLAS_FAULT test hook
 *   verbose    TESSEL_BLAS_VERBOSE=1's report at exit
 *   bad_route  TESSEL_BLAS_ROUTE=bogus: one warning, then auto
 *   bad_devices TESSEL_BLAS_DEVICES naming no device: one warning, every call on the CPU
 *   group      TESSEL_BLAS_DEVICES with two PoCL devices: a split GEMM holds both, a single call
 *              waits for it; a group error gives up the group, not its devices
 *   one_of_all TESSEL_BLAS_DEVICES=all with one device: single calls on the group's context
 *   config_env TESSEL_BLAS_CONFIG read at the first call: its rules route, its bad line warns
 *   auto_pocl  auto on a CPU OpenCL device: small calls open nothing, large ones stay on the
 *              CPU, nothing is calibrated
 *   hint       the hint file (its key, its checks), and auto before opening a device: a hint
 *              that favours the CPU keeps large calls there without opening one (the report
 *              says so); one that favours the device, a corrupt one, another spec's or
 *              TESSEL_BLAS_RECALIBRATE=1 open it (PoCL then keeps the calls on the CPU as a CPU
 *              device, which is not what these cases look at) */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "blas/route.h"
#include "check.h"
#include "dropin_route.h"

/* ---- model ---------------------------------------------------------------------------------- */

static double gemm_bytes(double n, double e)
{
    return e * 4 * n * n;
}

static void test_model(void)
{
    tsl__blas_rates r = gpu_like();
    CHECK(tsl__blas_default_min_flops(TSL__BLAS_L3) == 2.0 * 128 * 128 * 128, "L3 threshold");
    /* the rate: measured points exact, clamped outside, log-log between */
    CHECK(tsl__blas_device_rate(&r, TSL__BLAS_L3, 's', r.gemm_flops[0][0]) == 10e12, "at f0");
    CHECK(tsl__blas_device_rate(&r, TSL__BLAS_L3, 's', 1e3) == 10e12, "below f0");
    CHECK(tsl__blas_device_rate(&r, TSL__BLAS_L3, 's', 1e15) == 40e12, "above f1");
    double mid = sqrt(r.gemm_flops[0][0] * r.gemm_flops[0][1]);
    CHECK(fabs(tsl__blas_device_rate(&r, TSL__BLAS_L3, 's', mid) - 20e12) < 1e6, "geometric mean");
    CHECK(fabs(tsl__blas_device_rate(&r, TSL__BLAS_L2, 'd', 1e9) - 2e12 * 2 / 8) < 1, "gemv rate");
    CHECK(fabs(tsl__blas_device_rate(&r, TSL__BLAS_L1, 's', 1e9) - 2e12 * 2 / 12) < 1, "axpy rate");
    /* the seconds, by the formula */
    double n = 4096, f = 2 * n * n * n, b = gemm_bytes(n, 8);
    double want = 50e-6 + f / 20e12 + b / 10e9;
    CHECK(fabs(tsl__blas_device_seconds(&r, 1, TSL__BLAS_L3, 'd', f, b) - want) < 1e-12, "dev s");
    CHECK(fabs(tsl__blas_cpu_seconds(&r, TSL__BLAS_L3, 'd', f, b) - f / 0.5e12) < 1e-12, "cpu s");
    CHECK(fabs(tsl__blas_cpu_seconds(&r, TSL__BLAS_L3, 'd', 1e6, 1e9) - 1e9 / 50e9) < 1e-12, "cpu memory-bound");
    /* decisions */
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 'd', f, b) == 1, "dgemm 4096 -> device");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 's', 2.0 * 256 * 256 * 256,
                                gemm_bytes(256, 4)) == 0,
          "sgemm 256 -> CPU");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 'd', 2.0 * 32 * 32 * 32, gemm_bytes(32, 8)) ==
              0,
          "dgemm 32 -> CPU");
    /* a skinny GEMM is all transfers: k = 16 */
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 'd', 2.0 * 8192 * 8192 * 16,
                                8.0 * (2 * 8192 * 16 + 2 * 8192.0 * 8192)) == 0,
          "skinny -> CPU");
    double an = 1e8;
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L1, 'd', 2 * an, 24 * an) == 0, "daxpy -> CPU");
    tsl__blas_rates slow_cpu = r;
    slow_cpu.cpu_bw = 2e9;
    CHECK(tsl__blas_cost_choose(&slow_cpu, 1, TSL__BLAS_L1, 'd', 2 * an, 24 * an) == 1,
          "daxpy with a slow CPU memory -> device");
    /* a slow link turns the 4096 dgemm around */
    tsl__blas_rates slow_link = r;
    slow_link.link_bw = 0.1e9;
    CHECK(tsl__blas_cost_choose(&slow_link, 1, TSL__BLAS_L3, 'd', f, b) == 0, "slow link -> CPU");
    /* several devices: a big sgemm splits, a middling one does not */
    double n16 = 16384, f16 = 2 * n16 * n16 * n16;
    CHECK(tsl__blas_cost_choose(&r, 4, TSL__BLAS_L3, 's', f16, gemm_bytes(n16, 4)) == 2, "split");
    CHECK(tsl__blas_cost_choose(&r, 4, TSL__BLAS_L1, 'd', 2 * an, 24 * an) != 2, "L1 never split");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 's', f16, gemm_bytes(n16, 4)) == 1, "ndev 1");
    /* figures not measured: the CPU */
    tsl__blas_rates none;
    memset(&none, 0, sizeof none);
    CHECK(tsl__blas_cost_choose(&none, 1, TSL__BLAS_L3, 's', f16, 1e9) == 0, "no figures -> CPU");
    tsl__blas_rates no_fp64 = r;
    memset(no_fp64.gemm_rate[1], 0, sizeof no_fp64.gemm_rate[1]);
    CHECK(tsl__blas_cost_choose(&no_fp64, 1, TSL__BLAS_L3, 'd', f, b) == 0, "no dgemm -> CPU");
    CHECK(isinf(tsl__blas_device_seconds(&no_fp64, 1, TSL__BLAS_L3, 'd', f, b)), "inf");
    /* complex GEMM ('c', 'z'): its real flops (8 m n k) at the real precision's rates, its
     * complex bytes; a zgemm of order 2048 is the real GEMM 2048 x 4096 x 4096: half a dgemm
     * 4096's flops and half its bytes */
    double zf = 8.0 * 2048 * 2048 * 2048, zb = gemm_bytes(2048, 16);
    CHECK(zf == f / 2 && zb == b / 2, "zgemm 2048's figures");
    CHECK(tsl__blas_device_rate(&r, TSL__BLAS_L3, 'z', zf) ==
              tsl__blas_device_rate(&r, TSL__BLAS_L3, 'd', zf),
          "zgemm at dgemm's rate");
    CHECK(tsl__blas_device_rate(&r, TSL__BLAS_L3, 'c', mid) ==
              tsl__blas_device_rate(&r, TSL__BLAS_L3, 's', mid),
          "cgemm at sgemm's rate");
    CHECK(tsl__blas_cpu_seconds(&r, TSL__BLAS_L3, 'z', zf, zb) ==
              tsl__blas_cpu_seconds(&r, TSL__BLAS_L3, 'd', zf, zb),
          "zgemm on the CPU at dgemm's rate");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 'z', zf, zb) == 1, "zgemm 2048 -> device");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 'c', 8.0 * 128 * 128 * 128,
                                gemm_bytes(128, 8)) == 0,
          "cgemm 128 -> CPU");
    CHECK(tsl__blas_cost_choose(&slow_link, 1, TSL__BLAS_L3, 'z', zf, zb) == 0,
          "zgemm 2048 over a slow link -> CPU");
    CHECK(tsl__blas_cost_choose(&no_fp64, 1, TSL__BLAS_L3, 'z', zf, zb) == 0, "no zgemm -> CPU");
    /* factorizations: a fixed latency a column (fitted to the LUs measured at 1024 and 4096) plus
     * the flops at the GEMM rate; on the CPU the CPU LAPACK's LU rate. An order-1024 dgetrf
     * stays on the CPU, an order-8192 one goes. */
    double l1 = 2.0 / 3.0 * 1024 * 1024 * 1024, l8 = 2.0 / 3.0 * 8192 * 8192 * 8192;
    CHECK(tsl__blas_default_min_flops(TSL__BLAS_FACTOR) == l1, "factor threshold");
    CHECK(fabs(tsl__blas_device_rate(&r, TSL__BLAS_FACTOR, 'd', l1) / 0.2e12 - 1) < 1e-9,
          "the LU that sets the latency is reproduced");
    double big = tsl__blas_device_rate(&r, TSL__BLAS_FACTOR, 's', 1e16);
    CHECK(big < 40e12 && big > 0.95 * 40e12, "a huge LU runs near the GEMM rate: %g", big);
    double l4 = 2.0 / 3.0 * 4096 * 4096 * 4096;
    CHECK(tsl__blas_device_rate(&r, TSL__BLAS_FACTOR, 'd', l4) <= 5e12 * (1 + 1e-9),
          "the other LU is not made faster than measured");
    CHECK(fabs(tsl__blas_cpu_seconds(&r, TSL__BLAS_FACTOR, 'd', l8, 0) - l8 / 0.3e12) < 1e-9,
          "cpu LU seconds");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_FACTOR, 'd', l1, 8.0 * 2 * 1024 * 1024) == 0,
          "dgetrf 1024 -> CPU");
    CHECK(tsl__blas_device_seconds(&r, 1, TSL__BLAS_FACTOR, 'd', l1, 0) >
              10 * tsl__blas_device_seconds(&r, 1, TSL__BLAS_L3, 'd', l1, 0),
          "an LU takes far longer than a GEMM of its flops");
    CHECK(tsl__blas_cost_choose(&r, 1, TSL__BLAS_FACTOR, 'd', l8, 8.0 * 2 * 8192 * 8192) == 1,
          "dgetrf 8192 -> device");
    CHECK(tsl__blas_cost_choose(&r, 4, TSL__BLAS_FACTOR, 'd', l8, 8.0 * 2 * 8192 * 8192) == 1,
          "a factorization never splits");
    tsl__blas_rates no_lu = r;
    memset(no_lu.lu_rate, 0, sizeof no_lu.lu_rate);
    CHECK(tsl__blas_cost_choose(&no_lu, 1, TSL__BLAS_FACTOR, 'd', l8, 1e9) == 0, "no LU -> CPU");
}

/* ---- config -------------------------------------------------------------------------------- */

static void test_config(void)
{
    const char *text = "# rules\n"
                       "dgemm route cpu\n"
                       "sgemm min_flops 1e9   # only big ones\n"
                       "SGEMM_ route device\n"
                       "dgemv route sideways\n" /* 5: bad value */
                       "\n"
                       "daxpy min_flops -3\n" /* 7: negative */
                       "ddot frobnicate 2\n"  /* 8: unknown key */
                       "dnrm2 route\n"        /* 9: too few words */
                       "* min_flops 5e7\n"
                       "cblas_dsyrk route device extra\n" /* 11: too many words */
                       "3gemm route cpu\n"                /* 12: not a name */
                       "  \t  # only a comment\n"
                       "dtrsm route cpu"; /* no newline at the end */
    capture_begin();
    int bad = tsl__blas_config_parse(text, "rules.conf");
    char *err = capture_end();
    CHECK(bad == 6, "bad lines %d", bad);
    static const char *const lines[] = {"rules.conf:5:", "rules.conf:7:",  "rules.conf:8:",
                                        "rules.conf:9:", "rules.conf:11:", "rules.conf:12:"};
    for (size_t i = 0; i < 6; i++)
        CHECK(count_of(err, lines[i]) == 1, "warning for %s in:\n%s", lines[i], err);
    CHECK(count_of(err, "\n") == 6, "one line per bad line:\n%s", err);
    CHECK(count_of(err, "line ignored") == 6, "says the line is ignored:\n%s", err);
    tsl__blas_rule d = tsl__blas_config_rule("dgemm");
    CHECK(d.route == TSL__ROUTE_CPU && d.min_flops == 5e7, "dgemm %d %g", d.route, d.min_flops);
    tsl__blas_rule cd = tsl__blas_config_rule("cblas_dgemm");
    CHECK(cd.route == TSL__ROUTE_CPU, "cblas_dgemm follows dgemm");
    tsl__blas_rule s = tsl__blas_config_rule("sgemm");
    CHECK(s.route == TSL__ROUTE_DEVICE && s.min_flops == 1e9, "sgemm %d %g", s.route, s.min_flops);
    tsl__blas_rule v = tsl__blas_config_rule("dgemv");
    CHECK(v.route == -1 && v.min_flops == 5e7, "dgemv: only the * rule %d %g", v.route,
          v.min_flops);
    CHECK(tsl__blas_config_rule("dtrsm").route == TSL__ROUTE_CPU, "last line without newline");
    CHECK(tsl__blas_config_rule("dsyrk").route == -1, "the bad dsyrk line made no rule");
    free(err);
    /* a file, and one that is not there */
    char path[] = "/tmp/tessel-dropin-confXXXXXX";
    int fd = mkstemp(path);
    const char *file = "zgemm route cpu\nbogus line here\n";
    CHECK(write(fd, file, strlen(file)) == (ssize_t)strlen(file), "write");
    close(fd);
    capture_begin();
    tsl__blas_config_load(path);
    tsl__blas_config_load("/nonexistent/tessel.conf");
    err = capture_end();
    char where[128];
    snprintf(where, sizeof where, "%s:2:", path);
    CHECK(count_of(err, where) == 1, "file:line in:\n%s", err);
    CHECK(count_of(err, "/nonexistent/tessel.conf") == 1, "unreadable file named:\n%s", err);
    CHECK(tsl__blas_config_rule("zgemm").route == TSL__ROUTE_CPU && tsl__blas_config_count() == 1,
          "the file's rule stays; the missing file changed nothing");
    unlink(path);
    free(err);
}

/* ---- calibrate ----------------------------------------------------------------------------- */

static void test_calibrate(void)
{
    char dir[1024], kept[1024];
    snprintf(kept, sizeof kept, "%s", getenv("TESSEL_CACHE_DIR") ? getenv("TESSEL_CACHE_DIR") : "");
    setenv("TESSEL_CACHE_DIR", "/tmp/tessel-dropin-cache-a/x", 1);
    CHECK(tsl__blas_cache_dir(dir, sizeof dir) == 0 &&
              strcmp(dir, "/tmp/tessel-dropin-cache-a/x") == 0,
          "TESSEL_CACHE_DIR first: %s", dir);
    unsetenv("TESSEL_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/tmp/tessel-dropin-cache-b", 1);
    CHECK(tsl__blas_cache_dir(dir, sizeof dir) == 0 &&
              strcmp(dir, "/tmp/tessel-dropin-cache-b/tessel") == 0,
          "then XDG_CACHE_HOME/tessel: %s", dir);
    unsetenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    char want[1024];
    snprintf(want, sizeof want, "%s/.cache/tessel", home ? home : "");
    CHECK(!home || (tsl__blas_cache_dir(dir, sizeof dir) == 0 && strcmp(dir, want) == 0),
          "then ~/.cache/tessel: %s", dir);
    rmdir("/tmp/tessel-dropin-cache-a/x"); /* the folders the rule made, now empty */
    rmdir("/tmp/tessel-dropin-cache-a");
    rmdir("/tmp/tessel-dropin-cache-b/tessel");
    rmdir("/tmp/tessel-dropin-cache-b");
    /* the test's own cache from here on: the kernels built below are kept there */
    CHECK(kept[0] != '\0', "the test sets TESSEL_CACHE_DIR");
    if (!kept[0]) return;
    setenv("TESSEL_CACHE_DIR", kept, 1);

    tsl_device_info small = {0};
    small.global_mem = 256ull << 20;
    small.max_alloc = 64ull << 20;
    tsl__blas_calib_sizes ds = tsl__blas_calib_default_sizes(&small);
    CHECK(ds.gemm_n[1] == 1024 && ds.gemm_n[0] == 256, "sizes fit a small device: %zu %zu",
          ds.gemm_n[0], ds.gemm_n[1]);

    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK, "context: %s", tsl_last_error());
    if (st != TSL_OK) return;
    tsl__blas_calib_sizes sz = {{32, 64}, 1u << 20, 128, 1u << 16};
    tsl__blas_rates r;
    char msg[256];
    double t0 = tsl__blas_now();
    st = tsl__blas_calib_measure(ctx, &sz, &r, msg, sizeof msg);
    printf("measured in %.2f s: overhead %.1f us, sgemm %.2f/%.2f GFLOP/s, link %.2f GB/s, cpu "
           "sgemm %.2f GFLOP/s, cpu memory %.2f GB/s\n",
           tsl__blas_now() - t0, r.overhead_s * 1e6, r.gemm_rate[0][0] * 1e-9,
           r.gemm_rate[0][1] * 1e-9, r.link_bw * 1e-9, r.cpu_gemm_rate[0] * 1e-9, r.cpu_bw * 1e-9);
    CHECK(st == TSL_OK, "measure: %s %s", tsl_status_name(st), msg);
    CHECK(r.gemm_flops[0][0] == 2.0 * 32 * 32 * 32 && r.gemm_flops[1][1] == 2.0 * 64 * 64 * 64,
          "flops of the sizes");
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 2; i++)
            CHECK(r.gemm_rate[p][i] > 0 && isfinite(r.gemm_rate[p][i]) && r.lu_rate[p][i] > 0 &&
                      isfinite(r.lu_rate[p][i]) && r.lu_flops[p][i] > 0,
                  "rate");
    CHECK(r.overhead_s > 0 && r.dev_bw > 0 && r.link_bw > 0 && r.cpu_gemm_rate[0] > 0 &&
              r.cpu_gemm_rate[1] > 0 && r.cpu_bw > 0 && r.cpu_lu_rate[0] > 0 && r.cpu_lu_rate[1] > 0,
          "every figure positive");

    tsl_device_info info;
    tsl_context_device(ctx, &info);
    char key[1024], path[1200];
    tsl__blas_calib_key(&info, key, sizeof key);
    CHECK(strstr(key, info.name) && strstr(key, info.driver_version) &&
              strstr(key, "cpu_threads=") && strstr(key, tsl__blas_cpu_path()),
          "key: %s", key);
    char want_path[1100];
    snprintf(want_path, sizeof want_path, "%s/blas-calibration-", kept);
    CHECK(tsl__blas_calib_path(key, path, sizeof path) == 0 &&
              strncmp(path, want_path, strlen(want_path)) == 0,
          "path %s", path);
    unlink(path);
    tsl__blas_rates back;
    CHECK(tsl__blas_calib_read(path, key, &back) != 0, "no file yet");
    CHECK(tsl__blas_calib_write(path, key, &r) == 0, "write");
    CHECK(tsl__blas_calib_read(path, key, &back) == 0, "read back");
    CHECK(fabs(back.gemm_rate[0][1] / r.gemm_rate[0][1] - 1) < 1e-8 &&
              fabs(back.cpu_bw / r.cpu_bw - 1) < 1e-8 &&
              fabs(back.overhead_s / r.overhead_s - 1) < 1e-8 &&
              fabs(back.lu_rate[1][0] / r.lu_rate[1][0] - 1) < 1e-8,
          "same figures");
    CHECK(tsl__blas_calib_read(path, "device=other", &back) != 0, "another key is not ours");
    /* damaged files are not trusted */
    FILE *f = fopen(path, "a");
    fputs("trailing\n", f);
    fclose(f);
    CHECK(tsl__blas_calib_read(path, key, &back) != 0, "trailing text");
    CHECK(tsl__blas_calib_write(path, key, &r) == 0, "rewrite");
    CHECK(truncate(path, 60) == 0 && tsl__blas_calib_read(path, key, &back) != 0, "truncated");
    tsl__blas_rates neg = r;
    neg.link_bw = -1;
    CHECK(tsl__blas_calib_write(path, key, &neg) == 0 &&
              tsl__blas_calib_read(path, key, &back) != 0,
          "a negative figure");
    /* tsl__blas_calibrate takes the file when it is there (no measurement on a CPU device) */
    CHECK(tsl__blas_calib_write(path, key, &r) == 0, "rewrite");
    int cached = 0;
    st = tsl__blas_calibrate(ctx, &back, &cached, msg, sizeof msg);
    CHECK(st == TSL_OK && cached == 1, "calibrate from the cache: %s %d", tsl_status_name(st),
          cached);
    unlink(path);
    tsl_context_destroy(ctx);
}

static void test_calibrate_default(void)
{
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(getenv("TESSEL_BLAS_DEVICES"), &ctx);
    CHECK(st == TSL_OK, "context: %s", tsl_last_error());
    if (st != TSL_OK) return;
    tsl_device_info info;
    tsl_context_device(ctx, &info);
    if (strcmp(info.type, "cpu") == 0) {
        SKIP("%s is a CPU device: auto never calibrates it", info.name);
        tsl_context_destroy(ctx);
        return;
    }
    tsl__blas_rates r, again;
    char msg[256];
    int cached = 1;
    setenv("TESSEL_BLAS_RECALIBRATE", "1", 1);
    double t0 = tsl__blas_now();
    st = tsl__blas_calibrate(ctx, &r, &cached, msg, sizeof msg);
    double took = tsl__blas_now() - t0;
    CHECK(st == TSL_OK && !cached, "measured: %s %s", tsl_status_name(st), msg);
    printf("%s: calibrated in %.2f s: overhead %.1f us, sgemm %.0f/%.0f GFLOP/s, dgemm %.0f/%.0f "
           "GFLOP/s, device memory %.0f GB/s, link %.2f GB/s, CPU sgemm %.0f dgemm %.0f GFLOP/s, "
           "CPU memory %.1f GB/s\n",
           info.name, took, r.overhead_s * 1e6, r.gemm_rate[0][0] * 1e-9, r.gemm_rate[0][1] * 1e-9,
           r.gemm_rate[1][0] * 1e-9, r.gemm_rate[1][1] * 1e-9, r.dev_bw * 1e-9, r.link_bw * 1e-9,
           r.cpu_gemm_rate[0] * 1e-9, r.cpu_gemm_rate[1] * 1e-9, r.cpu_bw * 1e-9);
    CHECK(took < 10, "a calibration takes seconds, not %.1f", took);
    unsetenv("TESSEL_BLAS_RECALIBRATE");
    st = tsl__blas_calibrate(ctx, &again, &cached, msg, sizeof msg);
    CHECK(st == TSL_OK && cached && again.gemm_rate[0][1] > 0, "then from the cache");
    /* where the model puts GEMMs of growing size with these figures */
    for (int n = 64; n <= 16384; n *= 2) {
        double f = 2.0 * n * n * n;
        printf("  n=%5d: sgemm -> %s, dgemm -> %s\n", n,
               tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 's', f, 16.0 * n * n) ? "device" : "cpu",
               tsl__blas_cost_choose(&r, 1, TSL__BLAS_L3, 'd', f, 32.0 * n * n) ? "device" : "cpu");
    }
    tsl_context_destroy(ctx);
}

/* ---- device, threads ------------------------------------------------------------------------ */

static void test_device(void)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    int dev = 0;
    for (int i = 0; i < 3; i++) {
        int r = checked_sgemm(&st, 33 + 17 * i, 20 + i, 9 + 40 * i);
        CHECK(r >= 0, "sgemm %d correct", i);
        dev += r == 1;
    }
    CHECK(dev == 3 && st.calls[1] == 3 && st.calls[0] == 0, "all on the device: %d %llu %llu", dev,
          st.calls[1], st.calls[0]);
    /* a double call on PoCL (fp64) */
    static tsl__blas_stat dst = TSL__BLAS_STAT("dgemm");
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, -1, 2, 0.5, 3, 1}, c[4] = {0};
    tsl__blas_call call = {&dst, TSL__BLAS_L3, 'd', 2 * 2 * 2 * 3, 8 * 16, 0};
    tsl_context *ctx = tsl__blas_device_begin(&call);
    CHECK(ctx != NULL, "dgemm to the device");
    if (ctx) {
        tsl_status s = tsl_dgemm(ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 3, 1.0, a, 2,
                                 b, 3, 0.0, c, 2);
        CHECK(tsl__blas_device_end(&call, ctx, s) == 1, "dgemm done: %s", tsl_status_name(s));
        CHECK(c[0] == 1 - 3 + 10 && c[3] == 2 * 0.5 + 4 * 3 + 6, "dgemm values %g %g", c[0], c[3]);
    }
    CHECK(dst.calls[1] == 1 && dst.nanos[1] > 0, "counted with its time");
}

#define NTHREADS 4
#define NCALLS 6
static tsl__blas_stat g_tstat = TSL__BLAS_STAT("sgemm");

static void *thread_body(void *arg)
{
    long id = (long)arg;
    long bad = 0;
    for (int i = 0; i < NCALLS; i++) {
        int m = 9 + (int)((id * 31 + i * 7) % 50), n = 5 + (int)((id * 13 + i * 3) % 40);
        if (checked_sgemm(&g_tstat, m, n, 11 + i * 5) != 1) bad++;
    }
    return (void *)bad;
}

static void test_threads(void)
{
    pthread_t t[NTHREADS];
    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, thread_body, (void *)i);
    long bad = 0;
    for (int i = 0; i < NTHREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        bad += (long)r;
    }
    CHECK(bad == 0, "%ld calls were wrong or not on the device", bad);
    CHECK(g_tstat.calls[1] == NTHREADS * NCALLS, "device calls %llu", g_tstat.calls[1]);
}

/* ---- fork ------------------------------------------------------------------------------------ */

static volatile int g_stop;

static void *busy_body(void *arg)
{
    (void)arg;
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    long bad = 0;
    while (!g_stop)
        bad += checked_sgemm(&st, 40, 40, 40) != 1;
    return (void *)bad;
}

static void test_fork(void)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    CHECK(checked_sgemm(&st, 30, 20, 10) == 1, "parent on the device before the fork");
    pthread_t busy;
    pthread_create(&busy, NULL, busy_body, NULL);
    for (int i = 0; i < 3; i++) {
        nanosleep(&(struct timespec){0, 20000000}, NULL);
        pid_t pid = fork();
        if (pid == 0) {
            alarm(20); /* a hang is a failure, not a stuck ctest */
            int r = checked_sgemm(&st, 50, 30, 20);
            int forked = tsl__blas_forked();
            _exit(r == 0 && forked ? 0 : 10 + r);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "child %d: the CPU did its call (exit %d, signal %d)", i,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1,
              WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    g_stop = 1;
    void *bad;
    pthread_join(busy, &bad);
    CHECK(bad == NULL, "the busy thread's calls");
    CHECK(!tsl__blas_forked() && checked_sgemm(&st, 25, 25, 25) == 1, "parent goes on");
}

/* ---- errors, fault ------------------------------------------------------------------------- */

static void test_errors(void)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    float a[16], b[16], c[16];
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = c[i] = (float)urand();
    capture_begin();
    int ends[3];
    for (int i = 0; i < 3; i++) {
        /* the call's own error, from the device for real: lda smaller than m */
        tsl__blas_call call = {&st, TSL__BLAS_L3, 's', 128, 256, 0};
        tsl_context *ctx = tsl__blas_device_begin(&call);
        tsl_status s = ctx ? tsl_sgemm(ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4,
                                       1.0f, a, 2, b, 4, 0.0f, c, 4)
                           : TSL_OK;
        ends[i] = ctx ? tsl__blas_device_end(&call, ctx, s) : -1;
    }
    char *err = capture_end();
    CHECK(ends[0] == 0 && ends[1] == 0 && ends[2] == 0, "handed to the CPU: %d %d %d", ends[0],
          ends[1], ends[2]);
    CHECK(count_of(err, "warning") == 1 && strstr(err, "sgemm") &&
              strstr(err, "TSL_ERR_INVALID_ARG") && strstr(err, "lda"),
          "one warning naming the routine, the status and the message:\n%s", err);
    free(err);
    CHECK(st.fallbacks == 3, "fallbacks %llu", st.fallbacks);
    CHECK(checked_sgemm(&st, 20, 20, 20) == 1, "the device still works after the call's own error");
    /* an error that is not the call's own gives the device up */
    capture_begin();
    tsl__blas_call call = {&st, TSL__BLAS_L3, 's', 128, 256, 0};
    tsl_context *ctx = tsl__blas_device_begin(&call);
    int end = ctx ? tsl__blas_device_end(&call, ctx, TSL_ERR_OPENCL) : -1;
    int after = checked_sgemm(&st, 20, 20, 20);
    ctx = tsl__blas_device_begin(&call);
    err = capture_end();
    CHECK(end == 0 && after == 0 && ctx == NULL, "given up: %d %d %p", end, after, (void *)ctx);
    CHECK(count_of(err, "warning") == 1 && strstr(err, "TSL_ERR_OPENCL") &&
              strstr(err, "no longer uses the device"),
          "one warning:\n%s", err);
    free(err);
}

static void test_fault(void)
{
    /* TESSEL_BLAS_FAULT=sgemm:out_of_memory */
    static tsl__blas_stat st = TSL__BLAS_STAT("cblas_sgemm"), dst = TSL__BLAS_STAT("dgemm");
    capture_begin();
    int r1 = checked_sgemm(&st, 30, 30, 30), r2 = checked_sgemm(&st, 30, 30, 30);
    tsl__blas_call call = {&dst, TSL__BLAS_L3, 'd', 1e9, 1e6, 0};
    tsl_context *ctx = tsl__blas_device_begin(&call);
    char *err = capture_end();
    CHECK(r1 == 0 && r2 == 0 && ctx == NULL, "the CPU did them: %d %d %p", r1, r2, (void *)ctx);
    CHECK(count_of(err, "warning") == 1 && strstr(err, "cblas_sgemm") &&
              strstr(err, "TSL_ERR_OUT_OF_MEMORY") && strstr(err, "TESSEL_BLAS_FAULT"),
          "%s", err);
    CHECK(st.fallbacks == 1 && st.calls[0] == 2, "counted %llu %llu", st.fallbacks, st.calls[0]);
    free(err);
}

/* ---- several devices ------------------------------------------------------------------------ */

static atomic_int g_single_done;

static void *single_body(void *arg)
{
    (void)arg;
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    int r = checked_sgemm(&st, 21, 22, 23);
    atomic_store(&g_single_done, 1);
    return (void *)(long)r;
}

static void test_group(void)
{
    /* POCL_DEVICES="pthread pthread", TESSEL_BLAS_DEVICES=0:0,0:1 */
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    int m = 70, n = 40, k = 30;
    float *a = malloc(sizeof(float) * (size_t)(m * k)),
          *b = malloc(sizeof(float) * (size_t)(k * n));
    float *c = malloc(sizeof(float) * (size_t)(m * n)),
          *r = malloc(sizeof(float) * (size_t)(m * n));
    for (int i = 0; i < m * k; i++)
        a[i] = (float)urand();
    for (int i = 0; i < k * n; i++)
        b[i] = (float)urand();
    for (int i = 0; i < m * n; i++)
        c[i] = r[i] = (float)urand();
    tsl__blas_call call = {
        &st, TSL__BLAS_L3, 's', 2.0 * m * n * k, 4.0 * (m * k + k * n + 2 * m * n), 0};
    tsl_group *g = tsl__blas_group_begin(&call);
    CHECK(g != NULL && tsl_group_size(g) == 2, "a group of two");
    if (!g) return;
    /* a single call meanwhile waits for a device */
    pthread_t t;
    pthread_create(&t, NULL, single_body, NULL);
    nanosleep(&(struct timespec){0, 100000000}, NULL);
    CHECK(!atomic_load(&g_single_done), "the single call waited for the group call");
    tsl_status s =
        tsl_group_sgemm(g, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, (size_t)m, (size_t)n,
                        (size_t)k, 1.0f, a, (size_t)m, b, (size_t)k, 0.5f, c, (size_t)m);
    CHECK(tsl__blas_group_end(&call, g, s) == 1, "group call: %s %s", tsl_status_name(s),
          tsl_group_error(g));
    ref_gemm(m, n, k, a, b, 0.5f, r);
    CHECK(same(c, r, (size_t)(m * n), 1e-4 * k), "split result");
    void *single;
    pthread_join(t, &single);
    CHECK((long)single == 1, "then the single call ran on a device: %ld", (long)single);
    CHECK(st.calls[1] == 1, "counted");
    tsl__blas_call l1 = {&st, TSL__BLAS_L1, 's', 1e9, 1e9, 0};
    CHECK(tsl__blas_group_begin(&l1) == NULL, "no group for L1");
    /* a group error gives the group up; its devices still serve single calls */
    capture_begin();
    g = tsl__blas_group_begin(&call);
    int end = g ? tsl__blas_group_end(&call, g, TSL_ERR_OPENCL) : -1;
    tsl_group *again = tsl__blas_group_begin(&call);
    int single_after = checked_sgemm(&st, 20, 20, 20);
    char *err = capture_end();
    CHECK(end == 0 && again == NULL && single_after == 1, "group given up: %d %p %d", end,
          (void *)again, single_after);
    CHECK(count_of(err, "warning") == 1, "one warning:\n%s", err);
    free(err);
    free(a);
    free(b);
    free(c);
    free(r);
}

static void test_one_of_all(void)
{
    /* TESSEL_BLAS_DEVICES=all on one PoCL device */
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    CHECK(checked_sgemm(&st, 30, 31, 32) == 1, "on the device");
    tsl__blas_call call = {&st, TSL__BLAS_L3, 's', 1e9, 1e6, 0};
    CHECK(tsl__blas_group_begin(&call) == NULL && tsl__blas_devices_known() == 1,
          "no group of one");
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    static const struct {
        const char *name;
        void (*run)(void);
    } cases[] = {{"model", test_model},
                 {"config", test_config},
                 {"calibrate", test_calibrate},
                 {"device", test_device},
                 {"calibrate_default", test_calibrate_default},
                 {"threads", test_threads},
                 {"fork", test_fork},
                 {"errors", test_errors},
                 {"fault", test_fault},
                 {"verbose", test_verbose},
                 {"bad_route", test_bad_route},
                 {"bad_devices", test_bad_devices},
                 {"auto_pocl", test_auto_pocl},
                 {"group", test_group},
                 {"one_of_all", test_one_of_all},
                 {"config_env", test_config_env},
                 {"hint", test_hint},
                 {"child_verbose", child_verbose},
                 {"child_calls", child_calls}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (strcmp(which, cases[i].name) == 0) {
            cases[i].run();
            if (strncmp(which, "child_", 6) == 0) return 0;
            return check_summary(which);
        }
    fprintf(stderr,
            "usage: test_dropin_route CASE (model, config, calibrate, device, threads, fork, "
            "errors, fault, verbose, bad_route, bad_devices, auto_pocl, group, one_of_all, "
            "config_env, hint)\n");
    return 2;
}
