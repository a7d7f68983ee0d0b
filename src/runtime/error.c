/* error.c: the error vocabulary of tessel. One X-macro list gives each tsl_status its name;
 * every OpenCL status is turned into a tsl_status plus a message that names the failing call and
 * the OpenCL error by name, so a user reads CL_OUT_OF_RESOURCES rather than -5. */
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"

#define TSL__STATUS_MAP(X)                                                                       \
    X(TSL_OK)                                                                                    \
    X(TSL_ERR_INVALID_ARG)                                                                       \
    X(TSL_ERR_NO_DEVICE)                                                                         \
    X(TSL_ERR_OUT_OF_MEMORY)                                                                     \
    X(TSL_ERR_BUILD)                                                                             \
    X(TSL_ERR_OPENCL)                                                                            \
    X(TSL_ERR_UNSUPPORTED)                                                                       \
    X(TSL_ERR_IO)

const char *tsl_status_name(tsl_status s)
{
    switch (s) {
#define TSL__NAME(n) \
    case n: return #n;
        TSL__STATUS_MAP(TSL__NAME)
#undef TSL__NAME
    }
    return "TSL_ERR_UNKNOWN";
}

const char *tsl_version(void) { return TESSEL_VERSION_STRING; }

static _Thread_local char last_error[2048];

const char *tsl_last_error(void) { return last_error; }

tsl_status tsl__fail(tsl_context *ctx, tsl_status s, const char *fmt, ...)
{
    char *dst = ctx ? ctx->error : last_error;
    size_t cap = ctx ? sizeof ctx->error : sizeof last_error;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
    if (ctx) snprintf(last_error, sizeof last_error, "%s", ctx->error);
    return s;
}

void tsl__clear_error(tsl_context *ctx)
{
    if (ctx) ctx->error[0] = '\0';
}

const char *tsl__cl_error_name(cl_int err)
{
    switch (err) {
#define E(n) \
    case n: return #n;
        E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
        E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP) E(CL_IMAGE_FORMAT_MISMATCH)
        E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
        E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE) E(CL_LINK_PROGRAM_FAILURE)
        E(CL_DEVICE_PARTITION_FAILED) E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
        E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT)
        E(CL_INVALID_QUEUE_PROPERTIES) E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
        E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_INVALID_IMAGE_SIZE)
        E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
        E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_KERNEL_DEFINITION)
        E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
        E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
        E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
        E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT)
        E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL) E(CL_INVALID_GLOBAL_WORK_SIZE)
        E(CL_INVALID_PROPERTY) E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
        E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    return "CL_UNKNOWN_ERROR";
}

tsl_status tsl__cl_fail(tsl_context *ctx, const char *call, cl_int err, const char *what)
{
    tsl_status s = TSL_ERR_OPENCL;
    if (err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
        err == CL_INVALID_BUFFER_SIZE)
        s = TSL_ERR_OUT_OF_MEMORY;
    else if (err == CL_BUILD_PROGRAM_FAILURE || err == CL_COMPILE_PROGRAM_FAILURE)
        s = TSL_ERR_BUILD;
    else if (err == CL_DEVICE_NOT_FOUND || err == -1001)
        s = TSL_ERR_NO_DEVICE;
    return tsl__fail(ctx, s, "%s failed: %s (%d)%s%s", call, tsl__cl_error_name(err), (int)err,
                     what && *what ? " while " : "", what ? what : "");
}
