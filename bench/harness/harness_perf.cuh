/* bench/harness/harness_perf.cuh: the performance gate (included once, by
 * harness.cu).  Baseline (a) and candidate (b) in one process, interleaved
 * AB/BA per pair, 8 input sets rotated and re-drawn in place before each use,
 * four output buffers shared by both implementations in rotation (so neither
 * owns a placement), outputs and scratch poisoned before every call, L2
 * flushed with a write of >= 2x its size and persisting lines reset outside
 * the timed window, one call between two events, then a third event on the
 * legacy default stream (it waits for every blocking stream, so work moved
 * off the timed stream shows up as a longer tail), a device-wide sync and
 * host wall time around it all, CUDA graphs for kernels under 10 us.  After
 * every pair (harness_guard.cuh): the candidate's output against the
 * baseline's (moved out of reach right after the baseline's call) within the
 * tolerance, inputs unchanged, guard regions intact,
 * device state unchanged.  Then full validation against the CPU reference on
 * samples picked from the seed the parent sent after the harness loaded. */

enum { SETS = 8 };

__global__ void fma_kernel(float *out, float seed, int iters)
{
	float a0 = seed + threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;
	float a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
	const float m = 0.999f, k = 0.001f;
	for (int i = 0; i < iters; i++) {
		a0 = fmaf(a0, m, k); a1 = fmaf(a1, m, k); a2 = fmaf(a2, m, k); a3 = fmaf(a3, m, k);
		a4 = fmaf(a4, m, k); a5 = fmaf(a5, m, k); a6 = fmaf(a6, m, k); a7 = fmaf(a7, m, k);
	}
	float r = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
	if (r == 12345.0f) out[threadIdx.x] = r;
}

/* Tensor-core rate: bf16 16x16x16 mma with fp32 accumulators, four
 * independent chains per warp (sm_80 and later; elsewhere it does nothing
 * and the fp32 rate stands in). */
__global__ void mma_rate_kernel(float *out, int iters)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(__HIP_PLATFORM_AMD__)
	using namespace nvcuda;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
	wmma::fill_fragment(fa, __float2bfloat16(0.001f));
	wmma::fill_fragment(fb, __float2bfloat16(0.002f));
	for (int k = 0; k < 4; k++) wmma::fill_fragment(acc[k], (float)k);
	for (int i = 0; i < iters; i++)
		for (int k = 0; k < 4; k++) wmma::mma_sync(acc[k], fa, fb, acc[k]);
	float r = acc[0].x[0] + acc[1].x[0] + acc[2].x[0] + acc[3].x[0];
	if (r == 12345.0f) out[threadIdx.x] = r;
#else
	(void)out; (void)iters;
#endif
}

static float event_ms(cudaEvent_t a, cudaEvent_t b)
{
	float ms = 0;
	CK(cudaEventElapsedTime(&ms, a, b));
	return ms;
}

/* Measured ceilings: device-to-device copy bandwidth, fp32 FMA rate and
 * the bf16 tensor-core mma rate (0 where there is none). */
static void measure_ceilings(cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1)
{
	size_t bytes = (size_t)1 << 30;
	void *src, *dst;
	float best = 1e30f, bestf = 1e30f;
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	CK(cudaMalloc(&src, bytes));
	CK(cudaMalloc(&dst, bytes));
	CK(cudaMemsetAsync(src, 1, bytes, s));
	for (int i = 0; i < 6; i++) {
		CK(cudaEventRecord(e0, s));
		CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
		CK(cudaEventRecord(e1, s));
		CK(cudaEventSynchronize(e1));
		float ms = event_ms(e0, e1);
		if (i > 0 && ms < best) best = ms;
	}
	int blocks = p.multiProcessorCount * 8, iters = 8192;
	for (int i = 0; i < 4; i++) {
		CK(cudaEventRecord(e0, s));
		fma_kernel<<<blocks, 256, 0, s>>>((float *)dst, 1.0f, iters);
		CK(cudaEventRecord(e1, s));
		CK(cudaEventSynchronize(e1));
		float ms = event_ms(e0, e1);
		if (i > 0 && ms < bestf) bestf = ms;
	}
	double flops = 2.0 * 8 * iters * (double)blocks * 256, mma = 0;
	if (p.major >= 8) {
		float bestm = 1e30f;
		int mit = 2048; /* 5.7e11 FLOP on 132 SMs: about 1 ms on an H200 */
		for (int i = 0; i < 4; i++) {
			CK(cudaEventRecord(e0, s));
			mma_rate_kernel<<<blocks, 256, 0, s>>>((float *)dst, mit);
			CK(cudaEventRecord(e1, s));
			CK(cudaEventSynchronize(e1));
			float ms = event_ms(e0, e1);
			if (i > 0 && ms < bestm) bestm = ms;
		}
		mma = 2.0 * 16 * 16 * 16 * 4 * (double)mit * blocks * 8 / (bestm * 1e-3) / 1e9;
	}
	fprintf(R, "ceiling %.1f %.1f %.1f\n", 2.0 * bytes / (best * 1e-3) / 1e9, flops / (bestf * 1e-3) / 1e9, mma);
	CK(cudaFree(src));
	CK(cudaFree(dst));
}

struct timing { float ev, tail; double wall; };

/* One timed call: flush, then [start event, call, stop event], an event on
 * the legacy stream, device sync.  The caller has poisoned the outputs. */
static int timed(impl_fn fn, cudaGraphExec_t g, const ka_task_args *a, cudaStream_t s, void *flush,
		 size_t flush_bytes, int salt, cudaEvent_t e0, cudaEvent_t e1, cudaEvent_t e2, timing *t)
{
	cudaCtxResetPersistingL2Cache();
	CK(cudaMemsetAsync(flush, salt & 0xff, flush_bytes, s));
	CK(cudaStreamSynchronize(s));
	double w0 = now_us();
	CK(cudaEventRecord(e0, s));
	int rc = g ? (cudaGraphLaunch(g, s) != cudaSuccess) : fn(a, s);
	CK(cudaEventRecord(e1, s));
	CK(cudaEventRecord(e2, cudaStreamLegacy));
	cudaError_t e = cudaGetLastError();
	cudaError_t e3 = cudaDeviceSynchronize();
	t->wall = now_us() - w0;
	if (e != cudaSuccess || e3 != cudaSuccess || rc) return -1;
	t->ev = event_ms(e0, e1) * 1000.0f;
	t->tail = event_ms(e1, e2) * 1000.0f;
	return 0;
}

/* One call captured as a graph; NULL when capture fails.  *empty is set
 * when the call put no work at all on the harness's stream. */
static cudaGraphExec_t capture(impl_fn fn, const ka_task_args *a, cudaStream_t s, int *empty)
{
	cudaGraph_t g;
	cudaGraphExec_t x = NULL;
	size_t nodes = 0;
	if (cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) return NULL;
	int rc = fn(a, s);
	if (cudaStreamEndCapture(s, &g) != cudaSuccess) { cudaGetLastError(); return NULL; }
	if (cudaGraphGetNodes(g, NULL, &nodes) == cudaSuccess && nodes == 0) *empty = 1;
	if (rc == 0 && !*empty && cudaGraphInstantiate(&x, g, 0) != cudaSuccess) x = NULL;
	cudaGraphDestroy(g);
	cudaGetLastError();
	return x;
}

static int validate(const plan *pl, const config *c, bufs *b, int set, int out, const double *sv, int j)
{
	host_set h;
	memset(&h, 0, sizeof h);
	fetch_inputs(pl, c, b, set, &h);
	int bad = run_reference(pl, c, sv, &h) != 0;
	for (int i = 0; i < pl->nt && !bad; i++) {
		if (!pl->t[i].out) continue;
		ka_cmp_src y = {fetch_outputs(pl, c, b, out, i, &h.first[i]), pl->t[i].dt, c->n[i], 0.0};
		cmp r = compare(pl, c, c->n[i], y, pl->t[i].dt, h.ref[i]);
		if (r.bad) {
			fprintf(R, "fail b %s timed-output-wrong sample=%d tensor=%s %s worst=%.3g\n", c->name, j,
			       pl->t[i].name, r.why, r.worst);
			bad = 1;
		}
	}
	free_host(pl, &h);
	return bad;
}

struct perf_ctx {
	cudaStream_t s;
	cudaEvent_t e0, e1, e2;
	void *flush;
	size_t flush_bytes;
};

static void warm_up(const plan *pl, const config *c, bufs *b, double sv[][KA_TASK_MAX_SCALARS], perf_ctx *x, float med[2])
{
	float t[2][256];
	int n = 0;
	double start = now_us();
	while (n < 256 && (n < 10 || now_us() - start < 50e3)) {
		for (int k = 0; k < 2; k++) {
			ka_task_args a;
			timing tm;
			make_args(pl, c, b, n % SETS, 2 * k, sv[n % SETS], &a);
			poison(pl, c, b, 2 * k, x->s);
			if (timed(k ? ka_impl_b : ka_impl_a, NULL, &a, x->s, x->flush, x->flush_bytes, n, x->e0, x->e1, x->e2, &tm)) {
				fprintf(R, "fail %c %s launch-error during warm-up\n", "ab"[k], c->name);
				exit(3);
			}
			t[k][n] = tm.ev;
		}
		n++;
	}
	for (int k = 0; k < 2; k++) {
		float v[256];
		memcpy(v, t[k], sizeof(float) * n);
		for (int i = 1; i < n; i++)   /* insertion sort: n <= 256 */
			for (int j = i; j > 0 && v[j] < v[j - 1]; j--) { float tmp = v[j]; v[j] = v[j - 1]; v[j - 1] = tmp; }
		med[k] = v[n / 2];
	}
	fprintf(R, "warmup %s %d\n", c->name, n);
}

/* Output buffer of implementation k (0 baseline, 1 candidate) in sample j:
 * the four buffers rotate so that each implementation uses each of them
 * equally often, in both positions of the pair. */
static int out_of(int k, int j) { return (j + 2 * k) % 4; }

static void input_hashes(const plan *pl, const config *c, const bufs *b, int set, unsigned long long *d,
			 unsigned long long *h, cudaStream_t s)
{
	CK(cudaMemsetAsync(d, 0, sizeof *d * KA_TASK_MAX_TENSORS, s));
	for (int i = 0; i < pl->nt; i++)
		if (!pl->t[i].out) device_hash(b->in[set][i], (size_t)c->n[i] * dt_size(pl->t[i].dt), d + i, s);
	CK(cudaMemcpyAsync(h, d, sizeof *h * KA_TASK_MAX_TENSORS, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
}

/* The cheap check of one timed pair: 0 when the candidate's outputs match
 * the baseline's, the inputs kept their checksum, the guards are intact and
 * the device state is unchanged; else a fail line. */
static int check_pair(const plan *pl, const config *c, const bufs *b, void *const *keep, int set, int j,
		      const unsigned long long *h0, cudaStream_t s)
{
	static unsigned long long *dh;
	static diff_acc *dacc;
	unsigned long long h1[KA_TASK_MAX_TENSORS], guards = 0;
	int oa = out_of(0, j), ob = out_of(1, j);
	if (!dh) { CK(cudaMalloc((void **)&dh, sizeof *dh * (KA_TASK_MAX_TENSORS + 1))); CK(cudaMalloc((void **)&dacc, sizeof *dacc)); }
	input_hashes(pl, c, b, set, dh, h1, s);
	for (int i = 0; i < pl->nt; i++)
		if (!pl->t[i].out && h1[i] != h0[i]) {
			fprintf(R, "fail b %s timed-input-modified sample=%d tensor=%s\n", c->name, j, pl->t[i].name);
			return -1;
		}
	CK(cudaMemsetAsync(dh + KA_TASK_MAX_TENSORS, 0, sizeof *dh, s));
	guards_of(pl, c, b, set, oa, dh + KA_TASK_MAX_TENSORS, s);
	guards_of(pl, c, b, set, ob, dh + KA_TASK_MAX_TENSORS, s);
	CK(cudaMemcpyAsync(&guards, dh + KA_TASK_MAX_TENSORS, sizeof guards, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	if (guards) { fprintf(R, "fail b %s timed-guard-overwritten sample=%d\n", c->name, j); return -1; }
	if (state_changed()) { fprintf(R, "fail b %s timed-device-state-changed sample=%d\n", c->name, j); return -1; }
	for (int i = 0; i < pl->nt; i++) {
		diff_acc acc;
		if (!pl->t[i].out) continue;
		CK(cudaMemsetAsync(dacc, 0, sizeof *dacc, s));
		double ty = ka_tol_type(pl->t[i].dt);
		diff_outputs(keep[i], b->out[ob][i], c->n[i], pl->t[i].dt, pl->atol + c->grow, pl->rtol + c->grow + ty, dacc, s);
		CK(cudaMemcpyAsync(&acc, dacc, sizeof acc, cudaMemcpyDeviceToHost, s));
		CK(cudaStreamSynchronize(s));
		double l2 = ka_tol_l2(acc.num, acc.den);
		if (acc.bad || l2 > 2.0 * (pl->l2 + c->grow + ty)) {
			fprintf(R, "fail b %s timed-output-wrong sample=%d tensor=%s bad=%llu rel_l2_vs_baseline=%.3g\n", c->name, j,
				pl->t[i].name, acc.bad, l2);
			return -1;
		}
	}
	return 0;
}

/* Right after the baseline's timed call: its outputs move to buffers the
 * candidate never sees, and its own buffers are poisoned, so a candidate that
 * remembers the rotating buffers' addresses cannot copy the baseline's
 * answer (it would copy NaN). */
static void stash_baseline(const plan *pl, const config *c, bufs *b, int oa, void *const *keep, cudaStream_t s)
{
	for (int i = 0; i < pl->nt; i++)
		if (pl->t[i].out)
			CK(cudaMemcpyAsync(keep[i], b->out[oa][i], (size_t)c->n[i] * dt_size(pl->t[i].dt), cudaMemcpyDeviceToDevice, s));
	poison(pl, c, b, oa, s);
	CK(cudaStreamSynchronize(s));
}

/* The harness-private copies of the baseline's outputs: allocate or free. */
static void keep_bufs(const plan *pl, const config *c, void **keep, int alloc)
{
	for (int i = 0; i < pl->nt; i++)
		if (!alloc) cudaFree(keep[i]);
		else if (pl->t[i].out) CK(cudaMalloc(&keep[i], (size_t)c->n[i] * dt_size(pl->t[i].dt)));
}

static int capture_all(const plan *pl, const config *c, bufs *b, double sv[][KA_TASK_MAX_SCALARS], perf_ctx *x,
		       cudaGraphExec_t g[2][SETS][4])
{
	int empty = 0;
	for (int k = 0; k < 2; k++)
		for (int set = 0; set < SETS; set++)
			for (int o = 0; o < 4; o++) {
				ka_task_args a;
				make_args(pl, c, b, set, o, sv[set], &a);
				g[k][set][o] = capture(k ? ka_impl_b : ka_impl_a, &a, x->s, &empty);
				if (empty) {
					fprintf(R, "fail %c %s no-work-on-the-harness-stream (empty graph capture)\n", "ab"[k], c->name);
					return -1;
				}
				if (!g[k][set][o]) return 0;
			}
	return 1;
}

static int perf_config(const plan *pl, int ci, perf_ctx *x)
{
	const config *c = &pl->c[ci];
	bufs b;
	double sv[SETS][KA_TASK_MAX_SCALARS];
	static cudaGraphExec_t g[2][SETS][4];
	static unsigned long long *dh;
	float med[2];
	int S = c->samples > 0 ? c->samples : pl->samples, graph = 0, vpick[3];
	memset(g, 0, sizeof g);
	if (S < 30) S = 30;
	if (!dh) CK(cudaMalloc((void **)&dh, sizeof *dh * KA_TASK_MAX_TENSORS));
	void *keep[KA_TASK_MAX_TENSORS] = {0};
	alloc_bufs(pl, c, &b, SETS, 4);
	keep_bufs(pl, c, keep, 1);
	for (int k = 0; k < SETS; k++) {
		unsigned long long seed = mix64(pl->seed ^ (0x5eedULL + 1000003ULL * ci + k));
		draw_scalars(pl, seed, sv[k]);
		for (int i = 0; i < pl->nt; i++)
			if (!pl->t[i].out) gen(&pl->t[i], b.in[k][i], c->n[i], 0, mix64(seed + i), x->s);
	}
	warm_up(pl, c, &b, sv, x, med);
	if (med[0] < 10.0f && med[1] < 10.0f) {   /* both tiny: same method for both */
		graph = capture_all(pl, c, &b, sv, x, g);
		if (graph < 0) return -1;
		if (!graph) fprintf(R, "note %s graph-capture-failed timing-direct\n", c->name);
	}
	for (int k = 0; k < 3; k++) vpick[k] = k == 0 ? S - 1 : (int)(host_unit(pl->vseed, 31 + 26 * k + ci) * S);
	fprintf(R, "perf %s graph %d\n", c->name, graph);
	for (int j = 0; j < S; j++) {
		int set = j % SETS;
		timing tm[2];
		unsigned long long seed = mix64(pl->seed + 0x7177ULL * (ci + 1) + j), h0[KA_TASK_MAX_TENSORS];
		for (int i = 0; i < pl->nt; i++)
			if (!pl->t[i].out) gen(&pl->t[i], b.in[set][i], c->n[i], 0, mix64(seed + i), x->s);
		input_hashes(pl, c, &b, set, dh, h0, x->s);
		for (int q = 0; q < 2; q++) {
			int k = (j & 1) ? 1 - q : q;   /* AB, BA, AB, ... */
			ka_task_args a;
			make_args(pl, c, &b, set, out_of(k, j), sv[set], &a);
			poison(pl, c, &b, out_of(k, j), x->s);
			if (timed(k ? ka_impl_b : ka_impl_a, graph ? g[k][set][out_of(k, j)] : NULL, &a, x->s, x->flush,
				  x->flush_bytes, j * 2 + q, x->e0, x->e1, x->e2, &tm[k])) {
				fprintf(R, "fail %c %s launch-error sample=%d\n", "ab"[k], c->name, j);
				return -1;
			}
			if (k == 0) stash_baseline(pl, c, &b, out_of(0, j), keep, x->s);
		}
		if (check_pair(pl, c, &b, keep, set, j, h0, x->s)) return -1;
		fprintf(R, "sample %s %d %.3f %.3f %.3f %.3f %.3f %.3f\n", c->name, j, tm[0].ev, tm[1].ev, tm[0].wall,
			tm[1].wall, tm[0].tail, tm[1].tail);
		if (j == vpick[0] || j == vpick[1] || j == vpick[2])
			if (validate(pl, c, &b, set, out_of(1, j), sv[set], j)) return -1;
	}
	fprintf(R, "checked %s %d\nvalidated %s 3\n", c->name, S, c->name);
	for (int k = 0; k < 2; k++)
		for (int set = 0; set < SETS; set++)
			for (int o = 0; o < 4; o++) if (g[k][set][o]) cudaGraphExecDestroy(g[k][set][o]);
	keep_bufs(pl, c, keep, 0);
	free_bufs(pl, &b);
	fflush(R);
	return 0;
}

static int run_perf(const plan *pl)
{
	perf_ctx x;
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	CK(cudaStreamCreate(&x.s));
	CK(cudaEventCreate(&x.e0));
	CK(cudaEventCreate(&x.e1));
	CK(cudaEventCreate(&x.e2));
	x.flush_bytes = (size_t)p.l2CacheSize * 3;
	if (x.flush_bytes < ((size_t)128 << 20)) x.flush_bytes = (size_t)128 << 20;
	CK(cudaMalloc(&x.flush, x.flush_bytes));
	fprintf(R, "flush %zu\n", x.flush_bytes);
	measure_ceilings(x.s, x.e0, x.e1);
	fflush(R);
	for (int ci = 0; ci < pl->nc; ci++)
		if (perf_config(pl, ci, &x)) return 1;
	CK(cudaFree(x.flush));
	return 0;
}
