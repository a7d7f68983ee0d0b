/* copy.cl: the copy reference of the memory-bound family. tsl_copy_buf moves bytes from one
 * buffer to another with this kernel, and every memory-bound result is quoted as a ratio to its
 * bandwidth, measured in the same run: it is the device's attainable read + write speed with the
 * simplest possible access pattern (each work-item one 16-byte vector, consecutive work-items on
 * consecutive vectors, so every access is fully coalesced).
 *
 * Any byte count: the host passes the number of whole 16-byte vectors and the 0..15 bytes left
 * over, which work-item 0 copies one by one after its vector. Buffers start at an OpenCL buffer's
 * base address, which the device aligns far beyond 16 bytes, so the vector accesses are aligned. */

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_copy_vec)
__kernel void copy_vec(__global const uint4 *src, __global uint4 *dst, const ulong nvec,
                       const uint tail)
{
    const size_t i = get_global_id(0);
    if (i < nvec) dst[i] = src[i];
    if (i == 0 && tail) {
        __global const uchar *s = (__global const uchar *)(src + nvec);
        __global uchar *d = (__global uchar *)(dst + nvec);
        for (uint b = 0; b < tail; ++b) d[b] = s[b];
    }
}
#endif
