/* nbody.cl: one step of the all-pairs N-body simulation of 002 (section 5.4), one work-item per
 * body. Positions are real4 (x, y, z, mass), velocities real4 (vx, vy, vz, unused: carried
 * through unchanged). Body i gets the acceleration
 *     a_i = sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + eps2)^(3/2)      (G = 1, eps2 > 0)
 * over every j, itself included: its own term is 0 because eps2 > 0 (the host checks that), so
 * no branch is needed. Then v_i += a_i dt, r_i += v_i dt (semi-implicit Euler). Each launch reads
 * the positions of the step from pos_in and writes the next ones to pos_out (the host swaps the
 * two between launches), so no work-item sees a position another one has already moved.
 *
 * Two kernels, the steps of 002's ladder: nbody_all_pairs (`original`: every position read from
 * global memory) and nbody_tiled (`local`: the work-group stages WG positions at a time in local
 * memory and every work-item reads them from there; `optimized`: the same with the inner loop
 * unrolled UNROLL = 2 times by hand). Both sum over j in increasing order with the same
 * operations, the order of the host's sequential version (src/ref/workloads_nbody.c).
 *
 * The host builds each program with -DONLY_ONE_KERNEL -DONLY_<kernel name>; without those
 * options the file compiles every kernel, on its own. The API is single precision; the file is
 * written in terms of `real` like every tessel kernel. */

/* acc += m_j (r_j - r_i) / (|r_j - r_i|^2 + eps2)^(3/2) for the body pj = (x, y, z, m_j). */
#define NBODY_INTERACT(acc, ri, pj, eps2)                                                          \
    do {                                                                                           \
        const real4 d_ = (pj) - (ri);                                                              \
        const real r2_ = d_.x * d_.x + d_.y * d_.y + d_.z * d_.z + (eps2);                         \
        const real inv_ = rsqrt(r2_);                                                              \
        const real s_ = (pj).w * (inv_ * inv_ * inv_);                                             \
        (acc).x += d_.x * s_;                                                                      \
        (acc).y += d_.y * s_;                                                                      \
        (acc).z += d_.z * s_;                                                                      \
    } while (0)

/* v += a dt, then r += v dt with the new v; the mass (r.w) and v.w are written back unchanged. */
#define NBODY_UPDATE(i, ri, acc, dt, pos_out, vel)                                                 \
    do {                                                                                           \
        real4 v_ = (vel)[i];                                                                       \
        v_.x += (acc).x * (dt);                                                                    \
        v_.y += (acc).y * (dt);                                                                    \
        v_.z += (acc).z * (dt);                                                                    \
        real4 r_ = (ri);                                                                           \
        r_.x += v_.x * (dt);                                                                       \
        r_.y += v_.y * (dt);                                                                       \
        r_.z += v_.z * (dt);                                                                       \
        (pos_out)[i] = r_;                                                                         \
        (vel)[i] = v_;                                                                             \
    } while (0)

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nbody_all_pairs)
/* ---- original: each work-item walks all n positions in global memory (002's original kernel,
 * float4 vectors for the three directions). Work-items past n (the last work-group's tail)
 * return at once: they take part in no barrier. -------------------------------------------- */
__kernel void nbody_all_pairs(const int n, const real dt, const real eps2,
                              __global const real4 *pos_in, __global real4 *pos_out,
                              __global real4 *vel)
{
    const int i = get_global_id(0);
    if (i >= n) return;
    const real4 ri = pos_in[i];
    real4 acc = (real4)(ZERO);
    for (int j = 0; j < n; ++j) NBODY_INTERACT(acc, ri, pos_in[j], eps2);
    NBODY_UPDATE(i, ri, acc, dt, pos_out, vel);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_nbody_tiled)
/* ---- local / optimized: tiles of WG positions through local memory (002's tiling and data
 * redistribution), the inner loop unrolled UNROLL times (002's loop unrolling; 1 = none).
 * Each work-item loads one position of the tile; a tile that runs past n is padded with
 * zero-mass bodies at the origin, whose terms are exactly zero (eps2 > 0 keeps them finite), so
 * the inner loop has a fixed trip count the compiler can unroll. Work-items past n load, wait at
 * every barrier and compute like the others, and only skip the final store. ----------------- */
#ifndef WG
#define WG 64
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#if UNROLL != 1 && UNROLL != 2 && UNROLL != 4
#error "UNROLL must be 1, 2 or 4"
#endif
#define NBODY_MAIN (WG / UNROLL * UNROLL) /* tile entries the unrolled loop covers */

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void nbody_tiled(const int n, const real dt, const real eps2, __global const real4 *pos_in,
                 __global real4 *pos_out, __global real4 *vel)
{
    __local real4 tile[WG];
    const int i = get_global_id(0), lid = get_local_id(0);
    const real4 ri = i < n ? pos_in[i] : (real4)(ZERO);
    real4 acc = (real4)(ZERO);
    for (int base = 0; base < n; base += WG) {
        const int j = base + lid;
        tile[lid] = j < n ? pos_in[j] : (real4)(ZERO);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < NBODY_MAIN; k += UNROLL) {
            NBODY_INTERACT(acc, ri, tile[k], eps2);
#if UNROLL >= 2
            NBODY_INTERACT(acc, ri, tile[k + 1], eps2);
#endif
#if UNROLL >= 4
            NBODY_INTERACT(acc, ri, tile[k + 2], eps2);
            NBODY_INTERACT(acc, ri, tile[k + 3], eps2);
#endif
        }
        for (int k = NBODY_MAIN; k < WG; ++k) NBODY_INTERACT(acc, ri, tile[k], eps2);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n) NBODY_UPDATE(i, ri, acc, dt, pos_out, vel);
}
#endif
