/* common.cl: the prelude of every tessel program (the host puts it before each family's file).
 * Precision comes from one -DPRECISION=32|64 that sets the type `real`; every kernel is written
 * once in terms of it. Kernels that support half storage (the GEMM ladder) also read and write
 * their matrices through `sreal`, LOAD and STORE, so that -DSTORAGE_HALF=1 turns them into
 * binary16-in-memory kernels with float arithmetic, without a second copy of any kernel. */
#ifndef PRECISION
#define PRECISION 32
#endif

#if PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
#define REALNAME double
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
typedef double16 real16;
#define ZERO 0.0
#else
typedef float real;
#define REALNAME float
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
typedef float16 real16;
#define ZERO 0.0f
#endif

/* The type of matrices in global memory, and how one element is read (as a real) and written.
 * STORAGE_HALF=1 (with PRECISION=32): IEEE binary16 in memory through vload_half and
 * vstore_half_rte, which are core OpenCL C built-ins (no cl_khr_fp16: `half` is only ever a
 * pointer target here, never a value), while every sum and product is in float. Otherwise the
 * matrices are `real`, and LOAD and STORE are plain accesses (the same code as before). */
#ifndef STORAGE_HALF
#define STORAGE_HALF 0
#endif
/* STORAGE_BF16=1 (with PRECISION=32): bfloat16 in memory (the top 16 bits of a float, as ushort),
 * float arithmetic; a load is a shift, a store rounds to nearest even exactly as the host's
 * tsl_float_to_bf16 does (NaN kept quiet, overflow to infinity). */
#ifndef STORAGE_BF16
#define STORAGE_BF16 0
#endif
#define STORAGE16 (STORAGE_HALF || STORAGE_BF16)
#if STORAGE16 && PRECISION != 32
#error "16-bit storage computes in float: build it with PRECISION=32"
#endif
#if STORAGE_HALF && STORAGE_BF16
#error "STORAGE_HALF and STORAGE_BF16 exclude each other"
#endif
#if STORAGE_HALF
typedef half sreal;
#define LOAD(p, i) vload_half((i), (p))
#define STORE(v, p, i) vstore_half_rte((v), (i), (p))
#elif STORAGE_BF16
typedef ushort sreal;
float bf16_to_float(ushort b) { return as_float((uint)b << 16); }
ushort float_to_bf16(float v)
{
    uint u = as_uint(v);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (ushort)((u >> 16) | 0x0040u);
    return (ushort)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
#define LOAD(p, i) bf16_to_float((p)[i])
#define STORE(v, p, i) ((p)[i] = float_to_bf16(v))
#else
typedef real sreal;
#define LOAD(p, i) ((p)[i])
#define STORE(v, p, i) ((p)[i] = (v))
#endif

/* C = alpha * acc + beta * C, reading C only when beta is not zero (BLAS: beta == 0 means C is
 * output only, so NaN or garbage in C does not propagate). */
#define GEMM_STORE(c, alpha, acc, beta) \
    (c) = ((beta) == ZERO) ? (alpha) * (acc) : (alpha) * (acc) + (beta) * (c)
/* The same for element i of a matrix p of sreal (the kernels with half storage). */
#define GEMM_STORE_AT(p, i, alpha, acc, beta) \
    STORE(((beta) == ZERO) ? (alpha) * (acc) : (alpha) * (acc) + (beta) * LOAD(p, i), p, i)

/* Sum of v over a 1D work-group, by a fixed tree in local memory: buf holds one real per
 * work-item, and the local size must be a power of two. A fixed shape adds in a fixed order, so
 * a reduction built on it gives the same bits on every run (no atomics). Every work-item gets
 * the sum. Used by the BLAS-1/2 reductions (blas1.cl, gemv.cl); TSL_GROUP_SUM(name, T) makes the
 * same function for another type (blas1.cl's double sums of single-precision data). */
#define TSL_GROUP_SUM(name, T)                                                                  \
    T name(__local T *buf, T v)                                                                 \
    {                                                                                           \
        const int lid = get_local_id(0);                                                        \
        buf[lid] = v;                                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                           \
        for (int s = (int)get_local_size(0) / 2; s > 0; s >>= 1) {                              \
            if (lid < s) buf[lid] += buf[lid + s];                                              \
            barrier(CLK_LOCAL_MEM_FENCE);                                                       \
        }                                                                                       \
        v = buf[0];                                                                             \
        barrier(CLK_LOCAL_MEM_FENCE); /* buf may be reused right after */                       \
        return v;                                                                               \
    }
TSL_GROUP_SUM(group_sum, real)

/* Work-groups that wait on each other's results through counters in global memory (the tasks of
 * level3.cl's fused inverses, lapack.cl's LU columns): a group's item 0 spins until *ctr reaches
 * need, with atomics, then fences, before the group's barrier (the pattern of CUDA's grid
 * synchronization, whose fence also drops what the SM's L1 held); a group that is done fences
 * its stores, meets at a barrier, and its item 0 counts it done. The fence is at the device's
 * scope where the host names NVIDIA's (NV_FENCE: inline PTX, since its OpenCL compiles mem_fence
 * to a fence of the work-group's scope only, MEMBAR.SC.CTA), else mem_fence. The host launches
 * such kernels so that a group waits only on work that groups already running hold (tickets). */
#ifndef NV_FENCE
#define NV_FENCE 0
#endif
#if NV_FENCE
#define DEVICE_FENCE() __asm__ __volatile__("membar.gl;" ::: "memory")
#else
#define DEVICE_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
void group_wait(volatile __global int *ctr, const int need)
{
    if (get_local_id(0) == 0) {
        while (atomic_add(ctr, 0) < need)
            ;
        DEVICE_FENCE();
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
void group_signal(volatile __global int *ctr)
{
    DEVICE_FENCE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) atomic_inc(ctr);
}
