/* ops.h: what every operation gives the registry (ops/registry.c): its variant names and a check
 * of whether a variant runs on a context's device, and for a tunable op its size classes and
 * search space. The public variant and tuning functions of tessel.h dispatch through the table of
 * these descriptors (the tuning layer, src/tune, is handed what it needs from them and knows no
 * op); adding an op adds one row. */
#ifndef TSL_OPS_H
#define TSL_OPS_H

#include "runtime/runtime.h"
#include "tune/tune.h"

typedef struct {
    const char *op;                        /* "gemm" */
    const char *(*variant_name)(size_t i); /* NULL past the end; "auto" is not listed */
    /* TSL_OK / TSL_ERR_UNSUPPORTED (why, in ctx) / TSL_ERR_INVALID_ARG (no such variant). */
    tsl_status (*variant_check)(tsl_context *ctx, const char *variant, const char **resolved);
    /* NULL when the op's variants run alike in each precision it has and it has no half kernels;
     * else variant_check for a precision (tsl_precision: TSL_SINGLE, TSL_DOUBLE, TSL_HALF,
     * TSL_BFLOAT16). */
    tsl_status (*variant_check_prec)(tsl_context *ctx, const char *variant, int precision,
                                     const char **resolved);
    int single_only; /* the op's calls are single precision only (no d-prefixed twin) */
    /* NULL when the op has no options; else TSL_OK for a valid (name, value), or
     * TSL_ERR_INVALID_ARG with a message naming the valid names and range. */
    tsl_status (*option_check)(tsl_context *ctx, const char *name, long value);
    /* NULL when the op is not tunable; else the tuning database's size class of a problem
     * ("small", "skinny", "large") and the search space of `tessel tune` (src/tune/tune.h). */
    const char *(*size_class)(size_t m, size_t n, size_t k);
    const tsl__space *space;
    /* NULL: a precision is its own code in the tuning database (0 single, 1 double); else the
     * code (tune.h) of a call at that precision (tsl_precision) on ctx: gemm's single precision
     * in the context's math mode is tf32 or 3xtf32. */
    int (*tuning_kind)(const tsl_context *ctx, int precision);
} tsl__op_desc;

/* The descriptor of op, NULL when there is none (registry.c). */
const tsl__op_desc *tsl__find_op(const char *op);

/* Variant tables. Each op keeps its variants as an array of row structs whose first member is the
 * name (`const char *`), and what `auto` means as {device type, variant} rows ending with a
 * NULL-type default. These helpers (variant.c) read any such table, so no op repeats the
 * lookups. */
typedef struct {
    const char *type; /* "gpu", "cpu", ...; NULL: the default row, last */
    const char *variant;
} tsl__auto_row;
typedef struct {
    const void *rows;
    size_t count, stride;
} tsl__variant_table;
#define TSL__TABLE(arr)                                                                            \
    ((tsl__variant_table){(arr), sizeof(arr) / sizeof((arr)[0]), sizeof((arr)[0])})

/* The index-th row's name, NULL past the end. */
const char *tsl__table_name(tsl__variant_table t, size_t index);
/* The variant `auto` stands for on the context's device. */
const char *tsl__auto_pick(const tsl_context *ctx, const tsl__auto_row *autos);
/* The row of `variant` ("auto" resolved through autos), or NULL after recording
 * "unknown OP variant 'X' (variants: auto, ...)" as TSL_ERR_INVALID_ARG in ctx. */
const void *tsl__find_variant(tsl_context *ctx, const char *op, tsl__variant_table t,
                              const tsl__auto_row *autos, const char *variant);

/* The context's scratch buffers (tsl__workspace), by what they hold. A call's own buffers take the
 * first three. A GEMM's pre-passes (tiled2d's packs and split k) take theirs only while the GEMM
 * runs, so a routine that runs GEMMs holds what it keeps across them (W, its blocks) in slots
 * that no GEMM takes. An op that runs no GEMM uses the pre-passes' slots for its own scratch. */
enum {
    TSL__WS_A,       /* a call's first buffer: A staged from the host, x, a grid */
    TSL__WS_B,       /* its second: B, y, gemv's x, the next grid */
    TSL__WS_C,       /* its third: C, a result */
    TSL__WS_PACK_A,  /* tiled2d's packed A */
    TSL__WS_PACK_B,  /* tiled2d's packed B */
    TSL__WS_W,       /* Level 3's W and SYMM's expanded A, held across their GEMMs */
    TSL__WS_SPLIT_K, /* tiled2d's split-k slices */
    TSL__WS_BLOCKS,  /* Level 3's diagonal blocks and TRSM's inverses, held across their GEMMs */
    TSL__WS_ZPACK_A, /* complex GEMM's op(A) as a real matrix (tsl__zgemm_mem), across its GEMM */
    TSL__WS_ZPACK_B, /* complex GEMM's real expansion of alpha op(B), across its GEMM */
    TSL__WS_ZPROD,   /* the 3M form's three real products, across its GEMMs */
    TSL__WS_ZHELD,   /* a complex Level-3 routine's real form of an operand, across its GEMMs */
    TSL__WS_COUNT
};
/* An op that runs no GEMM: scratch beside its buffers (partial sums, state, a result). */
enum {
    TSL__WS_SCRATCH = TSL__WS_PACK_A,
    TSL__WS_SCRATCH2 = TSL__WS_PACK_B,
    TSL__WS_SCRATCH3 = TSL__WS_W
};
_Static_assert(TSL__WS_COUNT == TSL__WORKSPACES, "every workspace slot has a name");

/* A real-typed kernel argument: float or double by the program's PRECISION. tsl__scalar_arg stores
 * v in *s at that precision and returns the argument pointing at it (checks.c). */
typedef union {
    float f;
    double d;
} tsl__scalar;
tsl__arg tsl__scalar_arg(int dbl, tsl__scalar *s, double v);

/* Checks every op makes alike (checks.c). */
/* TSL_ERR_INVALID_ARG "FN: NAME V is none of TSL_NO_TRANS, TSL_TRANS, TSL_CONJ_TRANS" unless t
 * is one of them. */
tsl_status tsl__check_trans(tsl_context *ctx, const char *fn, const char *name, tsl_trans t);
/* A real routine's transpose: TSL_CONJ_TRANS is TSL_TRANS (CBLAS's real routines); any other
 * value stays, so a check after it still names a bad one. */
tsl_trans tsl__real_trans(tsl_trans t);
int tsl__mul_overflows(size_t a, size_t b); /* a * b does not fit size_t */
/* TSL_ERR_UNSUPPORTED "FN: device X has no double precision" when dbl and the device lacks fp64. */
tsl_status tsl__check_fp64(tsl_context *ctx, int dbl, const char *fn);
/* buf is a buffer of this context holding a rows x cols matrix whose rows are ld elements apart;
 * else TSL_ERR_INVALID_ARG naming `what`. An empty matrix needs nothing. */
tsl_status tsl__check_matrix_buffer(tsl_context *ctx, const char *fn, const char *what,
                                    const tsl_buffer *buf, size_t rows, size_t cols, size_t ld,
                                    size_t elem);

/* A matrix operand in device memory: its buffer, the element offset of its first element, and its
 * leading dimension (elements from one row to the next: the problems here are row-major). */
typedef struct {
    cl_mem buffer;
    size_t offset, ld;
} tsl__matrix;

/* C = alpha op(A) op(B) + beta C, row-major, on device memory (op(A) m x k, op(B) k x n, C m x n).
 * prec: TSL_SINGLE or TSL_DOUBLE. */
typedef struct {
    int prec;
    tsl_trans ta, tb;
    size_t m, n, k;
    double alpha, beta;
    tsl__matrix a, b, c;
} tsl__gemm_call;

/* Runs g with the context's gemm variant (auto: tiled2d as tuned, with its pack, split k and
 * peeled edges); beta == 0 does not read C, k == 0 or alpha == 0 reads neither A nor B, m or
 * n == 0 does nothing. No argument checks, no timing brackets: it is a step of a caller's own
 * call (the blocked Level-3 routines, src/level3/level3*.c). */
tsl_status tsl__gemm_mem(tsl_context *ctx, const tsl__gemm_call *g);

/* Complex C = alpha op(A) op(B) + beta C, row-major, on device memory, for `batch` problems
 * (X_z = X + z x_stride; batch 0 is one problem): prec TSL_SINGLE (complex float) or TSL_DOUBLE
 * (complex double); ta, tb TSL_NO_TRANS, TSL_TRANS or TSL_CONJ_TRANS; sizes, offsets, leading
 * dimensions and strides in complex elements; alpha, beta as (real, imaginary). It runs as one real
 * GEMM (a batched one for a batch) of m x 2n x 2k with the context's gemm variant and, for one
 * problem not marked fp32, its math mode (gemm_complex.c: the 4M form). beta == 0 does not read C, k == 0 or
 * alpha == 0 reads neither A nor B. It holds TSL__WS_ZPACK_A and _B across that GEMM. No argument
 * checks, no timing brackets: the entry of tsl_cgemm, tsl_zgemm and the complex Level-3
 * routines. */
typedef struct {
    int prec;
    tsl_trans ta, tb;
    size_t m, n, k;
    double alpha[2], beta[2];
    tsl__matrix a, b, c;
    size_t batch, a_stride, b_stride, c_stride;
    int fp32;   /* 1: single precision in FP32 whatever the context's math mode (the complex Level-3
                 * routines, as the real ones, whose GEMMs run in FP32) */
    int form3m; /* 1: the 3M form (three real GEMMs; the op "complex_gemm"'s variant 3m, which
                 * tsl_cgemm / tsl_zgemm and their batches take from the context) */
    int tri;    /* TSL__TRI_C_LOWER / _UPPER: only C's triangle (one problem, m == n, beta real;
                 * where tsl__zgemm_tri_ok): the real GEMM in tiled2d's triangle mode */
    /* b2.buffer not NULL: op(B)'s real form made by the caller (tsl__zgemm_b2_make: 2k x 2n
     * reals at b2.offset, rows b2.ld apart, b2_stride reals a problem), with alpha folded in:
     * B is not read and alpha must be real. A Level-3 routine makes it once for many GEMMs. */
    tsl__matrix b2;
    size_t b2_stride;
} tsl__zgemm_call;
/* The leading dimension (reals) of the real form of an operand of `cols` complex columns. */
size_t tsl__zgemm_b2_ld(size_t cols);
/* dst (offset and ld in reals) = the real form of s op(X) for a rows x cols op(X) (X's offset and
 * ld in complex elements): the 2 x 2 blocks [[re, im], [-im, re]] a complex GEMM's B2 holds. */
tsl_status tsl__zgemm_b2_make(tsl_context *ctx, int prec, size_t rows, size_t cols,
                              const double *s, const tsl__matrix *x, tsl_trans t,
                              const tsl__matrix *dst);
/* Whether g's triangle (g->tri) runs here: the context's gemm variant runs the real GEMM's
 * triangle mode (tsl__gemm_ext_ok). */
int tsl__zgemm_tri_ok(tsl_context *ctx, const tsl__zgemm_call *g);
tsl_status tsl__zgemm_mem(tsl_context *ctx, const tsl__zgemm_call *g);
/* Strided batched real GEMM on device memory (g's problem, X_z = X + z x_stride), with the
 * context's gemm_batched variant (gemm_batched.c); no checks, no timing brackets. */
tsl_status tsl__gemm_batched_mem(tsl_context *ctx, const tsl__gemm_call *g, size_t batch,
                                 size_t a_stride, size_t b_stride, size_t c_stride);

/* TRSM (solve) or TRMM and SYRK on device memory, with CBLAS's semantics in either layout and the
 * operands at element offsets: the routines' own algorithms and variants, no argument checks, no
 * timing brackets (steps of a caller's own call: the LAPACK factorizations, src/lapack). They use
 * the workspace slots of the Level-3 routines and of GEMM, never TSL__WS_A, _B or _C. */
typedef struct {
    int prec, solve;
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n;
    double alpha;
    tsl__matrix a, b;
} tsl__trxm_call;
tsl_status tsl__trxm_mem(tsl_context *ctx, const tsl__trxm_call *t);
typedef struct {
    int prec;
    tsl_layout layout;
    tsl_uplo uplo;
    tsl_trans trans;
    size_t n, k;
    double alpha, beta;
    tsl__matrix a, c;
} tsl__syrk_call;
tsl_status tsl__syrk_mem(tsl_context *ctx, const tsl__syrk_call *y);

/* The Level-3 modes of tiled2d (src/kernels/gemm.cl, TRI and BATCH; docs/level3.md), for the
 * routines whose operand or result is triangular and for strided batched GEMM:
 *   tri: TSL__TRI_C_LOWER / _UPPER: only that triangle of the (square) C is computed, read and
 *   written, in one launch whose tiles in the other triangle do nothing (SYRK, SYR2K);
 *   TSL__TRI_A_LOWER / _UPPER: op(A) is triangular, its other triangle read as zero (never read)
 *   and each row tile only runs the k the triangle reaches (TRMM, left); _B_: op(B) (right);
 *   unit: that operand's diagonal is taken as 1, not read; TSL__TRI_IN_PLACE: the operand
 *   already holds zeros in its other triangle and its diagonal's values (TRSM's inverted blocks),
 *   so it is read in place, not packed (and a batch of such problems runs in one launch).
 *   batch > 0: `batch` problems, X_z = X + z x_stride (one launch per 65535);
 *   stair (with a batch): problem z needs only the rows of C_z at or after (z + 1) stair_step
 *   (TSL__STAIR_ROWS_AFTER), before z stair_step (_ROWS_BEFORE), or those columns (_COLS_*):
 *   its tiles wholly outside do nothing (what a tile crossing the line computes there is written
 *   too: the caller's operands are dense). TRSM's F products, which the substitution reads only
 *   on one side of the diagonal.
 *   cin (without a batch, cin.buffer not NULL): C = alpha op(A) op(B) + beta Cin, Cin read, C
 *   only written (TRSM inverse_leaf's updates into the workspace the next leaf reads).
 *   own_class: the launch keeps its shape's size class, where a triangle mode or a batch of few
 *   work-groups takes the "few" class's (gemm.c, mode_waves): TRSM's leaves beside long updates.
 * They run on tiled2d only: tsl__gemm_ext_ok says whether the context's gemm variant does (and,
 * for a batch, whether no operand needs the pack pre-pass); where it says no, the caller takes
 * its general algorithm. k > 0 and alpha != 0 (the callers treat those cases themselves). */
enum {
    TSL__TRI_NONE,
    TSL__TRI_C_LOWER,
    TSL__TRI_C_UPPER,
    TSL__TRI_A_LOWER,
    TSL__TRI_A_UPPER,
    TSL__TRI_B_LOWER,
    TSL__TRI_B_UPPER
};
enum { TSL__TRI_IN_PLACE = 2 };
enum { TSL__STAIR_NONE, TSL__STAIR_ROWS_AFTER, TSL__STAIR_ROWS_BEFORE, TSL__STAIR_COLS_AFTER, TSL__STAIR_COLS_BEFORE };
typedef struct {
    int tri, unit;
    int tri_cs; /* TRI_C_*: 2 for a complex C as its real m x 2n form (0: 1) */
    size_t batch, a_stride, b_stride, c_stride;
    int stair;
    size_t stair_step;
    tsl__matrix cin; /* buffer NULL: beta times C */
    int own_class;
} tsl__gemm_ext;
/* Whether g runs with ext here (g's operands' buffers are not looked at). */
int tsl__gemm_ext_ok(tsl_context *ctx, const tsl__gemm_call *g, const tsl__gemm_ext *ext);
tsl_status tsl__gemm_mem_ext(tsl_context *ctx, const tsl__gemm_call *g, const tsl__gemm_ext *ext);

/* One descriptor per operation, defined in its ops/<op>.c with designated initializers (fields
 * an op does not have stay NULL); registry.c lists them all. */
extern const tsl__op_desc tsl__gemm_desc;
extern const tsl__op_desc tsl__axpy_desc;
extern const tsl__op_desc tsl__dot_desc;
extern const tsl__op_desc tsl__nrm2_desc;
extern const tsl__op_desc tsl__gemv_desc;
extern const tsl__op_desc tsl__poisson_desc;
extern const tsl__op_desc tsl__transpose_desc;
extern const tsl__op_desc tsl__pi_desc;
extern const tsl__op_desc tsl__nbody_desc;
extern const tsl__op_desc tsl__kmeans_desc;
/* Level 3 (level3.c, gemm_batched.c) */
extern const tsl__op_desc tsl__symm_desc;
extern const tsl__op_desc tsl__syrk_desc;
extern const tsl__op_desc tsl__syr2k_desc;
extern const tsl__op_desc tsl__trmm_desc;
extern const tsl__op_desc tsl__trsm_desc;
extern const tsl__op_desc tsl__gemm_batched_desc;
extern const tsl__op_desc tsl__complex_gemm_desc; /* gemm_complex.c: 4m, 3m */
/* 1 when the context's complex_gemm variant is 3m (tsl_cgemm's and tsl_zgemm's form). */
int tsl__zgemm_form3m(tsl_context *ctx);
/* LAPACK (src/lapack) */
extern const tsl__op_desc tsl__getrf_desc;
extern const tsl__op_desc tsl__geqrf_desc;

#endif
