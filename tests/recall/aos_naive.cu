// recall: gmem-aos-field-access
// Particles stored as an array of 32-byte structs; the kernel only needs x.
struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass, charge;
};

__global__ void shift_x(Particle *__restrict__ p, float dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i].x += dx;
}

void shift(Particle *p, float dx, int n) { shift_x<<<(n + 255) / 256, 256>>>(p, dx, n); }
