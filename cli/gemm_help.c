/* gemm_help.c: the text of `tessel gemm --help` (cli/cmd_gemm.c parses and runs the command):
 * what a row measures, the precisions, math modes and complex forms, the options, the peers, the
 * exit codes and examples. */
#include <stdio.h>

#include "args.h"
#include "gemm_cli.h"
#include "measure.h"
#include "output.h"
#include "peers.h"

void cli_gemm_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel gemm [options]\n\n"
           "Runs C = alpha op(A) op(B) + beta C (CBLAS semantics) on one OpenCL device for each\n"
           "size and variant, on random data, and prints one row per variant and size: median\n"
           "kernel time over --repeat runs (profiling events, after --warmup runs), GFLOP/s =\n"
           "2mnk / time, kernel build time, and with --verify the relative error\n"
           "||C - C_ref|| / ||C_ref|| against OpenBLAS in double precision (pass below 1e-5\n"
           "single / 1e-12 double, times max(1, sqrt(k/64)); half: 2^-11 plus the single\n"
           "bound, since C is rounded to half; bfloat16: 2^-8 plus it). Peers run on the same\n"
           "data and appear as rows named after them.\n\n"
           "--precision half: the matrices are IEEE binary16 in memory (random data rounded to\n"
           "half) and the arithmetic is float (tsl_hgemm); bfloat16 alike (tsl_bgemm). The\n"
           "ladder variants and auto have 16-bit storage, tiled2d only in its tensor-core\n"
           "configurations (tiled2d, or tiled2d:...,MMA=4; a configuration without MMA=4 is a\n"
           "skipped row under --variant all). Of the peers only cublas has it (cublasGemmEx,\n"
           "FP32 accumulation, C in the storage type); the others are skipped rows. Not with\n"
           "--devices or --distributed.\n\n"
           "--math tf32|3xtf32 (single precision): TF32 rounds A and B to 10 mantissa bits and\n"
           "sums their products in FP32 (cuBLAS's TF32 mode; --verify's reference uses the\n"
           "rounded inputs); 3xtf32 sums three TF32 products per element for FP32's accuracy.\n"
           "Both run on tiled2d's TF32 tensor-core configurations (auto, tiled2d, or\n"
           "tiled2d:...,MMA=5; other variants are skipped rows), on NVIDIA's tensor cores or an\n"
           "emulation of them elsewhere. The precision column says tf32 or 3xtf32. With tf32\n"
           "the cublas peer runs cuBLAS's TF32 mode (verified like tessel's rows) and the other\n"
           "peers are skipped; with 3xtf32 every peer runs plain FP32.\n\n"
           "--precision complex|doublecomplex: interleaved complex matrices (tsl_cgemm,\n"
           "tsl_zgemm; --transa/--transb c for the conjugate transpose, --alpha-im and\n"
           "--beta-im for complex scalars); GFLOP/s counts 8mnk; --verify's bound is the real\n"
           "one for an inner dimension of 2k. Peers clblast and openblas run their complex GEMMs,\n"
           "cublas cublasCgemm/Zgemm (cublasGemmEx in TF32 math). --form 3m runs the 3M form\n"
           "(three real GEMMs: 3mnk multiply-adds, GFLOP/s still counts 8mnk; the imaginary\n"
           "part's error grows with |Ar + Ai| |Br + Bi|) and cublas's 3M (cublas[CZ]gemm3m).\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, "gemm");
    printf("Peers:\n");
    for (size_t i = 0; i < tsl_peer_count(); ++i)
        printf("  %-10s  %s\n", tsl_peer_at(i)->name, tsl_peer_at(i)->what);
    printf("\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "to a file (written whole, then renamed into place) or to stdout with '-' (then no\n"
           "table, and every message goes to stderr). status is ok, verify_failed, skipped or\n"
           "error; empty fields do not apply. A variant the device cannot run, or a peer that is\n"
           "not available, is a skipped row with the reason on stderr.\n\n"
           "Exit codes: 0 success, 1 a --verify check failed (all rows are still printed),\n"
           "2 usage error (unknown option, bad number, unknown variant or peer, matrix larger\n"
           "than the device's largest buffer), 3 runtime error (no matching device, no double\n"
           "precision on the device, a variant named without half storage for --precision\n"
           "half, build failure, out of memory).\n\n"
           "Examples:\n"
           "  tessel gemm --variant all --size 512 --verify --peers clblast,openblas\n"
           "  tessel gemm -m 4096 -n 128 -k 4096 --precision double --device 0:0\n"
           "  tessel gemm --precision half --variant all --size 512 --verify\n"
           "  tessel gemm --precision bfloat16 --variant tiled2d --size 4096 --verify\n"
           "  tessel gemm --math 3xtf32 --size 4096 --verify --peers cublas\n"
           "  tessel gemm --precision doublecomplex --transa c --size 512 --verify --peers openblas\n"
           "  tessel gemm --sizes 256,512,1024 --variant tiled_16x16 --csv - > gemm.csv\n"
           "  tessel gemm --devices all:gpu --size 16384 --verify      (several devices)\n"
           "  mpirun -np 4 tessel gemm --distributed --size 16384       (MPI ranks)\n",
           cli_csv_header);
}
