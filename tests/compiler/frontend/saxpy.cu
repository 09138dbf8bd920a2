extern "C" __global__ void saxpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i] = a * x[i] + y[i] + __popc(i) + expf(x[i]) * 0; atomicAdd((int*)y + n, 1); }
}
