/* fortran_lapack.c: the Fortran LAPACK symbols of the drop-in (docs/dropin.md, "The LAPACK
 * symbols"): s/d getrf, getrs, gesv, potrf, potrs, posv, geqrf, ormqr, gels, and dsgesv and
 * dsposv. Each checks its arguments as reference
 * LAPACK does (same order, same positions: INFO = -k and xerbla_ with the 6-character name),
 * takes LAPACK's quick returns, offers the call to the device (dispatch.h, routed by the cost
 * model as a factorization), and otherwise runs the CPU LAPACK's own symbol with the caller's
 * arguments. A device call writes the caller's arrays only once it has finished, so after a
 * device failure the CPU LAPACK starts from the caller's untouched arrays. The check-and-route
 * part of both precisions is one function; the exported symbols add the typed CPU call. */
#include "blas/dispatch.h"
#include "blas/fortran.h"

enum { DONE = 0, RUN_CPU = 1 };

typedef tsl__blas_int fint;

static fint max1(fint x)
{
    return x > 1 ? x : 1;
}

static int bad(const char *name, fint *info, fint position)
{
    *info = -position;
    tsl__blas_xerbla(name, position);
    return DONE;
}

static int is_uplo(char u)
{
    return tsl__blas_lsame(u, 'U') || tsl__blas_lsame(u, 'L');
}

static tsl_uplo uplo_of(char u)
{
    return tsl__blas_lsame(u, 'U') ? TSL_UPPER : TSL_LOWER;
}

/* getrs reads ipiv as row numbers of B: a pivot outside 1..n (undefined in LAPACK) goes to the
 * CPU LAPACK as it is, never to the device. */
static int pivots_valid(fint n, const fint *ipiv)
{
    for (fint i = 0; i < n; i++)
        if (ipiv[i] < 1 || ipiv[i] > n) return 0;
    return 1;
}

/* ---- the check-and-route parts ------------------------------------------------------------- */

static int getrf(tsl__blas_stat *st, char prec, const char *name, fint m, fint n, void *a,
                 fint lda, fint *ipiv, fint *info)
{
    *info = 0;
    if (m < 0) return bad(name, info, 1);
    if (n < 0) return bad(name, info, 2);
    if (lda < max1(m)) return bad(name, info, 4);
    if (m == 0 || n == 0) return DONE;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_GETRF,
                                                         .m = (size_t)m,
                                                         .n = (size_t)n,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .ipiv = ipiv,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

static int getrs(tsl__blas_stat *st, char prec, const char *name, char trans, fint n, fint nrhs,
                 const void *a, fint lda, const fint *ipiv, void *b, fint ldb, fint *info)
{
    *info = 0;
    int notran = tsl__blas_lsame(trans, 'N');
    if (!notran && !tsl__blas_lsame(trans, 'T') && !tsl__blas_lsame(trans, 'C'))
        return bad(name, info, 1);
    if (n < 0) return bad(name, info, 2);
    if (nrhs < 0) return bad(name, info, 3);
    if (lda < max1(n)) return bad(name, info, 5);
    if (ldb < max1(n)) return bad(name, info, 8);
    if (n == 0 || nrhs == 0) return DONE;
    if (!pivots_valid(n, ipiv)) return RUN_CPU;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_GETRS,
                                                         .trans = notran ? TSL_NO_TRANS : TSL_TRANS,
                                                         .m = (size_t)n,
                                                         .n = (size_t)n,
                                                         .nrhs = (size_t)nrhs,
                                                         .a = (void *)a,
                                                         .lda = (size_t)lda,
                                                         .ipiv = (fint *)ipiv,
                                                         .b = b,
                                                         .ldb = (size_t)ldb,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

static int gesv(tsl__blas_stat *st, char prec, const char *name, fint n, fint nrhs, void *a,
                fint lda, fint *ipiv, void *b, fint ldb, fint *info)
{
    *info = 0;
    if (n < 0) return bad(name, info, 1);
    if (nrhs < 0) return bad(name, info, 2);
    if (lda < max1(n)) return bad(name, info, 4);
    if (ldb < max1(n)) return bad(name, info, 7);
    if (n == 0) return DONE;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_GESV,
                                                         .m = (size_t)n,
                                                         .n = (size_t)n,
                                                         .nrhs = (size_t)nrhs,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .ipiv = ipiv,
                                                         .b = b,
                                                         .ldb = (size_t)ldb,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

/* dsgesv: the single factorization refined in double (tsl_dsgesv); WORK and SWORK, LAPACK's
 * scratch, are not used. Routed at single precision's rates, where its factorization runs. */
static int dsgesv(tsl__blas_stat *st, fint n, fint nrhs, double *a, fint lda, fint *ipiv,
                  const double *b, fint ldb, double *x, fint ldx, fint *iter, fint *info)
{
    *info = 0;
    *iter = 0;
    if (n < 0) return bad("DSGESV", info, 1);
    if (nrhs < 0) return bad("DSGESV", info, 2);
    if (lda < max1(n)) return bad("DSGESV", info, 4);
    if (ldb < max1(n)) return bad("DSGESV", info, 7);
    if (ldx < max1(n)) return bad("DSGESV", info, 9);
    if (n == 0) return DONE;
    return tsl__blas_dev_lapack(st, 's',
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_DSGESV,
                                                         .m = (size_t)n,
                                                         .n = (size_t)n,
                                                         .nrhs = (size_t)nrhs,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .ipiv = ipiv,
                                                         .b = (void *)b,
                                                         .ldb = (size_t)ldb,
                                                         .x = x,
                                                         .ldx = (size_t)ldx,
                                                         .iter = iter,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

/* dsposv: dsgesv's Cholesky twin (tsl_dsposv). */
static int dsposv(tsl__blas_stat *st, char uplo, fint n, fint nrhs, double *a, fint lda,
                  const double *b, fint ldb, double *x, fint ldx, fint *iter, fint *info)
{
    *info = 0;
    *iter = 0;
    if (!is_uplo(uplo)) return bad("DSPOSV", info, 1);
    if (n < 0) return bad("DSPOSV", info, 2);
    if (nrhs < 0) return bad("DSPOSV", info, 3);
    if (lda < max1(n)) return bad("DSPOSV", info, 5);
    if (ldb < max1(n)) return bad("DSPOSV", info, 7);
    if (ldx < max1(n)) return bad("DSPOSV", info, 9);
    if (n == 0) return DONE;
    return tsl__blas_dev_lapack(st, 's',
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_DSPOSV,
                                                         .uplo = uplo_of(uplo),
                                                         .m = (size_t)n,
                                                         .n = (size_t)n,
                                                         .nrhs = (size_t)nrhs,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .b = (void *)b,
                                                         .ldb = (size_t)ldb,
                                                         .x = x,
                                                         .ldx = (size_t)ldx,
                                                         .iter = iter,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

/* geqrf, ormqr and gels check what LAPACK checks before LWORK; a workspace query (LWORK = -1), an
 * LWORK below LAPACK's minimum (its INFO and xerbla_ are the CPU LAPACK's then) and the quick
 * returns (which set WORK(1)) go to the CPU LAPACK as they are. The device needs no WORK. */
static int geqrf(tsl__blas_stat *st, char prec, const char *name, fint m, fint n, void *a,
                 fint lda, void *tau, fint lwork, fint *info)
{
    *info = 0;
    if (m < 0) return bad(name, info, 1);
    if (n < 0) return bad(name, info, 2);
    if (lda < max1(m)) return bad(name, info, 4);
    if (lwork < max1(n) || m == 0 || n == 0) return RUN_CPU;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_GEQRF,
                                                         .m = (size_t)m,
                                                         .n = (size_t)n,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .tau = tau,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

static int ormqr(tsl__blas_stat *st, char prec, const char *name, char side, char trans, fint m,
                 fint n, fint k, const void *a, fint lda, const void *tau, void *c, fint ldc,
                 fint lwork, fint *info)
{
    *info = 0;
    int left = tsl__blas_lsame(side, 'L'), notran = tsl__blas_lsame(trans, 'N');
    fint nq = left ? m : n, nw = left ? n : m;
    if (!left && !tsl__blas_lsame(side, 'R')) return bad(name, info, 1);
    if (!notran && !tsl__blas_lsame(trans, 'T')) return bad(name, info, 2);
    if (m < 0) return bad(name, info, 3);
    if (n < 0) return bad(name, info, 4);
    if (k < 0 || k > nq) return bad(name, info, 5);
    if (lda < max1(nq)) return bad(name, info, 7);
    if (ldc < max1(m)) return bad(name, info, 10);
    if (lwork < max1(nw) || m == 0 || n == 0 || k == 0) return RUN_CPU;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_ORMQR,
                                                         .side = left ? TSL_LEFT : TSL_RIGHT,
                                                         .trans = notran ? TSL_NO_TRANS : TSL_TRANS,
                                                         .m = (size_t)m,
                                                         .n = (size_t)n,
                                                         .k = (size_t)k,
                                                         .a = (void *)a,
                                                         .lda = (size_t)lda,
                                                         .tau = (void *)tau,
                                                         .b = c,
                                                         .ldb = (size_t)ldc,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

static int gels(tsl__blas_stat *st, char prec, const char *name, char trans, fint m, fint n,
                fint nrhs, void *a, fint lda, void *b, fint ldb, fint lwork, fint *info)
{
    *info = 0;
    int notran = tsl__blas_lsame(trans, 'N');
    fint mn = m < n ? m : n, big = m > n ? m : n;
    if (!notran && !tsl__blas_lsame(trans, 'T')) return bad(name, info, 1);
    if (m < 0) return bad(name, info, 2);
    if (n < 0) return bad(name, info, 3);
    if (nrhs < 0) return bad(name, info, 4);
    if (lda < max1(m)) return bad(name, info, 6);
    if (ldb < max1(big)) return bad(name, info, 8);
    if (lwork < max1(mn + (mn > nrhs ? mn : nrhs)) || mn == 0 || nrhs == 0) return RUN_CPU;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = TSL__LAPACK_GELS,
                                                         .trans = notran ? TSL_NO_TRANS : TSL_TRANS,
                                                         .m = (size_t)m,
                                                         .n = (size_t)n,
                                                         .nrhs = (size_t)nrhs,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .b = b,
                                                         .ldb = (size_t)ldb,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

/* potrf (nrhs < 0: no right-hand side), potrs and posv share their checks: uplo, n, then nrhs,
 * lda and ldb at the positions each routine has them. */
static int potr(tsl__blas_stat *st, char prec, const char *name, int op, char uplo, fint n,
                fint nrhs, void *a, fint lda, void *b, fint ldb, fint *info)
{
    *info = 0;
    int rhs = op != TSL__LAPACK_POTRF;
    if (!is_uplo(uplo)) return bad(name, info, 1);
    if (n < 0) return bad(name, info, 2);
    if (rhs && nrhs < 0) return bad(name, info, 3);
    if (lda < max1(n)) return bad(name, info, rhs ? 5 : 4);
    if (rhs && ldb < max1(n)) return bad(name, info, 7);
    if (n == 0 || (op == TSL__LAPACK_POTRS && nrhs == 0)) return DONE;
    return tsl__blas_dev_lapack(st, prec,
                                &(tsl__blas_lapack_args){.op = op,
                                                         .uplo = uplo_of(uplo),
                                                         .m = (size_t)n,
                                                         .n = (size_t)n,
                                                         .nrhs = rhs ? (size_t)nrhs : 0,
                                                         .a = a,
                                                         .lda = (size_t)lda,
                                                         .b = b,
                                                         .ldb = (size_t)ldb,
                                                         .info = info})
               ? DONE
               : RUN_CPU;
}

/* ---- the exported symbols: the CPU LAPACK's function when the device does not take the call */

#define CPU_CALL(base_, st_, type_, ...)                                                        \
    do {                                                                                       \
        static tsl__blas_cpu_fn cpu_ = TSL__BLAS_LAPACK_FN(#base_ "_");                            \
        type_ *f_ = (type_ *)tsl__blas_cpu_get(&cpu_);                                         \
        if (!f_) return;                                                                       \
        double t0_ = tsl__blas_clock();                                                        \
        f_(__VA_ARGS__);                                                                       \
        tsl__blas_stat_add(&(st_), 0, tsl__blas_clock() - t0_);                                \
    } while (0)

#define LAPACK_GETRF(p_, T, base_, name_)                                                       \
    typedef void base_##_fn(const fint *, const fint *, T *, const fint *, fint *, fint *);     \
    TSL_BLAS_API base_##_fn base_##_;                                                                \
    TSL_BLAS_API void base_##_(const fint *m, const fint *n, T *a, const fint *lda, fint *ipiv,   \
                           fint *info)                                                         \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (getrf(&st, p_, name_, *m, *n, a, *lda, ipiv, info) == DONE) return;                \
        CPU_CALL(base_, st, base_##_fn, m, n, a, lda, ipiv, info);                                \
    }

#define LAPACK_GETRS(p_, T, base_, name_)                                                       \
    typedef void base_##_fn(const char *, const fint *, const fint *, const T *, const fint *,  \
                          const fint *, T *, const fint *, fint *, size_t);                    \
    TSL_BLAS_API base_##_fn base_##_;                                                                \
    TSL_BLAS_API void base_##_(const char *trans, const fint *n, const fint *nrhs, const T *a,    \
                           const fint *lda, const fint *ipiv, T *b, const fint *ldb,           \
                           fint *info, size_t trans_len)                                       \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (getrs(&st, p_, name_, *trans, *n, *nrhs, a, *lda, ipiv, b, *ldb, info) == DONE)    \
            return;                                                                            \
        CPU_CALL(base_, st, base_##_fn, trans, n, nrhs, a, lda, ipiv, b, ldb, info, trans_len);   \
    }

#define LAPACK_GESV(p_, T, base_, name_)                                                        \
    typedef void base_##_fn(const fint *, const fint *, T *, const fint *, fint *, T *,         \
                          const fint *, fint *);                                               \
    TSL_BLAS_API base_##_fn base_##_;                                                                \
    TSL_BLAS_API void base_##_(const fint *n, const fint *nrhs, T *a, const fint *lda, fint *ipiv, \
                           T *b, const fint *ldb, fint *info)                                  \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (gesv(&st, p_, name_, *n, *nrhs, a, *lda, ipiv, b, *ldb, info) == DONE) return;     \
        CPU_CALL(base_, st, base_##_fn, n, nrhs, a, lda, ipiv, b, ldb, info);                     \
    }

#define LAPACK_POTRF(p_, T, base_, name_)                                                       \
    typedef void base_##_fn(const char *, const fint *, T *, const fint *, fint *, size_t);     \
    TSL_BLAS_API base_##_fn base_##_;                                                                \
    TSL_BLAS_API void base_##_(const char *uplo, const fint *n, T *a, const fint *lda, fint *info, \
                           size_t uplo_len)                                                    \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (potr(&st, p_, name_, TSL__LAPACK_POTRF, *uplo, *n, -1, a, *lda, NULL, 1, info) ==  \
            DONE)                                                                              \
            return;                                                                            \
        CPU_CALL(base_, st, base_##_fn, uplo, n, a, lda, info, uplo_len);                         \
    }

/* potrs (A const) and posv (A written) have one argument list but for A's constness. */
#define LAPACK_POTRS(p_, T, AT, base_, name_, op_)                                              \
    typedef void base_##_fn(const char *, const fint *, const fint *, AT *, const fint *, T *,  \
                          const fint *, fint *, size_t);                                       \
    TSL_BLAS_API base_##_fn base_##_;                                                                \
    TSL_BLAS_API void base_##_(const char *uplo, const fint *n, const fint *nrhs, AT *a,          \
                           const fint *lda, T *b, const fint *ldb, fint *info, size_t uplo_len) \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (potr(&st, p_, name_, op_, *uplo, *n, *nrhs, (void *)a, *lda, b, *ldb, info) ==     \
            DONE)                                                                              \
            return;                                                                            \
        CPU_CALL(base_, st, base_##_fn, uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);           \
    }

LAPACK_GETRF('s', float, sgetrf, "SGETRF")
LAPACK_GETRF('d', double, dgetrf, "DGETRF")
LAPACK_GETRS('s', float, sgetrs, "SGETRS")
LAPACK_GETRS('d', double, dgetrs, "DGETRS")
LAPACK_GESV('s', float, sgesv, "SGESV")
LAPACK_GESV('d', double, dgesv, "DGESV")
LAPACK_POTRF('s', float, spotrf, "SPOTRF")
LAPACK_POTRF('d', double, dpotrf, "DPOTRF")
LAPACK_POTRS('s', float, const float, spotrs, "SPOTRS", TSL__LAPACK_POTRS)
LAPACK_POTRS('d', double, const double, dpotrs, "DPOTRS", TSL__LAPACK_POTRS)
LAPACK_POTRS('s', float, float, sposv, "SPOSV", TSL__LAPACK_POSV)
LAPACK_POTRS('d', double, double, dposv, "DPOSV", TSL__LAPACK_POSV)

typedef void dsgesv_fn(const fint *, const fint *, double *, const fint *, fint *, const double *,
                       const fint *, double *, const fint *, double *, float *, fint *, fint *);
TSL_BLAS_API dsgesv_fn dsgesv_;
TSL_BLAS_API void dsgesv_(const fint *n, const fint *nrhs, double *a, const fint *lda, fint *ipiv,
                          const double *b, const fint *ldb, double *x, const fint *ldx,
                          double *work, float *swork, fint *iter, fint *info)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dsgesv");
    if (dsgesv(&st, *n, *nrhs, a, *lda, ipiv, b, *ldb, x, *ldx, iter, info) == DONE) return;
    CPU_CALL(dsgesv, st, dsgesv_fn, n, nrhs, a, lda, ipiv, b, ldb, x, ldx, work, swork, iter,
             info);
}

typedef void dsposv_fn(const char *, const fint *, const fint *, double *, const fint *,
                       const double *, const fint *, double *, const fint *, double *, float *,
                       fint *, fint *, size_t);
TSL_BLAS_API dsposv_fn dsposv_;
TSL_BLAS_API void dsposv_(const char *uplo, const fint *n, const fint *nrhs, double *a,
                          const fint *lda, const double *b, const fint *ldb, double *x,
                          const fint *ldx, double *work, float *swork, fint *iter, fint *info,
                          size_t uplo_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dsposv");
    if (dsposv(&st, *uplo, *n, *nrhs, a, *lda, b, *ldb, x, *ldx, iter, info) == DONE) return;
    CPU_CALL(dsposv, st, dsposv_fn, uplo, n, nrhs, a, lda, b, ldb, x, ldx, work, swork, iter,
             info, uplo_len);
}

#define LAPACK_GEQRF(p_, T, base_, name_)                                                       \
    typedef void base_##_fn(const fint *, const fint *, T *, const fint *, T *, T *,            \
                            const fint *, fint *);                                             \
    TSL_BLAS_API base_##_fn base_##_;                                                          \
    TSL_BLAS_API void base_##_(const fint *m, const fint *n, T *a, const fint *lda, T *tau,     \
                               T *work, const fint *lwork, fint *info)                         \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (geqrf(&st, p_, name_, *m, *n, a, *lda, tau, *lwork, info) == DONE) return;         \
        CPU_CALL(base_, st, base_##_fn, m, n, a, lda, tau, work, lwork, info);                 \
    }

#define LAPACK_ORMQR(p_, T, base_, name_)                                                       \
    typedef void base_##_fn(const char *, const char *, const fint *, const fint *,             \
                            const fint *, const T *, const fint *, const T *, T *,             \
                            const fint *, T *, const fint *, fint *, size_t, size_t);          \
    TSL_BLAS_API base_##_fn base_##_;                                                          \
    TSL_BLAS_API void base_##_(const char *side, const char *trans, const fint *m,              \
                               const fint *n, const fint *k, const T *a, const fint *lda,      \
                               const T *tau, T *c, const fint *ldc, T *work,                   \
                               const fint *lwork, fint *info, size_t side_len,                 \
                               size_t trans_len)                                               \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (ormqr(&st, p_, name_, *side, *trans, *m, *n, *k, a, *lda, tau, c, *ldc, *lwork,    \
                  info) == DONE)                                                               \
            return;                                                                            \
        CPU_CALL(base_, st, base_##_fn, side, trans, m, n, k, a, lda, tau, c, ldc, work,       \
                 lwork, info, side_len, trans_len);                                            \
    }

#define LAPACK_GELS(p_, T, base_, name_)                                                        \
    typedef void base_##_fn(const char *, const fint *, const fint *, const fint *, T *,        \
                            const fint *, T *, const fint *, T *, const fint *, fint *,        \
                            size_t);                                                           \
    TSL_BLAS_API base_##_fn base_##_;                                                          \
    TSL_BLAS_API void base_##_(const char *trans, const fint *m, const fint *n,                 \
                               const fint *nrhs, T *a, const fint *lda, T *b, const fint *ldb, \
                               T *work, const fint *lwork, fint *info, size_t trans_len)       \
    {                                                                                          \
        static tsl__blas_stat st = TSL__BLAS_STAT(#base_);                                     \
        if (gels(&st, p_, name_, *trans, *m, *n, *nrhs, a, *lda, b, *ldb, *lwork, info) ==     \
            DONE)                                                                              \
            return;                                                                            \
        CPU_CALL(base_, st, base_##_fn, trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info,  \
                 trans_len);                                                                   \
    }

LAPACK_GEQRF('s', float, sgeqrf, "SGEQRF")
LAPACK_GEQRF('d', double, dgeqrf, "DGEQRF")
LAPACK_ORMQR('s', float, sormqr, "SORMQR")
LAPACK_ORMQR('d', double, dormqr, "DORMQR")
LAPACK_GELS('s', float, sgels, "SGELS")
LAPACK_GELS('d', double, dgels, "DGELS")
