/* test_dropin_route_exit.c: the drop-in routing cases that look at what a process prints or
 * decides before its first device call (test_dropin_route.c's main runs them; the case list is
 * there): the report at exit, bad TESSEL_BLAS_ROUTE / TESSEL_BLAS_DEVICES / TESSEL_BLAS_CONFIG,
 * auto on a CPU OpenCL device, and the hint file. Most run this program again as a child. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "blas/route.h"
#include "check.h"
#include "dropin_route.h"

/* ---- what a process prints ---------------------------------------------------------------------
 */

void child_verbose(void)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm"), dst = TSL__BLAS_STAT("dgemm");
    checked_sgemm(&st, 30, 30, 30);
    checked_sgemm(&st, 31, 30, 30);
    tsl__blas_call call = {&dst, TSL__BLAS_L3, 'd', 10, 10, 0};
    tsl__blas_cpu_done(&call, tsl__blas_clock());
}

void test_verbose(void)
{
    static const char *const env[] = {"TESSEL_BLAS_VERBOSE", "1", "TESSEL_BLAS_ROUTE", "device",
                                      NULL};
    char *err;
    int rc = run_child("child_verbose", env, &err);
    CHECK(rc == 0, "child exit %d", rc);
    CHECK(count_of(err, "tessel-blas: pid ") == 1 && strstr(err, "route device") &&
              strstr(err, "device 0 \"") && strstr(err, "not calibrated") &&
              strstr(err, "CPU BLAS /"),
          "header line:\n%s", err);
    CHECK(strstr(err, "cpu_calls") && strstr(err, "dev_calls"), "table head:\n%s", err);
    const char *s = strstr(err, "tessel-blas: sgemm "), *d = strstr(err, "tessel-blas: dgemm ");
    unsigned long long c0 = 9, c1 = 9;
    double t0, t1;
    CHECK(s && sscanf(s, "tessel-blas: sgemm %llu %lf %llu %lf", &c0, &t0, &c1, &t1) == 4 &&
              c0 == 0 && c1 == 2 && t1 > 0,
          "sgemm line:\n%s", err);
    CHECK(d && sscanf(d, "tessel-blas: dgemm %llu %lf %llu", &c0, &t0, &c1) == 3 && c0 == 1 &&
              c1 == 0,
          "dgemm line:\n%s", err);
    CHECK(d && s && d < s, "sorted by name");
    free(err);
    /* without the variable: nothing */
    static const char *const quiet[] = {"TESSEL_BLAS_ROUTE", "device", NULL};
    rc = run_child("child_verbose", quiet, &err);
    CHECK(rc == 0 && err[0] == '\0', "silent without TESSEL_BLAS_VERBOSE:\n%s", err);
    free(err);
}

void child_calls(void)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    for (int i = 0; i < 3; i++)
        checked_sgemm(&st, 150, 150, 150); /* above the auto threshold */
}

void test_bad_route(void)
{
    static const char *const env[] = {"TESSEL_BLAS_ROUTE", "gpu-please", "TESSEL_BLAS_VERBOSE", "1",
                                      NULL};
    char *err;
    int rc = run_child("child_calls", env, &err);
    CHECK(rc == 0, "child exit %d", rc);
    CHECK(count_of(err, "TESSEL_BLAS_ROUTE=gpu-please") == 1 && strstr(err, "using auto") &&
              strstr(err, "route auto"),
          "one warning, then auto:\n%s", err);
    unsigned long long c0 = 0, c1 = 9;
    const char *s = strstr(err, "tessel-blas: sgemm ");
    CHECK(s && sscanf(s, "tessel-blas: sgemm %llu %*f %llu", &c0, &c1) == 2 && c0 == 3 && c1 == 0,
          "auto kept them on the CPU (PoCL):\n%s", err);
    free(err);
}

void test_bad_devices(void)
{
    static const char *const env[] = {"TESSEL_BLAS_ROUTE",
                                      "device",
                                      "TESSEL_BLAS_DEVICES",
                                      "no-such-device-anywhere",
                                      "TESSEL_BLAS_VERBOSE",
                                      "1",
                                      NULL};
    char *err;
    int rc = run_child("child_calls", env, &err);
    CHECK(rc == 0, "child exit %d", rc);
    CHECK(count_of(err, "warning") == 1 && strstr(err, "no-such-device-anywhere"), "%s", err);
    const char *s = strstr(err, "tessel-blas: sgemm ");
    unsigned long long c0 = 0;
    CHECK(s && sscanf(s, "tessel-blas: sgemm %llu", &c0) == 1 && c0 == 3, "the CPU did all:\n%s",
          err);
    free(err);
    /* the same device twice is no group */
    static const char *const twice[] = {"TESSEL_BLAS_ROUTE", "device", "TESSEL_BLAS_DEVICES",
                                        "0:0,0:0", NULL};
    rc = run_child("child_calls", twice, &err);
    CHECK(rc == 0 && count_of(err, "warning") == 1 && strstr(err, "tsl_group_create"), "%s", err);
    free(err);
}

void test_config_env(void)
{
    char path[] = "/tmp/tessel-dropin-confXXXXXX";
    int fd = mkstemp(path);
    const char *text = "# sgemm stays on the CPU\nsgemm route cpu\nsgemm route elsewhere\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write");
    close(fd);
    const char *const env[] = {"TESSEL_BLAS_ROUTE",
                               "device",
                               "TESSEL_BLAS_VERBOSE",
                               "1",
                               "TESSEL_BLAS_CONFIG",
                               path,
                               NULL};
    char *err;
    int rc = run_child("child_calls", env, &err);
    char where[128];
    snprintf(where, sizeof where, "%s:3:", path);
    CHECK(rc == 0 && count_of(err, "warning") == 1 && count_of(err, where) == 1, "%s", err);
    const char *s = strstr(err, "tessel-blas: sgemm ");
    unsigned long long c0 = 0, c1 = 9;
    CHECK(s && sscanf(s, "tessel-blas: sgemm %llu %*f %llu", &c0, &c1) == 2 && c0 == 3 && c1 == 0,
          "the rule kept sgemm on the CPU:\n%s", err);
    free(err);
    unlink(path);
}

void test_auto_pocl(void)
{
    const char *dir = getenv("TESSEL_CACHE_DIR");
    CHECK(dir != NULL, "the test sets TESSEL_CACHE_DIR");
    if (!dir) return;
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    /* 100,000 small calls: no device opened, and the route costs next to nothing */
    tsl__blas_call small = {&st, TSL__BLAS_L3, 'd', 2.0 * 32 * 32 * 32, 8.0 * 4 * 32 * 32, 0};
    double t0 = tsl__blas_now();
    int none = 1;
    for (int i = 0; i < 100000; i++)
        none &= tsl__blas_device_begin(&small) == NULL;
    double per = (tsl__blas_now() - t0) / 100000;
    printf("auto's decision on a 32^3 dgemm: %.1f ns\n", per * 1e9);
    CHECK(none && tsl__blas_devices_known() == 0, "small calls open no device");
    CHECK(per < 2e-6, "%.0f ns a call", per * 1e9);
    /* the same small dgemm, 20,000 times: the CPU BLAS alone, then as the drop-in calls it */
    typedef void (*dgemm_fn)(const char *, const char *, const int *, const int *, const int *,
                             const double *, const double *, const int *, const double *,
                             const int *, const double *, double *, const int *, size_t, size_t);
    dgemm_fn f = (dgemm_fn)tsl__blas_cpu_sym("dgemm_");
    CHECK(f != NULL, "the CPU BLAS has dgemm_");
    if (f) {
        static double a[32 * 32], b[32 * 32], c[32 * 32];
        for (int i = 0; i < 32 * 32; i++)
            a[i] = urand(), b[i] = urand(), c[i] = urand();
        int n = 32;
        double one = 1, beta = 0.5, ratio[101], total[2] = {0, 0};
        /* 101 rounds of 200 calls each way, the median of the rounds' ratios: this machine is
         * shared, and a burst of another process's work must not decide the test. */
        for (int round = 0; round < 101; round++) {
            double t[2];
            for (int side = 0; side < 2; side++) {
                t[side] = tsl__blas_now();
                for (int i = 0; i < 200; i++) {
                    tsl_context *ctx = side ? tsl__blas_device_begin(&small) : NULL;
                    double t1 = side ? tsl__blas_clock() : 0;
                    if (!ctx) f("N", "N", &n, &n, &n, &one, a, &n, b, &n, &beta, c, &n, 1, 1);
                    if (side) tsl__blas_cpu_done(&small, t1);
                }
                t[side] = tsl__blas_now() - t[side];
                total[side] += t[side];
            }
            ratio[round] = t[1] / t[0];
        }
        for (int i = 1; i < 101; i++)
            for (int j = i; j > 0 && ratio[j - 1] > ratio[j]; j--) {
                double x = ratio[j];
                ratio[j] = ratio[j - 1];
                ratio[j - 1] = x;
            }
        printf("20,200 dgemm 32^3: CPU BLAS alone %.3f s, routed %.3f s; median ratio %.3f\n",
               total[0], total[1], ratio[50]);
        CHECK(ratio[50] < 1.2, "routing costs %.3fx", ratio[50]);
    }
    /* a large one opens the device, sees a CPU device and keeps to the CPU BLAS */
    int r = checked_sgemm(&st, 200, 200, 200);
    CHECK(r == 0 && tsl__blas_devices_known() == 1, "large call on the CPU: %d", r);
    tsl__blas_slot *s = tsl__blas_slot_at(0);
    CHECK(s && s->is_cpu && s->calib == 0, "a CPU device, not calibrated");
    tsl_device_info info;
    char key[1024], path[1200];
    if (s) {
        info = s->info;
        tsl__blas_calib_key(&info, key, sizeof key);
        CHECK(tsl__blas_calib_path(key, path, sizeof path) == 0 && access(path, F_OK) != 0,
              "no calibration file %s", path);
    }
}

/* ---- the hint ------------------------------------------------------------------------------- */

/* child_calls's three 150^3 sgemm in auto, with the report: 1 when the device was opened, 0 when
 * the report says the hint kept them on the CPU, -1 otherwise. */
static int hint_child(const char *extra_name, const char *extra_value, const char *device)
{
    const char *const env[] = {"TESSEL_BLAS_VERBOSE", "1", extra_name, extra_value, NULL};
    char *err;
    int rc = run_child("child_calls", env, &err);
    char want[256];
    snprintf(want, sizeof want,
             "device not opened: the calibration of %s (cached) keeps these calls on the CPU",
             device);
    const char *s = strstr(err, "tessel-blas: sgemm ");
    unsigned long long c0 = 0, c1 = 9;
    int on_cpu =
        s && sscanf(s, "tessel-blas: sgemm %llu %*f %llu", &c0, &c1) == 2 && c0 == 3 && c1 == 0;
    int opened = strstr(err, "; device 0 \"") != NULL;
    int result = rc != 0 || !on_cpu             ? -1
                 : opened && !strstr(err, want) ? 1
                 : !opened && strstr(err, want) ? 0
                                                : -1;
    if (result < 0)
        printf("child (%s=%s) exit %d:\n%s", extra_name ? extra_name : "-",
               extra_value ? extra_value : "-", rc, err);
    free(err);
    return result;
}

void test_hint(void)
{
    const char *dir = getenv("TESSEL_CACHE_DIR");
    CHECK(dir != NULL, "the test sets TESSEL_CACHE_DIR");
    if (!dir) return;
    /* the key: the spec the drop-in would open, without opening it */
    char key[1024], path[1200];
    unsetenv("TESSEL_BLAS_DEVICES");
    setenv("TESSEL_DEVICE", "pocl-x", 1);
    tsl__blas_hint_key(key, sizeof key);
    CHECK(strncmp(key, "spec=pocl-x;", 12) == 0, "TESSEL_DEVICE: %s", key);
    setenv("TESSEL_BLAS_DEVICES", "0:0", 1);
    tsl__blas_hint_key(key, sizeof key);
    CHECK(strncmp(key, "spec=0:0;", 9) == 0, "TESSEL_BLAS_DEVICES first: %s", key);
    unsetenv("TESSEL_BLAS_DEVICES");
    unsetenv("TESSEL_DEVICE");
    tsl__blas_hint_key(key, sizeof key);
    CHECK(strncmp(key, "spec=;", 6) == 0 && strstr(key, tsl__blas_cpu_path()) &&
              strstr(key, "cpu_threads="),
          "the default device: %s", key);
    char want_path[1100];
    snprintf(want_path, sizeof want_path, "%s/blas-hint-", dir);
    CHECK(tsl__blas_hint_path(key, path, sizeof path) == 0 &&
              strncmp(path, want_path, strlen(want_path)) == 0,
          "path %s", path);

    /* two hints for a 150^3 sgemm: a fast CPU keeps it, a slow one sends it to the device */
    tsl__blas_rates keep = gpu_like(), send = gpu_like();
    keep.cpu_gemm_rate[0] = keep.cpu_gemm_rate[1] = 1e15, keep.cpu_bw = 1e13;
    send.cpu_gemm_rate[0] = send.cpu_gemm_rate[1] = 1e6, send.cpu_bw = 1e6;
    double f = 2.0 * 150 * 150 * 150, b = 4.0 * 4 * 150 * 150;
    CHECK(tsl__blas_cost_choose(&keep, 1, TSL__BLAS_L3, 's', f, b) == 0 &&
              tsl__blas_cost_choose(&send, 1, TSL__BLAS_L3, 's', f, b) == 1,
          "the two hints' decisions");

    /* round trip, and files that do not check out */
    tsl__blas_hint h;
    unlink(path);
    CHECK(tsl__blas_hint_read(path, key, &h) != 0, "no hint yet");
    CHECK(tsl__blas_hint_save("Fake GPU", 2, &send) == 0, "save");
    CHECK(tsl__blas_hint_read(path, key, &h) == 0 && strcmp(h.name, "Fake GPU") == 0 &&
              h.ndev == 2 && fabs(h.rates.cpu_bw / send.cpu_bw - 1) < 1e-8 &&
              fabs(h.rates.gemm_rate[1][1] / send.gemm_rate[1][1] - 1) < 1e-8,
          "read back");
    CHECK(tsl__blas_hint_read(path, "spec=other", &h) != 0, "another key is not ours");
    CHECK(truncate(path, 80) == 0 && tsl__blas_hint_read(path, key, &h) != 0, "truncated");
    CHECK(tsl__blas_calib_write(path, key, &keep) == 0 && tsl__blas_hint_read(path, key, &h) != 0,
          "a calibration file is no hint");
    tsl__blas_hint bad = {"Fake GPU", 99, keep};
    CHECK(tsl__blas_hint_write(path, key, &bad) == 0 && tsl__blas_hint_read(path, key, &h) != 0,
          "a device count out of range");

    /* what a process does with them (child_calls: auto, three 150^3 sgemm) */
    CHECK(tsl__blas_hint_save("Fake GPU A", 1, &keep) == 0, "save");
    CHECK(hint_child(NULL, NULL, "Fake GPU A") == 0, "a hint for the CPU opens nothing");
    CHECK(hint_child("TESSEL_BLAS_RECALIBRATE", "1", "Fake GPU A") == 1,
          "TESSEL_BLAS_RECALIBRATE=1 ignores it");
    CHECK(hint_child("TESSEL_BLAS_DEVICES", "0:0", "Fake GPU A") == 1, "another spec's hint");
    CHECK(truncate(path, 120) == 0 && hint_child(NULL, NULL, "Fake GPU A") == 1,
          "a corrupt hint is ignored");
    CHECK(tsl__blas_hint_save("Fake GPU B", 1, &send) == 0, "save");
    CHECK(hint_child(NULL, NULL, "Fake GPU B") == 1, "a hint for the device opens it");
    unlink(path);
    CHECK(hint_child(NULL, NULL, "Fake GPU B") == 1, "no hint: opened as before");

    /* in this process: the entry points themselves, a split hint for the group's */
    CHECK(tsl__blas_hint_save("Fake GPU C", 4, &keep) == 0, "save");
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    tsl__blas_call call = {&st, TSL__BLAS_L3, 's', f, b, 0};
    CHECK(tsl__blas_group_begin(&call) == NULL && tsl__blas_device_begin(&call) == NULL &&
              !tsl__blas_devices_opened() && tsl__blas_hint_kept(),
          "kept on the CPU, nothing opened");
    char text[2048];
    tsl__blas_describe(text, sizeof text);
    CHECK(strstr(text, "device not opened: the calibration of Fake GPU C (cached)"), "%s", text);
    unlink(path);
}

