// recall: gmem-uncoalesced-access
// Read every 8th float of a strided view (e.g. one channel of an 8-channel
// interleaved signal); neighbouring lanes are 32 bytes apart.
#define CHANNELS 8
__global__ void take_channel(float *__restrict__ out, const float *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * CHANNELS];
}

void channel0(float *out, const float *in, int n) { take_channel<<<(n + 255) / 256, 256>>>(out, in, n); }
