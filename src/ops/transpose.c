/* transpose.c: the transpose op, row-major B = A^T where A is rows x cols (lda >= cols) and B is
 * cols x rows (ldb >= rows). This file checks the arguments, keeps the variant table (a variant is
 * a kernel of transpose.cl and its compile-time parameters), reads the op's options (tile edge,
 * inner repetitions) and launches; docs/transpose.md says why each choice is what it is.
 *
 * Variant `copy` is 001's bandwidth reference: the same bytes moved as a transpose, without the
 * transposition. It is listed (so tools enumerate it, and tsl_variant_check says it runs) but the
 * transpose calls refuse it with TSL_ERR_UNSUPPORTED and write nothing: a call named transpose
 * must never hand back a copy. The copy itself is tsl_copy_buf (ops/copy.c), which `tessel
 * transpose` runs for the copy row. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops.h"

typedef enum { KIND_COPY, KIND_NAIVE, KIND_TILED } transpose_kind;

typedef struct {
    const char *name;
    transpose_kind kind;
    const char *kernel;
    int pad;      /* tile rows padded by one element against local-memory bank conflicts */
    int diagonal; /* work-groups renumbered along diagonals against partition camping */
    int vector;   /* 16-byte global loads and stores (transpose_vec): VW elements a work-item */
} transpose_variant;

/* The reference first, then each step of 001's ladder. */
static const transpose_variant variants[] = {
    {"copy", KIND_COPY, NULL, 0, 0, 0},
    {"naive", KIND_NAIVE, "transpose_naive", 0, 0, 0},
    {"coalesced", KIND_TILED, "transpose_tiled", 0, 0, 0},
    {"nobank", KIND_TILED, "transpose_tiled", 1, 0, 0},
    {"diagonal", KIND_TILED, "transpose_tiled", 1, 1, 0},
    {"vector", KIND_TILED, "transpose_vec", 1, 0, 1},
};

/* Launch geometry per device type (first match wins, the last row is the default): the tile edge
 * when the "tile" option is unset, and the work-group's rows (TILE x min(TILE, wg_rows)
 * work-items, each walking the tile wg_rows rows at a time). GPUs: 64-wide tiles, 8 rows, which
 * beat 32 x 8 on an H200 (vector 8192^2 about 7% faster, ragged nobank about 20%;
 * bench/results/h200/memory, docs/transpose.md). CPUs (PoCL): 4 x 4, where the naive kernel runs
 * about 2x faster than at 32 x 8 (docs/transpose.md). */
static const struct {
    const char *type;
    int tile, wg_rows, group_tiles;
} geometry_table[] = {{"gpu", 64, 8, 1}, {"cpu", 4, 4, 1}, {NULL, 16, 8, 1}};

/* What `auto` stands for per device type; the measurements behind it: docs/transpose.md. */
static const tsl__auto_row auto_table[] = {{"gpu", "vector"}, {"cpu", "naive"}, {NULL, "nobank"}};

#define MIN_TILE 4
#define MAX_TILE 64
#define MAX_INNER_REPS 1000000L

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static size_t geometry_row(const tsl_context *ctx)
{
    size_t i = 0;
    while (geometry_table[i].type && strcmp(geometry_table[i].type, ctx->info.type) != 0)
        ++i;
    return i;
}

static int tile_of(const tsl_context *ctx)
{
    return (int)tsl__context_option(ctx, "transpose", "tile",
                                    geometry_table[geometry_row(ctx)].tile);
}

/* Tiles one work-group of the vector variant transposes (down a column of the tile grid). */
static int group_tiles_of(const tsl_context *ctx, const transpose_variant *v)
{
    return v->vector ? (int)tsl__context_option(ctx, "transpose", "group_tiles",
                                                geometry_table[geometry_row(ctx)].group_tiles)
                     : 1;
}

static int wg_rows_of(const tsl_context *ctx, int tile)
{
    int r = (int)tsl__context_option(ctx, "transpose", "wg_rows",
                                     geometry_table[geometry_row(ctx)].wg_rows);
    return tile < r ? tile : r;
}

/* Elements per vector access: 16 bytes (4 floats, 2 doubles) for the vector variant, as wide as
 * the tile edge allows; 1 for the others. */
static int vw_of(const transpose_variant *v, int dbl, int tile)
{
    int vw = v->vector ? (dbl ? 2 : 4) : 1;
    while (tile % vw != 0)
        vw /= 2;
    return vw;
}

static tsl_status get_kernel(tsl_context *ctx, const transpose_variant *v, int dbl, int tile,
                             int wg_rows, cl_kernel *k)
{
    char options[256];
    snprintf(options, sizeof options,
             "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s -DTILE=%d -DWG_ROWS=%d -DPAD=%d "
             "-DDIAGONAL=%d -DVW=%d -DGROUP_TILES=%d",
             dbl ? 64 : 32, v->kernel, tile, wg_rows, v->pad, v->diagonal, vw_of(v, dbl, tile),
             group_tiles_of(ctx, v));
    return tsl__get_kernel(ctx, "transpose.cl", options, v->kernel, k);
}

/* Work-group size and local memory the variant needs at the context's tile, against the device,
 * then against the compiled kernel (its registers may allow less than the device). */
static tsl_status variant_fits(tsl_context *ctx, const transpose_variant *v, int dbl)
{
    if (v->kind == KIND_COPY) return TSL_OK;
    int tile = tile_of(ctx), rows = wg_rows_of(ctx, tile);
    size_t wg = (size_t)(tile / vw_of(v, dbl, tile)) * (size_t)rows;
    size_t local =
        v->kind == KIND_TILED ? (size_t)tile * (size_t)(tile + v->pad) * (dbl ? 8 : 4) : 0;
    if (wg > ctx->info.max_work_group)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "transpose variant %s with tile %d needs work-groups of %zu, device %s "
                         "allows at most %zu",
                         v->name, tile, wg, ctx->info.name, ctx->info.max_work_group);
    if (local > ctx->info.local_mem)
        return tsl__fail(
            ctx, TSL_ERR_UNSUPPORTED,
            "transpose variant %s with tile %d needs %zu bytes of local memory, device "
            "%s has %llu",
            v->name, tile, local, ctx->info.name, ctx->info.local_mem);
    cl_kernel k;
    tsl_status s = get_kernel(ctx, v, dbl, tile, rows, &k);
    if (s != TSL_OK) return s;
    size_t max_wg = tsl__kernel_max_wg(ctx, k);
    if (wg > max_wg)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "transpose variant %s with tile %d needs work-groups of %zu, its compiled "
                         "kernel allows %zu on %s",
                         v->name, tile, wg, max_wg, ctx->info.name);
    return TSL_OK;
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const transpose_variant *v =
        tsl__find_variant(ctx, "transpose", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return variant_fits(ctx, v, 0); /* double precision is checked again when it runs */
}

static tsl_status option_check(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "tile") == 0) {
        if (value < MIN_TILE || value > MAX_TILE)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "transpose option tile = %ld is outside %d..%d", value, MIN_TILE,
                             MAX_TILE);
        size_t wg = (size_t)value * (size_t)wg_rows_of(ctx, (int)value);
        if (wg > ctx->info.max_work_group)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "transpose option tile = %ld needs work-groups of %zu, device %s "
                             "allows at most %zu",
                             value, wg, ctx->info.name, ctx->info.max_work_group);
        return TSL_OK;
    }
    if (strcmp(name, "wg_rows") == 0) {
        if (value < 1 || value > MAX_TILE)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "transpose option wg_rows = %ld is outside 1..%d", value, MAX_TILE);
        return TSL_OK; /* capped at the tile edge; the work-group is checked when a variant runs */
    }
    if (strcmp(name, "group_tiles") == 0) {
        if (value < 1 || value > 16)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "transpose option group_tiles = %ld is outside 1..16", value);
        return TSL_OK;
    }
    if (strcmp(name, "inner_reps") == 0) {
        if (value < 1 || value > MAX_INNER_REPS)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "transpose option inner_reps = %ld is outside 1..%ld", value,
                             MAX_INNER_REPS);
        return TSL_OK;
    }
    return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                     "unknown transpose option '%s' (options: tile, wg_rows, group_tiles, inner_reps)", name);
}

const tsl__op_desc tsl__transpose_desc = {.op = "transpose", .variant_name = variant_name, .variant_check = variant_check, .option_check = option_check};

/* ---- running ----------------------------------------------------------------------------- */

typedef struct {
    int dbl;
    size_t rows, cols;
    cl_mem a, b;
    size_t lda, ldb;
} transpose_problem;

/* The context's variant, resolved, or why it cannot transpose. */
static tsl_status pick(tsl_context *ctx, const char *fn, int dbl, size_t lda, size_t ldb,
                       const transpose_variant **out)
{
    const char *name = tsl__context_variant(ctx, "transpose");
    const transpose_variant *v =
        tsl__find_variant(ctx, "transpose", TSL__TABLE(variants), auto_table, name);
    if (!v) return TSL_ERR_INVALID_ARG;
    /* auto's vector rests on 16-byte rows: single precision (double ran 4% slower than nobank on
     * the H200) and leading dimensions that are multiples of 4; otherwise every tile would take
     * the scalar path, slower than nobank (docs/transpose.md). */
    if (v->vector && (!name || !*name || strcmp(name, "auto") == 0) &&
        (dbl || lda % 4 != 0 || ldb % 4 != 0))
        v = tsl__find_variant(ctx, "transpose", TSL__TABLE(variants), auto_table, "nobank");
    if (v->kind == KIND_COPY)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s: transpose variant copy is the bandwidth reference and does not "
                         "transpose; time the copy with tsl_copy_buf, or pick another variant",
                         fn);
    *out = v;
    return TSL_OK;
}

static tsl_status run(tsl_context *ctx, const transpose_variant *v, const transpose_problem *p)
{
    tsl_status s = variant_fits(ctx, v, p->dbl);
    if (s != TSL_OK) return s;
    int tile = tile_of(ctx), wg_rows = wg_rows_of(ctx, tile);
    int reps = (int)tsl__context_option(ctx, "transpose", "inner_reps", 1);
    cl_kernel k;
    if ((s = get_kernel(ctx, v, p->dbl, tile, wg_rows, &k)) != TSL_OK) return s;
    size_t t = (size_t)tile, lx = t / (size_t)vw_of(v, p->dbl, tile);
    size_t local[2] = {lx, (size_t)wg_rows};
    size_t gt = (size_t)group_tiles_of(ctx, v), tiles_down = (p->rows + t - 1) / t;
    size_t global[2] = {(p->cols + t - 1) / t * lx, (tiles_down + gt - 1) / gt * (size_t)wg_rows};
    int rows = (int)p->rows, cols = (int)p->cols, lda = (int)p->lda, ldb = (int)p->ldb;
    tsl__arg args[] = {{sizeof rows, &rows}, {sizeof cols, &cols},    {sizeof(cl_mem), &p->a},
                       {sizeof lda, &lda},   {sizeof(cl_mem), &p->b}, {sizeof ldb, &ldb},
                       {sizeof reps, &reps}};
    return tsl__launch(ctx, k, v->name, args, 7, 2, global, local);
}

/* ---- argument checks and the public entry points ---------------------------------------- */

static size_t max1(size_t x)
{
    return x ? x : 1;
}
static tsl_status check_args(tsl_context *ctx, const char *fn, int dbl, size_t rows, size_t cols,
                             size_t lda, size_t ldb)
{
    if (lda < max1(cols))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: lda = %zu is smaller than %zu, the columns of A", fn, lda,
                         max1(cols));
    if (ldb < max1(rows))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: ldb = %zu is smaller than %zu, the columns of B (rows of A)", fn, ldb,
                         max1(rows));
    /* The kernels index in int and round sizes up to a tile: keep a tile's margin. */
    const size_t limit = (size_t)INT_MAX - 2 * MAX_TILE;
    if (rows > limit || cols > limit || lda > limit || ldb > limit)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s: sizes and leading dimensions above %zu are not supported", fn, limit);
    return tsl__check_fp64(ctx, dbl, fn);
}

static tsl_status transpose_host(tsl_context *ctx, const char *fn, int dbl, size_t rows,
                                 size_t cols, const void *a, size_t lda, void *b, size_t ldb)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, dbl, rows, cols, lda, ldb);
    if (s != TSL_OK) return s;
    if (rows == 0 || cols == 0) return TSL_OK;
    if (!a || !b) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, a ? "B" : "A");
    const transpose_variant *v;
    if ((s = pick(ctx, fn, dbl, cols, rows, &v)) != TSL_OK) return s;
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    if (tsl__mul_overflows(rows, cols) || tsl__mul_overflows(rows * cols, elem))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    transpose_problem p = {dbl, rows, cols, NULL, NULL, cols, rows};
    if ((s = tsl__workspace(ctx, TSL__WS_A, rows * cols * elem, &p.a)) != TSL_OK) return s;
    if ((s = tsl__workspace(ctx, TSL__WS_B, rows * cols * elem, &p.b)) != TSL_OK) return s;
    if ((s = tsl__upload_rect(ctx, p.a, a, rows, cols * elem, lda * elem)) != TSL_OK) return s;
    s = run(ctx, v, &p);
    tsl_status done = tsl__timing_end(ctx); /* waits: nothing is read back from a failed run */
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.b, b, cols, rows * elem, ldb * elem)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status transpose_buf(tsl_context *ctx, const char *fn, int dbl, size_t rows, size_t cols,
                                const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, dbl, rows, cols, lda, ldb);
    if (s != TSL_OK) return s;
    if (rows == 0 || cols == 0) return TSL_OK;
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    if ((s = tsl__check_matrix_buffer(ctx, fn, "a", a, rows, cols, lda, elem)) != TSL_OK) return s;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "b", b, cols, rows, ldb, elem)) != TSL_OK) return s;
    if (a == b || a->mem == b->mem)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: buffers a and b are the same; an in-place transpose is not supported",
                         fn);
    const transpose_variant *v;
    if ((s = pick(ctx, fn, dbl, lda, ldb, &v)) != TSL_OK) return s;
    transpose_problem p = {dbl, rows, cols, a->mem, b->mem, lda, ldb};
    s = run(ctx, v, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

tsl_status tsl_stranspose(tsl_context *ctx, size_t rows, size_t cols, const float *a, size_t lda,
                          float *b, size_t ldb)
{
    return transpose_host(ctx, "tsl_stranspose", 0, rows, cols, a, lda, b, ldb);
}

tsl_status tsl_dtranspose(tsl_context *ctx, size_t rows, size_t cols, const double *a, size_t lda,
                          double *b, size_t ldb)
{
    return transpose_host(ctx, "tsl_dtranspose", 1, rows, cols, a, lda, b, ldb);
}

tsl_status tsl_stranspose_buf(tsl_context *ctx, size_t rows, size_t cols, const tsl_buffer *a,
                              size_t lda, tsl_buffer *b, size_t ldb)
{
    return transpose_buf(ctx, "tsl_stranspose_buf", 0, rows, cols, a, lda, b, ldb);
}

tsl_status tsl_dtranspose_buf(tsl_context *ctx, size_t rows, size_t cols, const tsl_buffer *a,
                              size_t lda, tsl_buffer *b, size_t ldb)
{
    return transpose_buf(ctx, "tsl_dtranspose_buf", 1, rows, cols, a, lda, b, ldb);
}
