/* bench/harness/harness_util.cuh: small helpers of the bench harness
 * (included once, by harness.cu): fail-closed CUDA checks, the counter-based
 * random numbers shared by host and device, input hashes, clocks, and the
 * thread pool the references may use. */

/* Any CUDA error ends the run: the verdict reader treats it as a failure. */
#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
	fprintf(R, "fail - cuda %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
	fflush(R); exit(3); } } while (0)

__host__ __device__ static inline unsigned long long mix64(unsigned long long x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Uniform in [0,1) from (seed, counter): the same on host and device. */
__host__ __device__ static inline double hash_unit(unsigned long long seed, unsigned long long i)
{
	return (double)(mix64(seed ^ mix64(i)) >> 11) * (1.0 / 9007199254740992.0);
}

static double host_unit(unsigned long long seed, unsigned long long i) { return hash_unit(seed, i); }

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) { fprintf(R, "fail - out of host memory (%zu bytes)\n", n); exit(3); }
	return p;
}

/* 64-bit hash of a byte range, 8 bytes at a time, then byte by byte (2-byte tensors of odd length end mid-word). */
static unsigned long long hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	unsigned long long h = 0x243f6a8885a308d3ULL ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		unsigned long long w;
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
	return mix64(h);
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void print_device(void)
{
	cudaDeviceProp p;
	int drv = 0, rt = 0;
	CK(cudaGetDeviceProperties(&p, 0));
	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	for (char *c = p.name; *c; c++) if (*c == ' ') *c = '_';
	fprintf(R, "device %s sm_%d%d sms %d l2 %d mem %zu driver %d runtime %d\n", p.name, p.major,
	       p.minor, p.multiProcessorCount, p.l2CacheSize, p.totalGlobalMem, drv, rt);
}

/* Read before the sandbox: sysconf opens a file under /sys to count CPUs. */
static long pf_threads = 1;

static long cpu_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

struct pf_job { long long lo, hi; void (*fn)(long long, long long, void *); void *ctx; };

static void *pf_thread(void *v)
{
	pf_job *j = (pf_job *)v;
	j->fn(j->lo, j->hi, j->ctx);
	return NULL;
}

extern "C" void ka_ref_parallel_for(long long n, void (*fn)(long long, long long, void *), void *ctx)
{
	enum { MAXT = 64 };
	pthread_t th[MAXT];
	pf_job job[MAXT];
	long nt = pf_threads;
	if (nt < 1) nt = 1;
	if (nt > MAXT) nt = MAXT;
	if (nt > n) nt = n > 0 ? n : 1;
	for (long t = 0; t < nt; t++) {
		job[t].lo = n * t / nt;
		job[t].hi = n * (t + 1) / nt;
		job[t].fn = fn;
		job[t].ctx = ctx;
		if (pthread_create(&th[t], NULL, pf_thread, &job[t])) { fn(job[t].lo, job[t].hi, ctx); th[t] = 0; }
	}
	for (long t = 0; t < nt; t++) if (th[t]) pthread_join(th[t], NULL);
}
