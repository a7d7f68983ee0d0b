/* Does NVIDIA's OpenCL honour queue priorities (cl_khr_priority_hints)? A long kernel of many
 * spinning work-groups on a low-priority queue, then a short one on a high-priority queue:
 * where priorities work, the short one starts long before the long one ends. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef CL_QUEUE_PRIORITY_KHR
#define CL_QUEUE_PRIORITY_KHR 0x1096
#define CL_QUEUE_PRIORITY_HIGH_KHR (1 << 0)
#define CL_QUEUE_PRIORITY_MED_KHR (1 << 1)
#define CL_QUEUE_PRIORITY_LOW_KHR (1 << 2)
#endif
static const char *src =
  "__kernel void spin(__global float *o, int iters) {\n"
  "  float x = get_global_id(0) * 1e-7f;\n"
  "  for (int i = 0; i < iters; i++) x = x * 0.9999f + 1e-7f;\n"
  "  if (x == 12345.f) o[get_global_id(0)] = x;\n"
  "}\n";
int main(void) {
  cl_platform_id p[4]; cl_uint np; clGetPlatformIDs(4, p, &np);
  cl_device_id d = 0;
  for (cl_uint i = 0; i < np && !d; i++) if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS) d = 0;
  if (!d) { puts("no GPU"); return 1; }
  char ext[8192]; clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
  printf("extensions: %s\n", ext);
  printf("priority_hints listed: %s\n", strstr(ext, "cl_khr_priority_hints") ? "yes" : "no");
  cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e);
  clBuildProgram(pr, 1, &d, "", NULL, NULL);
  cl_kernel k1 = clCreateKernel(pr, "spin", &e), k2 = clCreateKernel(pr, "spin", &e);
  cl_mem o = clCreateBuffer(c, CL_MEM_READ_WRITE, 1 << 26, NULL, &e);
  for (int mode = 0; mode < 3; mode++) {
    cl_queue_properties plo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_LOW_KHR, 0};
    cl_queue_properties phi[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, CL_QUEUE_PRIORITY_KHR, CL_QUEUE_PRIORITY_HIGH_KHR, 0};
    cl_queue_properties pn[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int e1, e2;
    cl_command_queue ql = clCreateCommandQueueWithProperties(c, d, mode ? plo : pn, &e1);
    cl_command_queue qh = clCreateCommandQueueWithProperties(c, d, mode ? phi : pn, &e2);
    if (e1 || e2) { printf("mode %d: queue creation failed %d %d\n", mode, e1, e2); continue; }
    int it1 = 200000, it2 = 20000;
    clSetKernelArg(k1, 0, sizeof o, &o); clSetKernelArg(k1, 1, sizeof it1, &it1);
    clSetKernelArg(k2, 0, sizeof o, &o); clSetKernelArg(k2, 1, sizeof it2, &it2);
    for (int rep = 0; rep < 3; rep++) {
      size_t g1 = 256 * 132 * 16 * 8, l = 256, g2 = 256 * 132;
      cl_event a, b;
      clEnqueueNDRangeKernel(ql, k1, 1, NULL, &g1, &l, 0, NULL, &a);
      clFlush(ql);
      if (mode == 2) { /* high queue second, submitted a little later */ }
      clEnqueueNDRangeKernel(qh, k2, 1, NULL, &g2, &l, 0, NULL, &b);
      clFlush(qh); clFinish(ql); clFinish(qh);
      cl_ulong as, ae, bs, be;
      clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_START, 8, &as, NULL);
      clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_END, 8, &ae, NULL);
      clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_START, 8, &bs, NULL);
      clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_END, 8, &be, NULL);
      printf("mode %s rep %d: long %.0f us; short starts at +%.0f, ends at +%.0f (alone it would take %.0f)\n",
             mode ? "low/high" : "default", rep, (ae - as) / 1e3, ((double)bs - as) / 1e3, ((double)be - as) / 1e3, (be - bs) / 1e3);
      clReleaseEvent(a); clReleaseEvent(b);
    }
    clReleaseCommandQueue(ql); clReleaseCommandQueue(qh);
  }
  return 0;
}
