/* tessel_cl.h: OpenCL interoperability for libtessel. Gives the cl objects behind a context and
 * a buffer, so a program (or a peer library such as CLBlast) can enqueue its own work on the same
 * queue and memory. The context keeps ownership: do not release what these return. */
#ifndef TESSEL_CL_H
#define TESSEL_CL_H

#include "tessel.h"
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

TSL_EXPORT cl_context tsl_context_cl_context(const tsl_context *ctx);
TSL_EXPORT cl_device_id tsl_context_cl_device(const tsl_context *ctx);
TSL_EXPORT cl_command_queue tsl_context_cl_queue(const tsl_context *ctx); /* profiling enabled */
TSL_EXPORT cl_mem tsl_buffer_cl_mem(const tsl_buffer *buf);

#ifdef __cplusplus
}
#endif
#endif /* TESSEL_CL_H */
