/* bench/harness/harness_check.cuh: the correctness gate and the task
 * self-check (included once, by harness.cu).  For every configuration: four
 * draws from run-time seeds (the last adversarial), outputs and scratch
 * poisoned before every call, launch errors and a device sync checked after
 * every call, inputs hashed before and after, every call made twice on the
 * same input (same bytes unless the task is non-deterministic), and the
 * tolerance |y-r| <= atol*max|r| + rtol*|r| + floor plus a relative L2
 * bound (harness_tol.h). */

struct cmp { long long bad; double worst, l2; const char *why; };

static double to_double(const void *p, int dt, long long i)
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

/* Compare y (dtype dt, or fp64 when dt < 0) against reference r, with the
 * tolerance of an output of dtype out_dt (harness_tol.h). */
static cmp compare(const plan *pl, const config *cf, long long n, const void *y, int dt, int out_dt, const double *r)
{
	double ty = ka_tol_type(out_dt);
	double atol = pl->atol + cf->grow, rtol = pl->rtol + cf->grow + ty, l2 = pl->l2 + cf->grow + ty;
	double fl = floor_of(out_dt);
	cmp c = {0, 0.0, 0.0, NULL};
	double scale = 0, num = 0, den = 0;
	for (long long i = 0; i < n; i++)
		if (isfinite(r[i]) && fabs(r[i]) > scale) scale = fabs(r[i]);
	for (long long i = 0; i < n; i++) {
		double v = dt < 0 ? ((const double *)y)[i] : to_double(y, dt, i);
		if (!isfinite(r[i])) {
			if (!(isnan(r[i]) ? isnan(v) : v == r[i])) { c.bad++; c.why = "non-finite-mismatch"; }
			continue;
		}
		if (!isfinite(v)) { c.bad++; c.why = "nan-or-inf-in-output"; c.worst = INFINITY; continue; }
		double ratio = ka_tol_elem(v, r[i], atol, scale, rtol, fl, &num, &den);
		if (ratio > 1.0) { c.bad++; if (!c.why) c.why = "tolerance"; }
		if (ratio > c.worst) c.worst = ratio;
	}
	c.l2 = ka_tol_l2(num, den);
	if (c.l2 > l2 && !c.why) { c.bad++; c.why = "relative-l2"; }
	return c;
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

static void *fetch_outputs(const plan *pl, const config *c, const bufs *b, int out, int ti, void *dst)
{
	size_t bytes = (size_t)c->n[ti] * dt_size(pl->t[ti].dt);
	if (!dst) dst = xmalloc(bytes);
	CK(cudaMemcpy(dst, b->out[out][ti], bytes, cudaMemcpyDeviceToHost));
	return dst;
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

/* Checks one implementation on the current draw; returns 0 when it passes. */
static int check_impl(const plan *pl, const config *c, bufs *b, const double *sv, host_set *h,
		      impl_fn fn, char who, int draw, cudaStream_t s, double *worst, double *l2)
{
	ka_task_args a;
	void *first[KA_TASK_MAX_TENSORS] = {0}, *again = NULL;
	int rc = -1;
	make_args(pl, c, b, 0, 0, sv, &a);
	for (int rep = 0; rep < 2; rep++) {
		poison(pl, c, b, 0, s);
		if (checked_call(fn, who, c, &a, s) || after_call(pl, c, b, 0, 0, who, s)) goto out;
		for (int i = 0; i < pl->nt; i++) {
			if (!pl->t[i].out) continue;
			size_t bytes = (size_t)c->n[i] * dt_size(pl->t[i].dt);
			if (rep == 0) {
				first[i] = fetch_outputs(pl, c, b, 0, i, NULL);
				cmp r = compare(pl, c, c->n[i], first[i], pl->t[i].dt, pl->t[i].dt, h->ref[i]);
				if (r.bad) {
					fprintf(R, "fail %c %s wrong-output tensor=%s draw=%d %s bad=%lld worst=%.3g rel_l2=%.3g\n",
					       who, c->name, pl->t[i].name, draw, r.why, r.bad, r.worst, r.l2);
					goto out;
				}
				if (r.worst > *worst) *worst = r.worst;
				if (r.l2 > *l2) *l2 = r.l2;
			} else {
				again = fetch_outputs(pl, c, b, 0, i, again);
				cmp r = compare(pl, c, c->n[i], again, pl->t[i].dt, pl->t[i].dt, h->ref[i]);
				if (r.bad || (pl->deterministic && memcmp(again, first[i], bytes))) {
					fprintf(R, "fail %c %s nondeterministic tensor=%s draw=%d (same input, different output: race?)\n",
					       who, c->name, pl->t[i].name, draw);
					goto out;
				}
			}
		}
	}
	for (int i = 0; i < pl->nt; i++) {
		if (pl->t[i].out) continue;
		size_t bytes = (size_t)c->n[i] * dt_size(pl->t[i].dt);
		void *now = xmalloc(bytes);
		CK(cudaMemcpy(now, b->in[0][i], bytes, cudaMemcpyDeviceToHost));
		unsigned long long hh = hash_bytes(now, bytes);
		free(now);
		if (hh != h->hash[i]) {
			fprintf(R, "fail %c %s modified-input tensor=%s\n", who, c->name, pl->t[i].name);
			goto out;
		}
	}
	rc = 0;
out:
	for (int i = 0; i < KA_TASK_MAX_TENSORS; i++) free(first[i]);
	free(again);
	return rc;
}

/* Does a fake output (zeros, ones, a constant, a copy of an input) pass? */
static int fake_passes(const plan *pl, const config *c, host_set *h, int kind, double k, int src)
{
	int all = 1;
	for (int i = 0; i < pl->nt && all; i++) {
		if (!pl->t[i].out) continue;
		double *y = (double *)xmalloc((size_t)(c->n[i] ? c->n[i] : 1) * 8);
		for (long long j = 0; j < c->n[i]; j++) {
			if (kind == 2) y[j] = j < c->n[src] ? to_double(h->in[src], pl->t[src].dt, j) : 0.0;
			else y[j] = k;
		}
		all = compare(pl, c, c->n[i], y, -1, pl->t[i].dt, h->ref[i]).bad == 0;
		free(y);
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
