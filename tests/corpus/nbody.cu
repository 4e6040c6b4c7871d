// Corpus: all-pairs n-body force computation with float4 positions.
#define SOFTENING 1e-9f

__global__ void body_force(const float4 *pos, float3 *vel, float dt, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i >= n)
		return;
	float4 pi = pos[i];
	float fx = 0.0f, fy = 0.0f, fz = 0.0f;
	for (int j = 0; j < n; j++) {
		float4 pj = pos[j];
		float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
		float dist2 = dx * dx + dy * dy + dz * dz + SOFTENING;
		float inv = rsqrtf(dist2);
		float inv3 = inv * inv * inv * pj.w;
		fx += dx * inv3;
		fy += dy * inv3;
		fz += dz * inv3;
	}
	vel[i].x += dt * fx;
	vel[i].y += dt * fy;
	vel[i].z += dt * fz;
}

void step(const float4 *p, float3 *v, int n)
{
	body_force<<<(n + 255) / 256, 256>>>(p, v, 0.01f, n);
}
