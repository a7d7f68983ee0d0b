/* Which SM runs each work-group: group l and group l + P (P = compute units) on the same SM?
 * 1024-item groups (2 per SM) of a short spin; then two launches of 128 groups on two queues. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
static const char *src =
  "__kernel void who(__global uint *o, int iters) {\n"
  "  uint id; asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(id));\n"
  "  float x = get_global_id(0) * 1e-7f;\n"
  "  for (int i = 0; i < iters; i++) x = x * 0.9999f + 1e-7f;\n"
  "  if (get_local_id(0) == 0) o[get_group_id(0)] = id + (x == 12345.f);\n"
  "}\n";
int main(void) {
  cl_platform_id ps[4]; cl_uint np; cl_device_id d = 0; cl_int e;
  clGetPlatformIDs(4, ps, &np);
  for (cl_uint i = 0; i < np && !d; i++) if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
  if (!d) { puts("no GPU"); return 1; }
  cl_uint cu; clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  if (clBuildProgram(pr, 1, &d, "", NULL, NULL)) { char log[4096]; clGetProgramBuildInfo(pr, d, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); puts(log); return 1; }
  cl_kernel k = clCreateKernel(pr, "who", &e);
  cl_mem o1 = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096 * 4, NULL, &e), o2 = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096 * 4, NULL, &e);
  cl_command_queue q1 = clCreateCommandQueue(c, d, 0, &e), q2 = clCreateCommandQueue(c, d, 0, &e);
  int it = 20000; size_t l = 1024;
  for (int rep = 0; rep < 3; rep++) {
    size_t n = 2 * cu - 8, g = n * l; unsigned h[4096];
    clSetKernelArg(k, 0, sizeof o1, &o1); clSetKernelArg(k, 1, sizeof it, &it);
    clEnqueueNDRangeKernel(q1, k, 1, NULL, &g, &l, 0, NULL, NULL);
    clEnqueueReadBuffer(q1, o1, CL_TRUE, 0, n * 4, h, 0, NULL, NULL);
    int same = 0; for (size_t i = 0; i + cu < n; i++) same += h[i] == h[i + cu];
    int distinct = 0; for (size_t i = 0; i < cu; i++) { int dup = 0; for (size_t j = 0; j < i; j++) dup |= h[j] == h[i]; distinct += !dup; }
    printf("one launch of %zu groups (CU %u): groups l and l+CU on one SM: %d of %zu; first CU groups on %d distinct SMs\n", n, cu, same, n - cu, distinct);
    printf("  smid of groups 0..15: "); for (int i = 0; i < 16; i++) printf("%u ", h[i]); printf("\n  of CU..CU+15: ");
    for (int i = 0; i < 16; i++) printf("%u ", h[cu + i]); printf("\n");
    /* two launches of 128 on two queues */
    size_t m = 128, gm = m * l; unsigned h2[4096];
    clSetKernelArg(k, 0, sizeof o1, &o1); clEnqueueNDRangeKernel(q1, k, 1, NULL, &gm, &l, 0, NULL, NULL); clFlush(q1);
    clSetKernelArg(k, 0, sizeof o2, &o2); clEnqueueNDRangeKernel(q2, k, 1, NULL, &gm, &l, 0, NULL, NULL); clFlush(q2);
    clEnqueueReadBuffer(q1, o1, CL_TRUE, 0, m * 4, h, 0, NULL, NULL);
    clEnqueueReadBuffer(q2, o2, CL_TRUE, 0, m * 4, h2, 0, NULL, NULL);
    same = 0; for (size_t i = 0; i < m; i++) same += h[i] == h2[i];
    printf("two launches of 128 on two queues: group i of both on one SM: %d of 128\n", same);
  }
  return 0;
}
