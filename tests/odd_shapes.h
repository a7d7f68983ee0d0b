/* odd_shapes.h: the GEMM shapes the tensor-core suites run every configuration on
 * (tests/test_tensor.c, tests/test_dmma_async.c): no side a multiple of any tile, and the last two
 * peel with 64-row tiles (m = 64 + 3, n = 16 + 2; m = 128 + 2, n = 16 + 1). Header-only, like
 * check.h. */
#ifndef TSL_TEST_ODD_SHAPES_H
#define TSL_TEST_ODD_SHAPES_H

#include <stddef.h>

typedef struct {
    size_t m, n, k;
} shape;

static const shape shapes[] = {{1, 1, 1},      {7, 33, 65},    {65, 7, 33},  {33, 127, 7},
                               {127, 65, 200}, {200, 17, 127}, {67, 18, 40}, {130, 17, 33}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

#endif
