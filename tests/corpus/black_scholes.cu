// Corpus: Black-Scholes option pricing (math-heavy, double literals).
__device__ float cnd(float d)
{
	const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f;
	const float A4 = -1.821255978f, A5 = 1.330274429f;
	float K = 1.0f / (1.0f + 0.2316419 * fabsf(d));
	float c = 0.3989422804 * expf(-0.5f * d * d) *
		  (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
	return d > 0 ? 1.0f - c : c;
}

__global__ void black_scholes(float *call, float *put, const float *S, const float *X,
			      const float *T, float r, float v, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		float sqrtT = sqrtf(T[i]);
		float d1 = (logf(S[i] / X[i]) + (r + 0.5f * v * v) * T[i]) / (v * sqrtT);
		float d2 = d1 - v * sqrtT;
		float e = expf(-r * T[i]);
		call[i] = S[i] * cnd(d1) - X[i] * e * cnd(d2);
		put[i] = X[i] * e * (1.0f - cnd(d2)) - S[i] * (1.0f - cnd(d1));
	}
}

void price(float *c, float *p, const float *S, const float *X, const float *T, int n)
{
	black_scholes<<<480, 128>>>(c, p, S, X, T, 0.02f, 0.30f, n);
}
