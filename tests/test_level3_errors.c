/* test_level3_errors.c: the Level-3 routines' bad input, part of test_level3 (test_level3.c
 * says what it checks). */
#include <string.h>

#include "test_level3.h"

/* ---- bad input -------------------------------------------------------------------------------- */

static int g_err_count;
#define EXPECT_BAD(call, word)                                                                    \
    do {                                                                                          \
        tsl_status s_ = (call);                                                                   \
        const char *e_ = tsl_context_error(g_ctx);                                                \
        ++g_err_count;                                                                            \
        CHECK(s_ == TSL_ERR_INVALID_ARG, "%s: got %s (%s)", #call, tsl_status_name(s_), e_);     \
        CHECK(check_mentions(e_, word), "%s: message '%s' does not name %s", #call, e_, word);    \
    } while (0)

void run_errors(void)
{
    float a[64], b[64], c[64], a0[64], b0[64], c0[64];
    unsigned long long st = next_seed();
    tsl_ref_fill_f(a, 64, &st), tsl_ref_fill_f(b, 64, &st), tsl_ref_fill_f(c, 64, &st);
    memcpy(a0, a, sizeof a), memcpy(b0, b, sizeof b), memcpy(c0, c, sizeof c);
    tsl_context *x = g_ctx;
    const tsl_layout R = TSL_ROW_MAJOR;
    size_t huge = (size_t)-3; /* -3 passed as size_t */
    /* symm */
    EXPECT_BAD(tsl_ssymm(x, (tsl_layout)99, TSL_LEFT, TSL_LOWER, 4, 4, 1, a, 4, b, 4, 1, c, 4), "layout");
    EXPECT_BAD(tsl_ssymm(x, R, (tsl_side)7, TSL_LOWER, 4, 4, 1, a, 4, b, 4, 1, c, 4), "side");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, (tsl_uplo)0, 4, 4, 1, a, 4, b, 4, 1, c, 4), "uplo");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 5, 1, a, 3, b, 5, 1, c, 5), "lda");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_RIGHT, TSL_LOWER, 4, 5, 1, a, 4, b, 5, 1, c, 5), "lda");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 5, 1, a, 4, b, 4, 1, c, 5), "ldb");
    EXPECT_BAD(tsl_ssymm(x, TSL_COL_MAJOR, TSL_LEFT, TSL_LOWER, 4, 5, 1, a, 4, b, 4, 1, c, 3), "ldc");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, huge, 4, 1, a, 4, b, 4, 1, c, 4), "m");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 4, 1, NULL, 4, b, 4, 1, c, 4), "A");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 4, 1, a, 4, b, 4, 1, NULL, 4), "C");
    /* syrk, syr2k */
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, (tsl_trans)3, 4, 4, 1, a, 4, 1, c, 4), "trans");
    EXPECT_BAD(tsl_ssyrk(x, R, (tsl_uplo)5, TSL_NO_TRANS, 4, 4, 1, a, 4, 1, c, 4), "uplo");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 6, 1, a, 5, 1, c, 4), "lda");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_TRANS, 6, 4, 1, a, 5, 1, c, 6), "lda");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, 1, c, 3), "ldc");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, huge, 1, a, 4, 1, c, 4), "k");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, NULL, 4, 1, c, 4), "A");
    EXPECT_BAD(tsl_ssyr2k(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, b, 3, 1, c, 4), "ldb");
    EXPECT_BAD(tsl_ssyr2k(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, NULL, 4, 1, c, 4), "B");
    EXPECT_BAD(tsl_ssyr2k(x, R, TSL_UPPER, TSL_NO_TRANS, huge, 4, 1, a, 4, b, 4, 1, c, 4), "n");
    /* trmm, trsm */
    EXPECT_BAD(tsl_strmm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, (tsl_diag)1, 4, 4, 1, a, 4, b, 4), "diag");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, (tsl_trans)1, TSL_UNIT, 4, 4, 1, a, 4, b, 4), "transa");
    EXPECT_BAD(tsl_strsm(x, R, (tsl_side)0, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, a, 4, b, 4), "side");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 5, 4, 1, a, 4, b, 4), "lda");
    EXPECT_BAD(tsl_strsm(x, R, TSL_RIGHT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 5, 1, a, 5, b, 4), "ldb");
    EXPECT_BAD(tsl_strsm(x, TSL_COL_MAJOR, TSL_RIGHT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 5, 4, 1, a, 4, b, 4), "ldb");
    EXPECT_BAD(tsl_strmm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, a, 4, NULL, 4), "B");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, NULL, 4, b, 4), "A");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, huge, 1, a, 4, b, 4), "n");
    /* batched */
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 2, 3, 3), "stride_c");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 2, 0, 2), "stride_c");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 3, 4, 2), "stride_c");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 1, 4, b, 2, 4, 1, c, 2, 4, 2), "lda");
    EXPECT_BAD(tsl_sgemm_batched(x, R, (tsl_trans)0, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 2, 4, 2), "transa");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, NULL, 2, 4, b, 2, 4, 1, c, 2, 4, 2), "A");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, huge, 1, a, 2, 4, b, 2, 4, 1, c, 2, 4, 2), "k");
    /* a stride_c that interleaves two problems' C without a shared element is valid: C_0 holds
     * elements 0, 1, 4, 5 (2 x 2, ldc 4) and C_1 2, 3, 6, 7 */
    tsl_status ok = tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2,
                                      4, 0, c, 4, 2, 2);
    CHECK(ok == TSL_OK, "interleaved disjoint C: %s %s", tsl_status_name(ok), tsl_context_error(x));
    memcpy(c, c0, sizeof c);
    /* buffers too small */
    tsl_buffer *small = NULL, *big = NULL;
    tsl_buffer_create(x, 16, &small), tsl_buffer_create(x, 4096, &big);
    EXPECT_BAD(tsl_strsm_buf(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, small, 4, big, 4), "A");
    EXPECT_BAD(tsl_ssyrk_buf(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, big, 4, 1, small, 4), "C");
    EXPECT_BAD(tsl_ssymm_buf(x, R, TSL_LEFT, TSL_LOWER, 4, 4, 1, big, 4, small, 4, 1, big, 4), "B");
    EXPECT_BAD(tsl_sgemm_batched_buf(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 1, big, 4, 16, big, 4, 16, 1, small, 4, 16, 3), "C");
    EXPECT_BAD(tsl_sgemm_batched_buf(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 1, small, 4, 16, big, 4, 16, 1, big, 4, 16, 3), "A");
    tsl_buffer_destroy(small), tsl_buffer_destroy(big);
    CHECK(memcmp(a, a0, sizeof a) == 0 && memcmp(b, b0, sizeof b) == 0 &&
              memcmp(c, c0, sizeof c) == 0,
          "a rejected call changed the caller's arrays");
    /* variants and options */
    CHECK(tsl_context_set_variant(x, "trsm", "nope") == TSL_ERR_INVALID_ARG, "unknown trsm variant");
    CHECK(tsl_context_set_option(x, "trsm", "block", 0) == TSL_ERR_INVALID_ARG, "block 0");
    CHECK(tsl_context_set_option(x, "syrk", "blocks", 16) == TSL_ERR_INVALID_ARG, "unknown option");
    CHECK(tsl_context_set_option(x, "trsm", "streams", 0) == TSL_ERR_INVALID_ARG, "streams 0");
    CHECK(tsl_context_set_option(x, "trsm", "streams", 5) == TSL_ERR_INVALID_ARG, "streams 5");
    CHECK(tsl_context_set_option(x, "trsm", "streams", 4) == TSL_OK, "streams 4");
    CHECK(tsl_context_set_option(x, "trsm", "inv_fuse", -1) == TSL_ERR_INVALID_ARG, "inv_fuse -1");
    CHECK(tsl_context_set_option(x, "trsm", "inv_fuse", 4097) == TSL_ERR_INVALID_ARG,
          "inv_fuse 4097");
    CHECK(tsl_context_set_option(x, "trsm", "inv_fuse", 0) == TSL_OK, "inv_fuse 0");
    CHECK(tsl_context_set_option(x, "trsm", "inv_fuze", 256) == TSL_ERR_INVALID_ARG &&
              strstr(tsl_context_error(x), "inv_fuse") != NULL,
          "an unknown trsm option's message names the options: %s", tsl_context_error(x));
    CHECK(tsl_context_set_variant(x, "gemm_batched", "loop") == TSL_OK, "gemm_batched loop");
    tsl_context_set_variant(x, "gemm_batched", "auto");
    CHECK(tsl_ssyrk(NULL, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, 1, c, 4) == TSL_ERR_INVALID_ARG,
          "NULL ctx");
}

