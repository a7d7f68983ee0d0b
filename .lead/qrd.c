#include <stdio.h>
void dgeqrf_(const int*,const int*,double*,const int*,double*,double*,const int*,int*);
void dgetrf_(const int*,const int*,double*,const int*,int*,int*);
int main(void){ int m=40,n=30,lw=64*30,info; double a[1200],tau[30],w[64*30]; int ip[40];
 for(int i=0;i<1200;i++) a[i]=(i*7%13)-6.5;
 dgeqrf_(&m,&n,a,&m,tau,w,&lw,&info); printf("info %d r00 %g\n",info,a[0]);
 dgetrf_(&m,&n,a,&m,ip,&info); return 0;}
