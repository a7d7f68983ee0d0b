#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
static const char *src="__kernel void spin(__global float *x,int n){int g=get_global_id(0);float a=x[g];for(int i=0;i<n;i++)a=a*0.9999f+0.0001f;x[g]=a;}";
int main(void){
  cl_platform_id P[8];cl_uint np;clGetPlatformIDs(8,P,&np);
  cl_device_id d=0;for(cl_uint i=0;i<np&&!d;i++){if(clGetDeviceIDs(P[i],CL_DEVICE_TYPE_GPU,1,&d,NULL)!=CL_SUCCESS)d=0;}
  if(!d){printf("no gpu\n");return 1;}
  cl_int e;cl_context c=clCreateContext(NULL,1,&d,NULL,NULL,&e);
  cl_program p=clCreateProgramWithSource(c,1,&src,NULL,&e);clBuildProgram(p,1,&d,"",NULL,NULL);
  cl_mem buf=clCreateBuffer(c,CL_MEM_READ_WRITE,4*1024*64,NULL,&e);
  cl_queue_properties ooo[]={CL_QUEUE_PROPERTIES,CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,0};
  cl_command_queue q[8];for(int i=0;i<8;i++)q[i]=clCreateCommandQueueWithProperties(c,d,NULL,&e);
  cl_command_queue qo=clCreateCommandQueueWithProperties(c,d,ooo,&e);
  printf("ooo queue: %s\n",e==CL_SUCCESS?"ok":"refused");
  int n=2000000;
  cl_kernel k[8];for(int i=0;i<8;i++){k[i]=clCreateKernel(p,"spin",&e);clSetKernelArg(k[i],0,sizeof buf,&buf);clSetKernelArg(k[i],1,sizeof n,&n);}
  size_t loc=32;
  for(int mode=0;mode<4;mode++){
    for(int rep=0;rep<2;rep++){
      double t0=now();
      for(int i=0;i<8;i++){size_t off=i*32*64, gl=32;
        cl_command_queue qq= mode==0?q[0]: mode==1?qo: mode==2?q[i%2]:q[i];
        clEnqueueNDRangeKernel(qq,k[i],1,&off,&gl,&loc,0,NULL,NULL);clFlush(qq);}
      for(int i=0;i<8;i++)clFinish(q[i]);clFinish(qo);
      double t1=now();
      if(mode==0&&rep==1){}
      if(rep==1)printf("mode %s: 8 one-group kernels %.2f ms\n",mode==0?"1 in-order queue":mode==1?"1 out-of-order queue":mode==2?"2 queues":"8 queues",1e3*(t1-t0));
    }
  }
  return 0;
}
