#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static const char *src="__kernel void k(__global float *a, int n, int b, int c, int d, int e, int f, int g, int h, int i2, int j, int k2, int l, int m, int o, int p, int q, int r, int s, int t){ int x=get_global_id(0); if(x<n) a[x]+=b+c+d+e+f+g+h+i2+j+k2+l+m+o+p+q+r+s+t; }";
int main(void){
  cl_platform_id pl[4]; cl_uint np; clGetPlatformIDs(4,pl,&np);
  cl_device_id dev=0; for(cl_uint i=0;i<np;i++){char nm[256];clGetPlatformInfo(pl[i],CL_PLATFORM_NAME,256,nm,NULL); if(strstr(nm,"NVIDIA")){clGetDeviceIDs(pl[i],CL_DEVICE_TYPE_GPU,1,&dev,NULL);}}
  if(!dev){printf("no nvidia\n");return 1;}
  cl_int err; cl_context ctx=clCreateContext(NULL,1,&dev,NULL,NULL,&err);
  cl_command_queue qp=clCreateCommandQueue(ctx,dev,CL_QUEUE_PROFILING_ENABLE,&err);
  cl_command_queue qn=clCreateCommandQueue(ctx,dev,0,&err);
  cl_program pr=clCreateProgramWithSource(ctx,1,&src,NULL,&err); clBuildProgram(pr,1,&dev,"",NULL,NULL);
  cl_kernel k=clCreateKernel(pr,"k",&err);
  cl_mem a=clCreateBuffer(ctx,CL_MEM_READ_WRITE,1<<20,NULL,&err);
  int n=1<<18, v=1; clSetKernelArg(k,0,sizeof a,&a); clSetKernelArg(k,1,sizeof n,&n);
  for(int i=2;i<20;i++) clSetKernelArg(k,i,sizeof v,&v);
  size_t g=n, l=256;
  for(int mode=0;mode<6;mode++){
    cl_command_queue q = (mode%3==2)?qn:qp; int ev=(mode%3==0); int args=(mode>=3);
    cl_event evs[200];
    for(int w=0;w<20;w++) clEnqueueNDRangeKernel(q,k,1,NULL,&g,&l,0,NULL,NULL);
    clFinish(q);
    double t0=now(), te=0;
    for(int it=0;it<200;it++){
      if(args) for(int i=2;i<20;i++) clSetKernelArg(k,i,sizeof v,&v);
      double a0=now();
      clEnqueueNDRangeKernel(q,k,1,NULL,&g,&l,0,NULL,ev?&evs[it]:NULL);
      te+=now()-a0;
    }
    double t1=now(); clFinish(q); double t2=now();
    if(ev) for(int it=0;it<200;it++) clReleaseEvent(evs[it]);
    printf("mode %d (%s queue, event %d, setargs %d): enqueue %.2f us/launch, host loop %.2f us/launch, drain %.0f us\n",mode,q==qp?"profiling":"plain",ev,args,te/200,(t1-t0)/200,t2-t1);
  }
  return 0;
}
