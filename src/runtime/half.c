/* half.c: the 16-bit storage formats on the host: IEEE binary16 (tsl_hgemm's matrices) and
 * bfloat16 (tsl_bgemm's), converted from and to float by integer operations on the bits, so the
 * result does not depend on the host's floating-point environment (rounding mode, flush-to-zero)
 * or on a compiler's _Float16 / __bf16. The one place tessel converts them: the CLI and the tests
 * use these too. */
#include <string.h>

#include "tessel.h"

uint16_t tsl_float_to_half(float x)
{
    uint32_t f;
    memcpy(&f, &x, sizeof f);
    uint16_t sign = (uint16_t)((f >> 16) & 0x8000u);
    uint32_t mag = f & 0x7FFFFFFFu;
    if (mag >= 0x7F800000u) { /* infinity, or NaN: kept quiet, with its top payload bits */
        if (mag == 0x7F800000u) return sign | 0x7C00u;
        return (uint16_t)(sign | 0x7E00u | ((mag >> 13) & 0x03FFu));
    }
    /* 65520 = 65504 (the largest half) + half a step: from there on the nearest even is 2^16,
     * which is infinity. */
    if (mag >= 0x477FF000u) return sign | 0x7C00u;
    if (mag >= 0x38800000u) { /* 2^-14 and up: a normal half; rebias 127 -> 15, round 13 bits */
        uint32_t h = (mag >> 13) - ((127u - 15u) << 10), rest = mag & 0x1FFFu;
        if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; /* a carry may reach 2^-14+ */
        return (uint16_t)(sign | h);
    }
    /* Below 2^-14: a subnormal half, a multiple of 2^-24. 2^-25 is half of the smallest one, and
     * ties go to the even neighbour, 0. */
    if (mag <= 0x33000000u) return sign;
    uint32_t e = mag >> 23, m = (mag & 0x007FFFFFu) | 0x00800000u;
    unsigned shift = 126u - e; /* x / 2^-24 = m * 2^(e - 126); 14 <= shift <= 24 here */
    uint32_t q = m >> shift, rest = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
    if (rest > halfway || (rest == halfway && (q & 1u))) ++q; /* 0x400 is 2^-14, still right */
    return (uint16_t)(sign | q);
}

float tsl_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x03FFu, f;
    if (e == 0x1Fu) {
        f = sign | 0x7F800000u | (m << 13); /* infinity or NaN, payload kept */
    } else if (e) {
        f = sign | ((e + 127u - 15u) << 23) | (m << 13);
    } else if (!m) {
        f = sign; /* signed zero */
    } else {      /* subnormal m * 2^-24: normalize */
        e = 127u - 15u + 1u;
        while (!(m & 0x0400u)) {
            m <<= 1;
            --e;
        }
        f = sign | (e << 23) | ((m & 0x03FFu) << 13);
    }
    float x;
    memcpy(&x, &f, sizeof x);
    return x;
}

/* bfloat16 is the top half of a float: rounding to it is adding just under half a unit of the
 * 16 dropped bits, plus the kept part's lowest bit (so an exact tie goes to the even one), and
 * truncating. A carry runs into the exponent where it must (0x1.ffp127 and up become infinity,
 * the largest subnormal rounds up to the smallest normal); NaN is made quiet instead, since the
 * carry could turn a NaN whose payload sits in the dropped bits into infinity. */
uint16_t tsl_float_to_bf16(float x)
{
    uint32_t f;
    memcpy(&f, &x, sizeof f);
    if ((f & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((f >> 16) | 0x0040u);
    f += 0x7FFFu + ((f >> 16) & 1u);
    return (uint16_t)(f >> 16);
}

float tsl_bf16_to_float(uint16_t b)
{
    uint32_t f = (uint32_t)b << 16;
    float x;
    memcpy(&x, &f, sizeof x);
    return x;
}
