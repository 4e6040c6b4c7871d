// recall: gmem-uncoalesced-access
// xfail: float4 loads through reinterpret_cast are not modelled as 16-byte accesses yet
// Copy of every other float4 of a buffer (a strided view of 32-byte records).
__global__ void copy_even(float4 *__restrict__ out, const float *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = reinterpret_cast<const float4 *>(in)[4 * i];
}

void run_copy(float4 *out, const float *in, int n) { copy_even<<<(n + 255) / 256, 256>>>(out, in, n); }
