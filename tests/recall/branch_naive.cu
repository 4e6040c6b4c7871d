// recall: div-lane-parity-branch
// Even lanes update positions, odd lanes velocities: both halves of every
// warp run one after the other.
__global__ void step(float *__restrict__ pos, float *__restrict__ vel, const float *__restrict__ acc, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (threadIdx.x % 2 == 0) {
    float p = pos[i / 2];
    p += vel[i / 2] * dt;
    pos[i / 2] = p;
  } else {
    float v = vel[i / 2];
    v += acc[i / 2] * dt;
    vel[i / 2] = v;
  }
}

void integrate(float *pos, float *vel, const float *acc, float dt, int n) {
  step<<<(n + 255) / 256, 256>>>(pos, vel, acc, dt, n);
}
