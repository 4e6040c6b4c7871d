/* bench/harness/harness_guard.cuh: the cheap checks the harness runs on the
 * GPU after every timed call, outside the timed window (included once, by
 * harness.cu): guard regions around every buffer, an order-independent
 * checksum of every input, the candidate's output against the baseline's
 * output of the same sample within the tolerance, and the device-wide state
 * (cache preference, limits) that a candidate must leave as it found it. */

enum { GUARD = 4096, GUARD_BYTE = 0xA5 };

/* Allocates n bytes with a guard region on each side, filled with GUARD_BYTE. */
static void *guarded_alloc(size_t n, void **base)
{
	char *p;
	CK(cudaMalloc((void **)&p, n + 2 * GUARD));
	CK(cudaMemset(p, GUARD_BYTE, GUARD));
	CK(cudaMemset(p + GUARD + n, GUARD_BYTE, GUARD));
	*base = p;
	return p + GUARD;
}

__global__ void guard_kernel(const unsigned char *lo, const unsigned char *hi, unsigned long long *bad)
{
	for (int i = threadIdx.x; i < GUARD; i += blockDim.x)
		if (lo[i] != GUARD_BYTE || hi[i] != GUARD_BYTE) { atomicAdd(bad, 1ULL); return; }
}

/* Queues the guard check of one buffer of n bytes; the count lands in *bad. */
static void guard_check(const void *p, size_t n, unsigned long long *bad, cudaStream_t s)
{
	const unsigned char *b = (const unsigned char *)p;
	guard_kernel<<<1, 256, 0, s>>>(b - GUARD, b + n, bad);
	CK(cudaGetLastError());
}

/* Word i of the checksum: 4 bytes, or the 1 to 3 bytes left at the end (a
 * 2-byte tensor of odd length), zero-extended; `words` counts the tail. */
__global__ void sum_hash_kernel(const unsigned *p, long long words, size_t n, unsigned long long *h)
{
	unsigned long long acc = 0;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < words; i += (long long)gridDim.x * blockDim.x) {
		unsigned w = 0;
		if ((size_t)(i + 1) * 4 <= n) w = p[i];
		else for (size_t k = (size_t)i * 4; k < n; k++) w |= (unsigned)((const unsigned char *)p)[k] << (8 * (k - (size_t)i * 4));
		acc += mix64(((unsigned long long)w << 32) ^ (unsigned long long)i);
	}
	atomicAdd(h, acc);
}

/* An order-independent 64-bit checksum of n bytes. */
static void device_hash(const void *p, size_t n, unsigned long long *h, cudaStream_t s)
{
	long long words = (long long)((n + 3) / 4);
	long long blocks = (words + 255) / 256;
	if (blocks > 1024) blocks = 1024;
	if (blocks < 1) blocks = 1;
	sum_hash_kernel<<<(unsigned)blocks, 256, 0, s>>>((const unsigned *)p, words, n, h);
	CK(cudaGetLastError());
}

__device__ static double dval(const void *p, int dt, long long i)
{
	switch (dt) {
	case DT_F32: return ((const float *)p)[i];
	case DT_F64: return ((const double *)p)[i];
	case DT_I32: return ((const int *)p)[i];
	case DT_F16: return ka_f16_to_float(((const uint16_t *)p)[i]);
	case DT_BF16: return ka_bf16_to_float(((const uint16_t *)p)[i]);
	default: return ((const unsigned *)p)[i];
	}
}

struct diff_acc { unsigned long long absmax_bits, bad; double num, den; };

__global__ void absmax_kernel(const void *y, long long n, int dt, diff_acc *acc)
{
	double m = 0;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		double v = fabs(dval(y, dt, i));
		if (isfinite(v) && v > m) m = v;
	}
	atomicMax(&acc->absmax_bits, (unsigned long long)__double_as_longlong(m));
}

/* Counts elements where the candidate's y differs from the baseline's r by
 * more than twice the task's bound (both carry rounding error; the floor of
 * harness_tol.h twice too), and sums the squared differences beyond it for
 * the relative L2 check. */
__global__ void diff_kernel(const void *r, const void *y, long long n, int dt, double atol, double rtol, double fl,
			    diff_acc *acc)
{
	double scale = __longlong_as_double((long long)acc->absmax_bits), num = 0, den = 0;
	unsigned long long bad = 0;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
		double a = dval(r, dt, i), b = dval(y, dt, i);
		if (!isfinite(a) || !isfinite(b)) {
			if (!(isnan(a) ? isnan(b) : a == b)) bad++;
			continue;
		}
		if (ka_tol_elem(b, a, 2.0 * atol, scale, 2.0 * rtol, 2.0 * fl, &num, &den) > 1.0) bad++;
	}
	if (bad) atomicAdd(&acc->bad, bad);
	atomicAdd(&acc->num, num);
	atomicAdd(&acc->den, den);
}

static void diff_outputs(const void *r, const void *y, long long n, int dt, double atol, double rtol, diff_acc *acc,
			 cudaStream_t s)
{
	long long blocks = (n + 255) / 256;
	if (blocks > 1024) blocks = 1024;
	if (blocks < 1) blocks = 1;
	absmax_kernel<<<(unsigned)blocks, 256, 0, s>>>(r, n, dt, acc);
	diff_kernel<<<(unsigned)blocks, 256, 0, s>>>(r, y, n, dt, atol, rtol, floor_of(dt), acc);
	CK(cudaGetLastError());
}

/* Device-wide state a candidate could change to slow the baseline down. */
struct devstate { int cache; size_t lim[5]; };

static devstate device_state(void)
{
	static const cudaLimit lims[5] = {cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize,
					  cudaLimitPersistingL2CacheSize, cudaLimitMaxL2FetchGranularity};
	devstate d;
	cudaFuncCache c = cudaFuncCachePreferNone;
	memset(&d, 0, sizeof d);
	cudaDeviceGetCacheConfig(&c);
	d.cache = (int)c;
	for (int i = 0; i < 5; i++)
		if (cudaDeviceGetLimit(&d.lim[i], lims[i]) != cudaSuccess) d.lim[i] = (size_t)-1;
	cudaGetLastError();
	return d;
}

static devstate initial_state;

/* 0 when the device-wide state is what the harness found at start. */
static int state_changed(void)
{
	devstate now = device_state();
	return memcmp(&now, &initial_state, sizeof now) != 0;
}
