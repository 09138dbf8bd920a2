// Kernels for the driver API test, compiled to PTX at build time and loaded with cuModuleLoadData.
__device__ float scale = 1.0f;
__constant__ int offsets[4];

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * scale * x[i] + y[i] + float(offsets[i % 4]);
}

extern "C" __global__ void fill_index(unsigned *out, unsigned base) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = base + i;
}

extern "C" __global__ void out_of_bounds(int *p) { p[threadIdx.x + (1 << 28)] = 1; }
