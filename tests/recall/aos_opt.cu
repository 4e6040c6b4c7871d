// The same particles as a structure of arrays: x is contiguous.
struct Particles {
  float *x, *y, *z, *vx, *vy, *vz, *mass, *charge;
};

__global__ void __launch_bounds__(256) shift_x(float *__restrict__ x, float dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += dx;
}

void shift(Particles p, float dx, int n) { shift_x<<<(n + 255) / 256, 256>>>(p.x, dx, n); }
