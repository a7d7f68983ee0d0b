/* tessel_complex.h: the complex routines of libtessel, in CBLAS's semantics and types: GEMM
 * (tsl_[cz]gemm, batched) and Level 3 (tsl_[cz]symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm),
 * each with a _buf form on device buffers. tessel.h includes it; it includes tessel.h.
 *
 * Conventions (docs/gemm.md "Complex GEMM", docs/level3.md "Complex routines"): c is single
 * complex, z double complex. Every complex scalar and array element is an interleaved (real,
 * imaginary) pair passed as a void pointer (alpha and beta point at two floats or two doubles);
 * herk's alpha and beta and her2k's beta are real (float for c, double for z), as in cblas_zherk
 * and cblas_zher2k. Leading dimensions count complex elements; a _buf form's matrices start at
 * element 0 of their buffers (8 bytes an element for c, 16 for z). Each routine takes its real
 * twin's arguments in the same order (tessel.h) with these types, and its checks and guarantees:
 * bad arguments (alpha or beta NULL included) are TSL_ERR_INVALID_ARG naming the argument, before
 * anything runs; padding and the triangle a routine does not reference are never read or written;
 * beta == 0 never reads C; alpha == 0 reads neither A nor B. */
#ifndef TESSEL_COMPLEX_H
#define TESSEL_COMPLEX_H

#include "tessel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Complex GEMM: C = alpha op(A) op(B) + beta C on single (tsl_cgemm) and double (tsl_zgemm)
 * complex matrices, with CBLAS's semantics and types (cblas_cgemm / cblas_zgemm): alpha, beta and
 * every element are (real, imaginary) pairs, interleaved, passed as void pointers (alpha and beta
 * point at two floats or two doubles); transa and transb are TSL_NO_TRANS, TSL_TRANS or
 * TSL_CONJ_TRANS (op(X) = X^H); leading dimensions count complex elements. beta == 0 never reads
 * C; alpha == 0 or k == 0 reads neither A nor B. The product runs as one real GEMM of the context's
 * gemm variant (the 4M form, docs/gemm.md: tiled2d's tuned configurations, split k, the tensor
 * cores and, for tsl_cgemm, the context's math mode); the _buf forms take buffers whose matrices
 * start at element 0 (8 bytes an element for tsl_cgemm_buf, 16 for tsl_zgemm_buf). */
TSL_EXPORT tsl_status tsl_cgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                tsl_trans transb, size_t m, size_t n, size_t k, const void *alpha,
                                const void *a, size_t lda, const void *b, size_t ldb,
                                const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                tsl_trans transb, size_t m, size_t n, size_t k, const void *alpha,
                                const void *a, size_t lda, const void *b, size_t ldb,
                                const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_cgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k,
                                    const void *alpha, const tsl_buffer *a, size_t lda,
                                    const tsl_buffer *b, size_t ldb, const void *beta,
                                    tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k,
                                    const void *alpha, const tsl_buffer *a, size_t lda,
                                    const tsl_buffer *b, size_t ldb, const void *beta,
                                    tsl_buffer *c, size_t ldc);

/* Complex strided batched GEMM: tsl_cgemm / tsl_zgemm's semantics for each problem, the
 * batching of tsl_sgemm_batched (strides in complex elements). */
TSL_EXPORT tsl_status tsl_cgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                        tsl_trans transb, size_t m, size_t n, size_t k,
                                        const void *alpha, const void *a, size_t lda,
                                        size_t stride_a, const void *b, size_t ldb, size_t stride_b,
                                        const void *beta, void *c, size_t ldc, size_t stride_c,
                                        size_t batch);
TSL_EXPORT tsl_status tsl_zgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                        tsl_trans transb, size_t m, size_t n, size_t k,
                                        const void *alpha, const void *a, size_t lda,
                                        size_t stride_a, const void *b, size_t ldb, size_t stride_b,
                                        const void *beta, void *c, size_t ldc, size_t stride_c,
                                        size_t batch);
TSL_EXPORT tsl_status tsl_cgemm_batched_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                            tsl_trans transb, size_t m, size_t n, size_t k,
                                            const void *alpha, const tsl_buffer *a, size_t lda,
                                            size_t stride_a, const tsl_buffer *b, size_t ldb,
                                            size_t stride_b, const void *beta, tsl_buffer *c,
                                            size_t ldc, size_t stride_c, size_t batch);
TSL_EXPORT tsl_status tsl_zgemm_batched_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                            tsl_trans transb, size_t m, size_t n, size_t k,
                                            const void *alpha, const tsl_buffer *a, size_t lda,
                                            size_t stride_a, const tsl_buffer *b, size_t ldb,
                                            size_t stride_b, const void *beta, tsl_buffer *c,
                                            size_t ldc, size_t stride_c, size_t batch);

/* C = alpha S B + beta C (side TSL_LEFT, S m x m) or alpha B S + beta C (TSL_RIGHT, S n x n), S
 * symmetric (symm) or Hermitian (hemm) with its uplo triangle stored in A; hemm reads the
 * diagonal's real part only. S is written whole on the device, then one complex GEMM. */
TSL_EXPORT tsl_status tsl_csymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                                const void *b, size_t ldb, const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zsymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                                const void *b, size_t ldb, const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_csymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, size_t m, size_t n, const void *alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, const void *beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zsymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, size_t m, size_t n, const void *alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, const void *beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_chemm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                                const void *b, size_t ldb, const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zhemm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                                const void *b, size_t ldb, const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_chemm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, size_t m, size_t n, const void *alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, const void *beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zhemm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, size_t m, size_t n, const void *alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, const void *beta, tsl_buffer *c, size_t ldc);

/* C's uplo triangle (n x n) = alpha op(A) op(A)^T + beta C (syrk; trans TSL_NO_TRANS, op(A) = A
 * n x k, or TSL_TRANS, op(A) = A^T), alpha op(A) op(A)^H + beta C (herk, real alpha and beta;
 * TSL_NO_TRANS or TSL_CONJ_TRANS, op(A) = A^H); syr2k: alpha op(A) op(B)^T + alpha op(B) op(A)^T +
 * beta C; her2k: alpha op(A) op(B)^H + conj(alpha) op(B) op(A)^H + beta C (real beta). herk and
 * her2k set the imaginary parts of C's diagonal to 0 (when alpha == 0 or k == 0 with beta == 1
 * they change nothing), as the reference BLAS does. The other triangle is never touched. */
TSL_EXPORT tsl_status tsl_csyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                                size_t n, size_t k, const void *alpha, const void *a, size_t lda,
                                const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zsyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                                size_t n, size_t k, const void *alpha, const void *a, size_t lda,
                                const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_csyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                    tsl_trans trans, size_t n, size_t k, const void *alpha,
                                    const tsl_buffer *a, size_t lda, const void *beta,
                                    tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zsyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                    tsl_trans trans, size_t n, size_t k, const void *alpha,
                                    const tsl_buffer *a, size_t lda, const void *beta,
                                    tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_cherk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                                size_t n, size_t k, float alpha, const void *a, size_t lda,
                                float beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zherk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                                size_t n, size_t k, double alpha, const void *a, size_t lda,
                                double beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_cherk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                    tsl_trans trans, size_t n, size_t k, float alpha,
                                    const tsl_buffer *a, size_t lda, float beta, tsl_buffer *c,
                                    size_t ldc);
TSL_EXPORT tsl_status tsl_zherk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                    tsl_trans trans, size_t n, size_t k, double alpha,
                                    const tsl_buffer *a, size_t lda, double beta, tsl_buffer *c,
                                    size_t ldc);
TSL_EXPORT tsl_status tsl_csyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                 tsl_trans trans, size_t n, size_t k, const void *alpha,
                                 const void *a, size_t lda, const void *b, size_t ldb,
                                 const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zsyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                 tsl_trans trans, size_t n, size_t k, const void *alpha,
                                 const void *a, size_t lda, const void *b, size_t ldb,
                                 const void *beta, void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_csyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     tsl_trans trans, size_t n, size_t k, const void *alpha,
                                     const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                     size_t ldb, const void *beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zsyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     tsl_trans trans, size_t n, size_t k, const void *alpha,
                                     const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                     size_t ldb, const void *beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_cher2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                 tsl_trans trans, size_t n, size_t k, const void *alpha,
                                 const void *a, size_t lda, const void *b, size_t ldb, float beta,
                                 void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zher2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                 tsl_trans trans, size_t n, size_t k, const void *alpha,
                                 const void *a, size_t lda, const void *b, size_t ldb, double beta,
                                 void *c, size_t ldc);
TSL_EXPORT tsl_status tsl_cher2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     tsl_trans trans, size_t n, size_t k, const void *alpha,
                                     const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                     size_t ldb, float beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_zher2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     tsl_trans trans, size_t n, size_t k, const void *alpha,
                                     const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                     size_t ldb, double beta, tsl_buffer *c, size_t ldc);

/* B (m x n) = alpha op(A) B (side TSL_LEFT, A m x m) or alpha B op(A) (TSL_RIGHT, A n x n), op(A)
 * triangular (uplo, diag; transa TSL_NO_TRANS, TSL_TRANS or TSL_CONJ_TRANS); trsm solves op(A) X
 * = alpha B (X op(A) = alpha B) for X, into B, by substitution on diagonal blocks (a zero on a
 * non-unit diagonal gives IEEE inf/NaN, TSL_OK). A's other triangle, and a unit diagonal, are
 * never read. */
TSL_EXPORT tsl_status tsl_ctrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n,
                                const void *alpha, const void *a, size_t lda, void *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ztrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n,
                                const void *alpha, const void *a, size_t lda, void *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ctrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ztrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ctrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n,
                                const void *alpha, const void *a, size_t lda, void *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ztrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n,
                                const void *alpha, const void *a, size_t lda, void *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ctrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_ztrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);

#ifdef __cplusplus
}
#endif
#endif /* TESSEL_COMPLEX_H */
