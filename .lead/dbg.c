#include "tessel.h"
#include <stdio.h>
int main(void){
  tsl_context *ctx; tsl_context_create(NULL,&ctx);
  double a[3]={1,0.5,0.25}, tau[1]={2.0/(1+0.25+0.0625)}, c[3]={1,2,3};
  tsl_status s=tsl_dormqr(ctx,TSL_COL_MAJOR,TSL_LEFT,TSL_NO_TRANS,3,1,1,a,3,tau,c,3);
  printf("%d %s: %g %g %g\n",s,tsl_context_error(ctx),c[0],c[1],c[2]);
  /* expected: c - tau v (v.c) */
  double v[3]={1,0.5,0.25},d=1+1+0.75; for(int i=0;i<3;i++) printf("%g ",(double[]){1,2,3}[i]-tau[0]*v[i]*d); printf("\n");
}
