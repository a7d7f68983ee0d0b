/* cusolver_time.c: the peer of lapack_time.c: cuSOLVER's cusolverDnDgetrf / Dpotrf (lower) /
 * Dgeqrf on a device-resident column-major matrix at the sizes on the command line, double
 * precision, the same matrices (uniform in [-0.5, 0.5), n on potrf's diagonal), copied to the
 * device before every call, one untimed call and three timed ones (host clock around the call and
 * a cudaDeviceSynchronize), the fastest kept. The same CSV lines as lapack_time.c. Built by
 * bench/scripts/lapack.sh where CUDA is:
 *   gcc -O2 -I$CUDA/include cusolver_time.c -L$CUDA/lib64 -lcusolver -lcudart */
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    cusolverDnHandle_t h;
    if (argc < 2 || cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "usage: cusolver_time N... (needs a CUDA device)\n");
        return 2;
    }
    static const char *names[3] = {"dgetrf", "dpotrf", "dgeqrf"};
    for (int a = 1; a < argc; a++) {
        int n = atoi(argv[a]);
        size_t bytes = (size_t)n * n * sizeof(double);
        double *ha = malloc(bytes), *da, *tau;
        int *dip, *dinfo, info = 0;
        if (!ha || cudaMalloc((void **)&da, bytes) || cudaMalloc((void **)&dip, n * sizeof(int)) ||
            cudaMalloc((void **)&dinfo, sizeof(int)) || cudaMalloc((void **)&tau, n * sizeof(double)))
            return 1;
        for (int kind = 0; kind < 3; kind++) {
            srand(3);
            for (size_t i = 0; i < (size_t)n * n; i++) {
                ha[i] = rand() / (double)RAND_MAX - 0.5;
                if (kind == 1 && i % ((size_t)n + 1) == 0) ha[i] += n;
            }
            int lw = 0;
            if (kind == 0) cusolverDnDgetrf_bufferSize(h, n, n, da, n, &lw);
            if (kind == 1) cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, da, n, &lw);
            if (kind == 2) cusolverDnDgeqrf_bufferSize(h, n, n, da, n, &lw);
            double *work, best = 1e30;
            if (cudaMalloc((void **)&work, (size_t)lw * sizeof(double))) return 1;
            for (int r = 0; r < 4; r++) {
                cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
                cudaDeviceSynchronize();
                double t0 = now();
                if (kind == 0) cusolverDnDgetrf(h, n, n, da, n, work, dip, dinfo);
                if (kind == 1) cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, da, n, work, lw, dinfo);
                if (kind == 2) cusolverDnDgeqrf(h, n, n, da, n, tau, work, lw, dinfo);
                cudaDeviceSynchronize();
                double dt = now() - t0;
                if (r && dt < best) best = dt;
            }
            cudaMemcpy(&info, dinfo, sizeof info, cudaMemcpyDeviceToHost);
            double fl = (kind == 0 ? 2.0 / 3 : kind == 1 ? 1.0 / 3 : 4.0 / 3) * n * (double)n * n;
            printf("cusolver,default,%s,%d,%.2f,%.2f,%d\n", names[kind], n, best * 1e3,
                   fl / best / 1e12, info);
            fflush(stdout);
            cudaFree(work);
        }
        free(ha), cudaFree(da), cudaFree(dip), cudaFree(dinfo), cudaFree(tau);
    }
    cusolverDnDestroy(h);
    return 0;
}
