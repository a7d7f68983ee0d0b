/* test_dist.c: the MPI layer's results reach the caller only when every rank has succeeded
 * (src/multi/dist.c, docs/multi-device.md). Run under mpirun by tests/dist.sh, one process per
 * rank on PoCL CPU devices; `test_dist gemm|poisson [VARIANT]` makes one distributed call with
 * weights 1,1 on random data, C = 0.5 C + A B (m 67, n 29, k 41) or 13 Jacobi sweeps on a 37 x 37
 * grid (with the Poisson variant VARIANT on every rank when given: strips of 17 and 18 rows, so
 * the halo exchange overlaps the sweeps unless TESSEL_POISSON_OVERLAP=0).
 *
 * Without a fault, rank 0 checks the result against the single device's, bit for bit (the ranks
 * run the single device's kernels on their rows), prints "ok" and every rank exits 0. With
 * TESSEL_FAULT_RANK set (the test hook), the call fails; rank 0 checks that C or u is exactly as
 * it was before the call (and the error names the failing rank), prints "untouched" or
 * "WRITTEN", and stops the job with tsl_dist_abort: exit code 3 if untouched, 1 if not. The
 * failing rank, when it is not rank 0, reports to rank 0 and never returns from the call. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi/dist.h"
#include "ref/ref.h"
#include "tessel.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (strcmp(argv[1], "gemm") != 0 && strcmp(argv[1], "poisson") != 0)) {
        fprintf(stderr, "usage: mpirun -np 2 test_dist gemm|poisson [VARIANT]\n");
        return 2;
    }
    int gemm = strcmp(argv[1], "gemm") == 0;
    char err[2048] = "";
    tsl_dist *d = NULL;
    if (tsl_dist_create(NULL, 10, &d, err, sizeof err) != TSL_OK) {
        fprintf(stderr, "test_dist: tsl_dist_create: %s\n", err);
        return 1;
    }
    int root = tsl_dist_rank(d) == 0;
    if (argc == 3 && tsl_context_set_variant(tsl_dist_context(d), "poisson", argv[2]) != TSL_OK) {
        fprintf(stderr, "test_dist: variant %s: %s\n", argv[2],
                tsl_context_error(tsl_dist_context(d)));
        tsl_dist_abort(d, 2);
    }
    double w[2] = {1, 1};
    if (tsl_dist_size(d) != 2 || tsl_dist_set_weights(d, TSL_WEIGHTS_GIVEN, w, 2) != TSL_OK) {
        if (root) fprintf(stderr, "test_dist: run it with mpirun -np 2\n");
        tsl_dist_abort(d, 2);
    }
    const size_t m = 67, n = 29, k = 41, gn = 37;
    size_t out_count = gemm ? m * n : gn * gn;
    float *a = NULL, *b = NULL, *out = NULL, *before = NULL, *single = NULL;
    if (root) {
        unsigned long long state = 20261201ull;
        a = malloc((gemm ? m * k : gn * gn) * sizeof *a); /* A, or f */
        b = malloc(k * n * sizeof *b);
        out = malloc(out_count * sizeof *out); /* C, or u */
        before = malloc(out_count * sizeof *before);
        single = malloc(out_count * sizeof *single);
        if (!a || !b || !out || !before || !single) {
            fprintf(stderr, "test_dist: out of host memory\n");
            tsl_dist_abort(d, 1);
        }
        tsl_ref_fill_f(a, gemm ? m * k : gn * gn, &state);
        tsl_ref_fill_f(b, k * n, &state);
        tsl_ref_fill_f(out, out_count, &state);
        memcpy(before, out, out_count * sizeof *out);
        memcpy(single, out, out_count * sizeof *out);
    }
    tsl_poisson_info info;
    tsl_status st = gemm ? tsl_dist_gemm(d, 0, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k,
                                         1.0, a, k, b, n, 0.5, out, n)
                         : tsl_dist_poisson(d, 0, gn, a, out, 13, 0.0, &info);
    int rc = 0;
    if (root && st != TSL_OK) {
        int untouched = memcmp(out, before, out_count * sizeof *out) == 0;
        const char *fault = getenv("TESSEL_FAULT_RANK");
        char rank_name[32];
        snprintf(rank_name, sizeof rank_name, "rank %c (", fault ? fault[0] : '?');
        int named = strstr(tsl_dist_error(d), rank_name) != NULL;
        printf("%s failed (%s): %s; %s is %s\n", argv[1], tsl_status_name(st), tsl_dist_error(d),
               gemm ? "C" : "u", untouched ? "untouched" : "WRITTEN");
        if (!named) printf("the error does not name %s...)\n", rank_name);
        fflush(stdout);
        tsl_dist_abort(d, untouched && named ? 3 : 1);
    }
    if (root) { /* no fault: the single device's result, bit for bit */
        tsl_context *ctx = tsl_dist_context(d);
        tsl_status ss = gemm ? tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k,
                                         1.0f, a, k, b, n, 0.5f, single, n)
                             : tsl_spoisson(ctx, gn, a, single, 13, 0.0, &info);
        int same = ss == TSL_OK && memcmp(out, single, out_count * sizeof *out) == 0;
        printf("%s: %s\n", argv[1],
               same ? "ok, the single device's result bit for bit"
                    : "FAILED: differs from the single device's result");
        rc = same ? 0 : 1;
    }
    free(a), free(b), free(out), free(before), free(single);
    tsl_dist_finish(d);
    return rc;
}
