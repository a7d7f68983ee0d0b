/* gemm_internal.h: what the files of the single-device GEMM share: gemm_api.c and gemm_buf.c (the
 * public entry points and their argument checks), gemm.c (the variant table, the choice of a
 * variant and its tiled2d configuration, the ladder kernels), gemm_kernel.c (building a kernel and
 * the sizes of a launch), gemm_tiled2d_config.c (tiled2d's parameters, built-in configurations and
 * the rules of what runs), gemm_tiled2d_space.c (the tuner's search space over them) and
 * gemm_tiled2d.c (tiled2d's run: the pack pre-pass, split k and peeled edges). The types below are
 * the variant's row, the tiled2d configuration, the resolved choice and the row-major problem the
 * kernels see. */
#ifndef TSL_OPS_GEMM_INTERNAL_H
#define TSL_OPS_GEMM_INTERNAL_H

#include "ops/ops.h"

typedef enum { KIND_NAIVE, KIND_TILED, KIND_REGBLOCK, KIND_TILED2D } gemm_kind;

typedef struct {
    const char *name;
    gemm_kind kind;
    const char *kernel;
    int param; /* tile width for tiled, rows per work-item for regblock */
} gemm_variant;

/* What a GEMM computes with: the precision of its matrices (tsl_precision's values: single,
 * double, half and bfloat16 storage) and, for single precision, the context's math mode (option
 * "math" of "gemm", tsl_math). Every choice of a variant and every tiled2d check takes one; the
 * tuning database keys its entries by the same codes (src/tune/tune.h). */
enum {
    GK_SINGLE = TSL_SINGLE,
    GK_DOUBLE = TSL_DOUBLE,
    GK_HALF = TSL_HALF,
    GK_BF16 = TSL_BFLOAT16,
    GK_TF32,  /* single, TSL_MATH_TF32 */
    GK_3XTF32 /* single, TSL_MATH_3XTF32 */
};
#define GK_16BIT(kind) ((kind) == GK_HALF || (kind) == GK_BF16)
#define GK_TF32ISH(kind) ((kind) == GK_TF32 || (kind) == GK_3XTF32)

/* tiled2d's compile-time parameters: one value per axis of its search space (the kernel's
 * tunables, src/kernels/gemm.cl). ALIAS, KSPLIT and PEEL are the host's. ALIAS: pad leading dimensions
 * so a row is never a multiple of 1 KiB (on CPUs rows of A and B 4 KiB apart share L1 sets;
 * measured 1.3x at n = 1024 on PoCL/AVX-512). KSPLIT: split k into that many slices summed by a
 * second pass, for problems whose C has too few tiles to fill the device (8192 x 128 x 8192);
 * 0 = the host decides from the tile count and the compute units (splitk_slices), 1 = never.
 * PEEL: a remainder of a few rows or columns past the last whole tile is computed as thin strips
 * (gemm_edge) instead of padded to a whole tile; 0 = on GPUs, 1 = never, 2 = always
 * (tsl__gemm_run_tiled2d).
 * MMA: the kernel's inner product by a matrix instruction (NVIDIA's tensor cores: has_mma; an
 * OpenCL C emulation of the same data path elsewhere): for double 1 = m8n8k4, 2 = m16n8k8, 3 =
 * m16n8k16 (FP64); 4 = m16n8k16 on 16-bit inputs with FP32 accumulation (f16 for half storage,
 * bf16 for bfloat16: the only tiled2d configurations with 16-bit storage); 5 = m16n8k8 TF32 with
 * FP32 accumulation (single precision in the TF32 and 3xTF32 math modes, which need it). The
 * value mixes two things, which the host reads apart (tiled2d_mma below).
 * WG: 1 = the ring's products by Hopper's warpgroup instruction (wgmma, sm_90a: the program's PTX
 * patched, src/runtime/ptx.c) on MMA=4's 16-bit or MMA=5's TF32 data, from operands in local
 * memory, in one array that may pass OpenCL's 48 KiB (src/kernels/gemm_wgmma.cl); emulated
 * where the device has no tensor cores (PoCL), and not run on other devices. */
enum {
    P_MWG, P_NWG, P_KWG, P_MDIMC, P_NDIMC, P_VW, P_SA, P_SB, P_PF, P_STRIDED, P_VWA, P_ALIAS,
    P_DBUF, P_APAD, P_WN, P_MMA, P_KSPLIT, P_DIRECT, P_PEEL, P_ASYNC, P_FPIPE, P_BT, P_WG, NP
};
_Static_assert(NP <= TSL__MAX_AXES, "tiled2d has more axes than the tuner holds");
typedef struct {
    int v[NP];
} tiled2d_params;

/* An MMA value apart: the matrix instruction's shape (m x n x k, n always 8) and the data it
 * multiplies. The configuration strings, the tuning database and the kernel's -DMMA keep the one
 * value (MMA=3 is m16n8k16 on FP64); the host asks tsl__tiled2d_mma what a value means. */
typedef enum { MMA_NO_SHAPE, MMA_M8N8K4, MMA_M16N8K8, MMA_M16N8K16 } tiled2d_mma_shape;
typedef enum {
    MMA_NO_DATA,
    MMA_FP64,  /* double */
    MMA_16BIT, /* f16 or bf16 (by the storage), FP32 accumulation */
    MMA_TF32   /* TF32, FP32 accumulation */
} tiled2d_mma_data;
typedef struct {
    tiled2d_mma_shape shape;
    tiled2d_mma_data data;
} tiled2d_mma;
/* The values of MMA, by what they name. */
enum {
    MMA_NONE = 0,
    MMA_FP64_M8N8K4 = 1,
    MMA_FP64_M16N8K8 = 2,
    MMA_FP64_M16N8K16 = 3,
    MMA_16BIT_M16N8K16 = 4,
    MMA_TF32_M16N8K8 = 5
};
/* Whether the device runs WG=1 (wgmma) natively: sm_90, through the sm_90a patch. */
int tsl__tiled2d_wg_native(const tsl_context *ctx);
/* Whether configuration v's kernel is built through the sm_90a patch on ctx's device: wgmma (WG),
 * or a ring (ASYNC) past the device's local memory, on sm_90 with the tensor-core instruction. */
int tsl__tiled2d_sm90a(const tsl_context *ctx, int kind, const int *v);
/* The instruction of an MMA value (a value outside 0..5: none). */
tiled2d_mma tsl__tiled2d_mma(int value);

/* A variant as the caller or the database names it, resolved: the row, and for tiled2d its
 * parameters. "auto" is the database's configuration for the kind and the problem's shape
 * (its size class; else auto_table); a bare "tiled2d" is tiled2d with the database's parameters
 * (else the kind's built-in configuration: tsl__tiled2d_base); "tiled2d:NAME=V,..." sets the named parameters
 * over the kind's first built-in configuration (tsl__tiled2d_overlay_base), so an explicit
 * configuration means the same on every device and size (for a kind: "tiled2d:KWG=32" in half
 * precision is a tensor-core one); a bare "tiled2d" is the fastest built-in that fits the device. A database
 * entry that cannot run here is skipped with a warning (tsl_context_warning), never an error. */
typedef struct {
    const gemm_variant *v;
    tiled2d_params tp;
} gemm_choice;

/* The row-major problem the kernels see. */
typedef struct {
    int dbl;
    size_t elem;
    tsl_trans ta, tb;
    size_t m, n, k;
    double alpha, beta;
    cl_mem a, b, c;
    size_t lda, ldb, ldc;
    int kind; /* GK_*: the storage (16-bit ones: float arithmetic, dbl 0) and the math mode */
    /* element offsets of A, B and C in their buffers (0 but for tsl__gemm_mem: sub-blocks) */
    size_t a_off, b_off, c_off;
    /* the Level-3 modes (tsl__gemm_mem_ext, tiled2d only): tri (TSL__TRI_*), unit, and a strided
     * batch of `batch` problems (0: none) */
    int tri, unit;
    int tri_cs; /* TRI_C_*: C's columns per row of the triangle (0 or 1: 1; 2: a complex C) */
    size_t batch, a_stride, b_stride, c_stride;
    int stair; /* with batch: TSL__STAIR_* (ops.h), tiles wholly outside problem z's part skipped */
    size_t stair_step;
    cl_mem cin; /* beta times cin's elements (from cin_off, rows ldcin apart), not C's (NULL: C's) */
    size_t cin_off, ldcin;
} gemm_problem;

/* What tiled2d does with a problem's operands: whether the kernel reads them in place (DIRECT)
 * and which ones the pack pre-pass copies first. A triangular operand of the TRI modes is packed
 * (its other triangle becomes zeros) unless it holds those zeros already (TSL__TRI_IN_PLACE). */
typedef struct {
    int direct, pack_a, pack_b;
} tiles_plan;

/* ---- gemm_tiled2d_config.c ---------------------------------------------------------------- */
/* tiled2d's axes (P_*: each parameter's name and values), the tuner's and the -D options'. */
extern const tsl__axis tsl__tiled2d_axes[NP];
/* The last-resort configuration. */
extern const tiled2d_params tsl__tiled2d_fallback;
/* The built-in pair of a kind only the tensor cores compute (the first that runs on the device is
 * its base; the second runs everywhere); NULL for single and double. */
const tiled2d_params *tsl__tiled2d_builtin_pair(int kind);
/* A kind's built-in configuration on the device, where the database has no entry: the fallback,
 * or for the kinds only the tensor cores run (16-bit storage: MMA=4; TF32 and 3xTF32: MMA=5) the
 * fastest measured tensor-core tiles that fit the device. */
tiled2d_params tsl__tiled2d_base(const tsl_context *ctx, int kind);
/* The base an explicit "tiled2d:NAME=V,..." overlays (overlay = 1: for the tensor kinds the
 * first, device-independent tiles, without ASYNC; 0: tsl__tiled2d_base). */
tiled2d_params tsl__tiled2d_overlay_base(const tsl_context *ctx, int kind, int overlay);
/* Whether the device runs a matrix instruction (MMA value) natively, not emulated. */
int tsl__tiled2d_native_mma(const tsl_context *ctx, int mma);
/* Whether a configuration runs correctly on the device for a GEMM of this kind (GK_*: the
 * kernel's rules and the hard limits). */
int tsl__tiled2d_runs(const tsl_context *ctx, int kind, const int *v);
/* Its rules that axis a decides, given the axes before it (the tuner's prefix pruning). */
int tsl__tiled2d_runs_at(const tsl_context *ctx, int kind, const int *v, int a);
/* Why not (for the message of an explicit configuration that does not run): "" when it runs. */
const char *tsl__tiled2d_kind_rule(int kind, const int *v);
/* The kernel's -D options of a configuration for a GEMM of this kind. */
void tsl__tiled2d_options(const tsl_context *ctx, int kind, const tiled2d_params *tp, char *out,
                          size_t cap);
/* Bytes of local memory a configuration's staged tiles take (exact: the kernel's Als and Bls). */
size_t tsl__tiled2d_local_bytes(int kind, const int *v);
/* Whether the pack rounds both operands to TF32 and the kernel multiplies them as they are (TF32
 * math with B packed transposed: the kernel's PRE_TF32). */
int tsl__tiled2d_pre_tf32(int kind, const int *v);
/* How the pack prepares TF32 operands: 1 rounded (PRE_TF32), 2 split into big and small planes
 * (3xTF32 on wgmma), 0 as they are. */
int tsl__tiled2d_pack_tf32(int kind, const int *v);
/* Registers per work-item a configuration needs, as the tuner's pruning (and split k's model of
 * the groups a compute unit holds) estimates them. */
int tsl__tiled2d_registers(int dbl, const int *v);

/* ---- gemm_tiled2d_space.c ----------------------------------------------------------------- */
/* tiled2d's search space (the descriptor's, tsl__gemm_desc). */
extern const tsl__space tsl__tiled2d_space;

/* ---- gemm_tiled2d.c ----------------------------------------------------------------------- */
/* Which operands tiled2d reads in place and which the pack pre-pass copies. */
tiles_plan tsl__gemm_plan_tiles(const gemm_problem *p, const int *tp, size_t Mp, size_t Np,
                                size_t Kp);
/* A problem by tiled2d: whole tiles, and peeled edges where they pay. */
tsl_status tsl__gemm_run_tiled2d(tsl_context *ctx, const gemm_problem *p, const gemm_choice *c);

/* ---- gemm_buf.c ---------------------------------------------------------------------------- */
/* A GEMM call's arguments as the caller gave them. */
typedef struct {
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
} gemm_args;
/* CBLAS rules; messages speak of the caller's own arguments (fn: the public call's name). */
tsl_status tsl__gemm_check_args(tsl_context *ctx, const char *fn, const gemm_args *g);
/* Row-major view after the column-major swap: stored A is ar x ac, B is br x bc. */
typedef struct {
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    int swapped;
    size_t ar, ac, br, bc;
} gemm_view;
gemm_view tsl__gemm_normalize(const gemm_args *g);
/* The arguments a call computes with: a real call's TSL_CONJ_TRANS is TSL_TRANS (cplx 0). */
gemm_args tsl__gemm_real_args(const gemm_args *g, int cplx);
/* The complex problem of a row-major view (operands left for the caller to set). */
tsl__zgemm_call tsl__zgemm_of_view(int prec, const gemm_view *v, const double *alpha,
                                   const double *beta);

/* ---- gemm_complex.c ------------------------------------------------------------------------ */
/* alpha and beta of a complex call (prec TSL_SINGLE: two floats each, TSL_DOUBLE: two doubles) as
 * (real, imaginary) doubles; TSL_ERR_INVALID_ARG naming ctx, alpha or beta when NULL. */
tsl_status tsl__zgemm_scalars(tsl_context *ctx, const char *fn, int prec, const void *alpha,
                              const void *beta, double *al, double *be);

/* tsl__gemm_mem's GEMM in kind `kind` (GK_*: the complex GEMM's real product in the context's
 * math mode or in FP32). */
tsl_status tsl__gemm_mem_kind(tsl_context *ctx, const tsl__gemm_call *g, int kind);

/* ---- gemm_kernel.c ------------------------------------------------------------------------ */
size_t tsl__gemm_round_up(size_t x, size_t m);
/* Largest power-of-two square work-group edge (at most 16) the kernel allows. */
size_t tsl__gemm_square_edge(size_t max_wg);
/* The kernel `name` of gemm.cl for the problem's precision and storage, with extra -D options. */
tsl_status tsl__gemm_get_kernel(tsl_context *ctx, const gemm_problem *p, const char *name,
                                const char *extra, cl_kernel *k);
/* tiled2d's kernel for configuration tp, with extra -D options (tsl__tiled2d_options and the
 * modes); a wgmma configuration (WG) on sm_90 through the sm_90a patch: TSL_ERR_UNSUPPORTED, no
 * error set, where the device refuses it (the caller falls back to the mma.sync ring). */
tsl_status tsl__gemm_get_tiled2d(tsl_context *ctx, const gemm_problem *p, const int *tp,
                                 const char *extra, cl_kernel *k);
/* op(X)(i, l) = X[i rs + l cs] for an operand X of leading dimension ld, transposed or not. */
void tsl__gemm_op_strides(tsl_trans t, size_t ld, int *rs, int *cs);
/* Bytes of one element of a precision's matrices (tsl_precision). */
size_t tsl__gemm_elem_size(int prec);

/* ---- gemm.c ------------------------------------------------------------------------------- */
/* The kind (GK_*) of a call of precision prec: single precision in the context's math mode. */
int tsl__gemm_call_kind(const tsl_context *ctx, int prec);
/* Runs the row-major problem with the context's variant (m, n > 0): gemm_api.c's calls. */
tsl_status tsl__gemm_run(tsl_context *ctx, const gemm_problem *p);

#endif
