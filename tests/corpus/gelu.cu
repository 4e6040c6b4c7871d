// Corpus: GELU activation (tanh approximation), written with double
// constants as often seen in ported code.
__global__ void gelu(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float x = in[i];
	float inner = 0.7978845608 * (x + 0.044715 * x * x * x);
	out[i] = 0.5 * x * (1.0f + tanhf(inner));
}

void run_gelu(const float *in, float *out, int n)
{
	gelu<<<(n + 255) / 256, 256>>>(in, out, n);
}
