/* bench/harness/harness_check.cuh: the correctness gate and the task
 * self-check (included once, by harness.cu).  For every configuration: four
 * draws from run-time seeds (the last adversarial), outputs and scratch
 * poisoned before every call, launch errors and a device sync checked after
 * every call, inputs hashed before and after, every call made twice on the
 * same input (same bytes unless the task is non-deterministic), and the
 * tolerance |y-r| <= atol*max|r| + rtol*|r| + floor plus a relative L2
 * bound (harness_tol.h), checked on the reference threads (harness_cmp.h). */

typedef ka_cmp_result cmp;

/* Compare the values of y against reference r (n elements), with the
 * tolerance of an output of dtype out_dt (harness_tol.h), on the reference
 * threads (harness_cmp.h: the verdict does not depend on their number). */
static cmp compare(const plan *pl, const config *cf, long long n, ka_cmp_src y, int out_dt, const double *r)
{
	static ka_cmp_part part[KA_CMP_PARTS];
	double ty = ka_tol_type(out_dt);
	ka_cmp_job j;
	memset(&j, 0, sizeof j);
	j.y = y;
	j.r = r;
	j.n = n;
	j.atol = pl->atol + cf->grow;
	j.rtol = pl->rtol + cf->grow + ty;
	j.l2 = pl->l2 + cf->grow + ty;
	j.floor = floor_of(out_dt);
	j.part = part;
	return ka_cmp_run(&j, ka_ref_parallel_for);
}

static void poison(const plan *pl, const config *c, const bufs *b, int out, cudaStream_t s)
{
	for (int i = 0; i < pl->nt; i++)
		if (pl->t[i].out)
			CK(cudaMemsetAsync(b->out[out][i], 0xff, (size_t)c->n[i] * dt_size(pl->t[i].dt), s));
	CK(cudaMemsetAsync(b->work, 0xff, c->work ? c->work : 16, s));
}

/* One call, fail closed: 0 ok, else prints a fail line (exits on a sticky error). */
static int checked_call(impl_fn fn, char who, const config *c, const ka_task_args *a, cudaStream_t s)
{
	int rc = fn(a, s);
	cudaError_t e = cudaGetLastError();
	cudaError_t e2 = cudaDeviceSynchronize();
	if (e == cudaSuccess) e = e2;
	if (e != cudaSuccess) {
		fprintf(R, "fail %c %s launch-error %s\n", who, c->name, cudaGetErrorString(e));
		fflush(R);
		if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) exit(3);
		return -1;
	}
	if (rc != 0) { fprintf(R, "fail %c %s returned %d\n", who, c->name, rc); return -1; }
	return 0;
}

/* Copies output ti into *dst, allocated once (the largest output of the
 * configuration fits) and reused by every later call on it. */
static void *fetch_outputs(const plan *pl, const config *c, const bufs *b, int out, int ti, void **dst)
{
	size_t bytes = (size_t)c->n[ti] * dt_size(pl->t[ti].dt);
	if (!*dst) *dst = xmalloc(host_bytes(pl, c, 1));
	CK(cudaMemcpy(*dst, b->out[out][ti], bytes, cudaMemcpyDeviceToHost));
	return *dst;
}

/* A device counter for the guard checks, allocated once. */
static unsigned long long *counter(void)
{
	static unsigned long long *d;
	if (!d) CK(cudaMalloc((void **)&d, 4 * sizeof *d));
	return d;
}

/* After a call: guard regions intact and the device-wide state unchanged.
 * 0 when both hold, else a fail line. */
static int after_call(const plan *pl, const config *c, const bufs *b, int set, int out, char who, cudaStream_t s)
{
	unsigned long long bad = 0, *d = counter();
	CK(cudaMemsetAsync(d, 0, sizeof *d, s));
	guards_of(pl, c, b, set, out, d, s);
	CK(cudaMemcpyAsync(&bad, d, sizeof bad, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	if (bad) { fprintf(R, "fail %c %s guard-region-overwritten (a write outside its buffers)\n", who, c->name); return -1; }
	if (state_changed()) {   /* the baseline is the task's own: a change is the candidate's, whenever it shows */
		fprintf(R, "fail b %s device-state-changed (cache preference or device limits)\n", c->name);
		return -1;
	}
	return 0;
}

/* Checks one implementation on the current draw; returns 0 when it passes.
 * Host copies go into h's buffers, reused from call to call. */
static int check_impl(const plan *pl, const config *c, bufs *b, const double *sv, host_set *h,
		      impl_fn fn, char who, int draw, cudaStream_t s, double *worst, double *l2)
{
	ka_task_args a;
	make_args(pl, c, b, 0, 0, sv, &a);
	for (int rep = 0; rep < 2; rep++) {
		poison(pl, c, b, 0, s);
		if (checked_call(fn, who, c, &a, s) || after_call(pl, c, b, 0, 0, who, s)) return -1;
		for (int i = 0; i < pl->nt; i++) {
			if (!pl->t[i].out) continue;
			size_t bytes = (size_t)c->n[i] * dt_size(pl->t[i].dt);
			void *y = fetch_outputs(pl, c, b, 0, i, rep == 0 ? &h->first[i] : &h->again);
			ka_cmp_src src = {y, pl->t[i].dt, c->n[i], 0.0};
			cmp r = compare(pl, c, c->n[i], src, pl->t[i].dt, h->ref[i]);
			if (rep == 0) {
				if (r.bad) {
					fprintf(R, "fail %c %s wrong-output tensor=%s draw=%d %s bad=%lld worst=%.3g rel_l2=%.3g\n",
					       who, c->name, pl->t[i].name, draw, r.why, r.bad, r.worst, r.l2);
					return -1;
				}
				if (r.worst > *worst) *worst = r.worst;
				if (r.l2 > *l2) *l2 = r.l2;
			} else if (r.bad || (pl->deterministic && memcmp(y, h->first[i], bytes))) {
				fprintf(R, "fail %c %s nondeterministic tensor=%s draw=%d (same input, different output: race?)\n",
				       who, c->name, pl->t[i].name, draw);
				return -1;
			}
		}
	}
	for (int i = 0; i < pl->nt; i++) {
		if (pl->t[i].out) continue;
		size_t bytes = (size_t)c->n[i] * dt_size(pl->t[i].dt);
		if (!h->now) h->now = xmalloc(host_bytes(pl, c, 0));
		CK(cudaMemcpy(h->now, b->in[0][i], bytes, cudaMemcpyDeviceToHost));
		if (hash_bytes(h->now, bytes) != h->hash[i]) {
			fprintf(R, "fail %c %s modified-input tensor=%s\n", who, c->name, pl->t[i].name);
			return -1;
		}
	}
	return 0;
}

/* Does a fake output (zeros, ones, a constant, a copy of an input) pass?
 * The fake is read in place: a constant, or input src with zeros past its
 * end (harness_cmp.h), never written out n elements long. */
static int fake_passes(const plan *pl, const config *c, host_set *h, int kind, double k, int src)
{
	int all = 1;
	for (int i = 0; i < pl->nt && all; i++) {
		if (!pl->t[i].out) continue;
		ka_cmp_src y = {NULL, -1, 0, k};
		if (kind == 2) {
			y.p = h->in[src];
			y.dt = pl->t[src].dt;
			y.n = c->n[src];
			y.k = 0.0;
		}
		all = compare(pl, c, c->n[i], y, pl->t[i].dt, h->ref[i]).bad == 0;
	}
	return all;
}

static void self_check(const plan *pl, const config *c, host_set *h, double other_mean)
{
	if (fake_passes(pl, c, h, 0, 0.0, 0)) fprintf(R, "selfcheck %s zeros pass\n", c->name);
	if (fake_passes(pl, c, h, 0, 1.0, 0)) fprintf(R, "selfcheck %s ones pass\n", c->name);
	if (fake_passes(pl, c, h, 0, other_mean, 0)) fprintf(R, "selfcheck %s constant pass\n", c->name);
	for (int i = 0; i < pl->nt; i++)
		if (!pl->t[i].out && fake_passes(pl, c, h, 2, 0, i))
			fprintf(R, "selfcheck %s copy-of-%s pass\n", c->name, pl->t[i].name);
}

static double first_output_mean(const plan *pl, const config *c, const host_set *h)
{
	for (int i = 0; i < pl->nt; i++) {
		if (!pl->t[i].out) continue;
		double s = 0;
		for (long long j = 0; j < c->n[i]; j++) s += h->ref[i][j];
		return c->n[i] ? s / c->n[i] : 0;
	}
	return 0;
}

static int run_correct(const plan *pl)
{
	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	for (int ci = 0; ci < pl->nc; ci++) {
		const config *c = &pl->c[ci];
		bufs b;
		host_set h;
		double sv[KA_TASK_MAX_SCALARS] = {0}, mean0 = 0;
		double worst[2] = {0, 0}, l2[2] = {0, 0};
		int ok[2] = {1, 1};
		memset(&h, 0, sizeof h);
		alloc_bufs(pl, c, &b, 1, 1);
		for (int d = 0; d < 4; d++) {
			unsigned long long seed = mix64(pl->seed + 7919ULL * ci + d);
			for (int i = 0; i < pl->nt; i++)
				if (!pl->t[i].out) gen(&pl->t[i], b.in[0][i], c->n[i], d == 3, mix64(seed + i), s);
			CK(cudaStreamSynchronize(s));
			draw_scalars(pl, seed, sv);
			fetch_inputs(pl, c, &b, 0, &h);
			if (run_reference(pl, c, sv, &h)) {
				fprintf(R, "taskerror %s reference failed\n", c->name);
				return 3;
			}
			if (d == 0) mean0 = first_output_mean(pl, c, &h);
			if (d == 1) self_check(pl, c, &h, mean0);
			if (ok[0] && check_impl(pl, c, &b, sv, &h, ka_impl_a, 'a', d, s, &worst[0], &l2[0])) ok[0] = 0;
			if (ok[1] && check_impl(pl, c, &b, sv, &h, ka_impl_b, 'b', d, s, &worst[1], &l2[1])) ok[1] = 0;
			fflush(R);
		}
		for (int k = 0; k < 2; k++)
			if (ok[k]) fprintf(R, "check %c %s %.4g %.4g\n", "ab"[k], c->name, worst[k], l2[k]);
		fflush(R);
		free_host(pl, &h);
		free_bufs(pl, &b);
	}
	CK(cudaStreamDestroy(s));
	return 0;
}
