// Each thread updates one element's position and velocity: no branch on
// the lane index.
__global__ void __launch_bounds__(256) step(float *__restrict__ pos, float *__restrict__ vel, const float *__restrict__ acc, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = vel[i];
  pos[i] += v * dt;
  vel[i] = v + acc[i] * dt;
}

void integrate(float *pos, float *vel, const float *acc, float dt, int n) {
  step<<<(n + 255) / 256, 256>>>(pos, vel, acc, dt, n);
}
