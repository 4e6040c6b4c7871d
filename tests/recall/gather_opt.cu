// The channel stored planar (one contiguous plane per channel): unit stride.
__global__ void __launch_bounds__(256) take_channel(float *__restrict__ out, const float *__restrict__ plane, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = plane[i];
}

void channel0(float *out, const float *planes, int n) { take_channel<<<(n + 255) / 256, 256>>>(out, planes, n); }
