/* agents/scaffold.c: a bench task scaffolded from one kernel (agents/scaffold.h).
 * It reads the kernel through the offline expert's source model
 * (agents/csrc.h): parameters, the thread-index declarations and their
 * bound checks, and each pointer's accesses (directly or through a local
 * `T *q = p + ...` alias). */
#include "agents/scaffold.h"
#include "agents/csrc.h"
#include "agents/recipe.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NPOS ((size_t)-1)

typedef struct facts {
	int kind[KA_CSRC_MAX_PARAMS]; /* 0 pointer, 1 integer, 2 floating */
	char dtype[KA_CSRC_MAX_PARAMS][8];
	int written[KA_CSRC_MAX_PARAMS];
	char shape[KA_CSRC_MAX_PARAMS][256];
	char xvar[64], yvar[64], xbound[KA_CSRC_NAME], ybound[KA_CSRC_NAME];
} facts;

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *base_type(const char *type, int *kind)
{
	static char t[160];
	snprintf(t, sizeof t, "%s", type);
	for (char *q; (q = strstr(t, "const "));)
		memmove(q, q + 6, strlen(q + 6) + 1);
	for (char *q; (q = strstr(t, "__restrict__"));)
		memmove(q, q + 12, strlen(q + 12) + 1);
	char *star = strchr(t, '*');
	*kind = star ? 0 : -1;
	if (star)
		*star = 0;
	size_t n = strlen(t);
	while (n && t[n - 1] == ' ')
		t[--n] = 0;
	static const char *const ints[] = {"int",      "long long",    "long",   "size_t",
					   "unsigned", "unsigned int", "int64_t"};
	if (!star) {
		for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
			if (!strcmp(t, ints[i]))
				*kind = 1;
		if (!strcmp(t, "float") || !strcmp(t, "double"))
			*kind = 2;
		return t;
	}
	return !strcmp(t, "float")                                        ? "f32"
	       : !strcmp(t, "double")                                     ? "f64"
	       : !strcmp(t, "int")                                        ? "i32"
	       : !strcmp(t, "unsigned") || !strcmp(t, "unsigned int")     ? "u32"
	       : !strcmp(t, "__half") || !strcmp(t, "half")               ? "f16"
	       : !strcmp(t, "__nv_bfloat16") || !strcmp(t, "nv_bfloat16") ? "bf16"
									  : NULL;
}

/* The bound B of `if (v < B ...` / `if (v >= B) return;` anywhere in the body. */
static void bound_of(const ka_csrc *m, const ka_csrc_kernel *k, const char *v, char *out, size_t cap)
{
	char sq[8192], a[160], b[160];
	out[0] = 0;
	if (!ka_csrc_squeeze(m->text, k->body_open, k->body_close, sq, sizeof sq))
		return;
	snprintf(a, sizeof a, "%s<", v);
	snprintf(b, sizeof b, "%s>=", v);
	for (const char *p = sq; (p = strstr(p, "if(")); p++) {
		const char *q = p + 3;
		for (; *q && *q != ')'; q++) {
			const char *hit = !strncmp(q, a, strlen(a)) && q[strlen(a)] != '=' ? q + strlen(a)
					  : !strncmp(q, b, strlen(b))                      ? q + strlen(b)
											   : NULL;
			if (hit && (q == p + 3 || !is_ident(q[-1]))) {
				size_t n = 0;
				while (is_ident(hit[n]) && n + 1 < cap)
					n++;
				if (n) {
					snprintf(out, cap, "%.*s", (int)n, hit);
					if (ka_csrc_param_index(k, out) >= 0)
						return;
					out[0] = 0;
				}
			}
		}
	}
}

static void add_dim(char *shape, size_t cap, const char *name)
{
	char w[KA_CSRC_NAME + 4];
	snprintf(w, sizeof w, "%s", name);
	if (ka_csrc_has_word(shape, 0, strlen(shape), w))
		return;
	size_t n = strlen(shape);
	snprintf(shape + n, cap - n, "%s%s", n ? ", " : "", name);
}

/* Loop variables bounded by a parameter: for(T v=...;v<B;...) */
typedef struct lbound {
	int n;
	char v[8][64], b[8][KA_CSRC_NAME];
} lbound;

static void loop_bounds(const char *sq, const ka_csrc_kernel *k, lbound *lb)
{
	lb->n = 0;
	for (const char *p = strstr(sq, "for("); p && lb->n < 8; p = strstr(p + 1, "for(")) {
		const char *semi = strchr(p, ';'), *eq = strchr(p, '=');
		if (!semi || !eq || eq > semi)
			continue;
		const char *vs = eq;
		while (vs > p + 4 && is_ident(vs[-1]))
			vs--;
		char v[64], want[80];
		snprintf(v, sizeof v, "%.*s", (int)(eq - vs), vs);
		snprintf(want, sizeof want, ";%s<", v);
		if (strncmp(semi, want, strlen(want)))
			continue;
		const char *bs = semi + strlen(want);
		size_t n = 0;
		while (is_ident(bs[n]))
			n++;
		char bnd[KA_CSRC_NAME];
		snprintf(bnd, sizeof bnd, "%.*s", (int)n, bs);
		if (ka_csrc_param_index(k, bnd) < 0)
			continue;
		snprintf(lb->v[lb->n], sizeof lb->v[0], "%s", v);
		snprintf(lb->b[lb->n++], sizeof lb->b[0], "%s", bnd);
	}
}

/* The dimensions an index expression implies: the bounds of the thread
 * and loop variables in it and the integer parameters it names; `E % P`
 * is P alone. */
static void dims_of(const char *idx, const ka_csrc_kernel *k, const facts *f, const lbound *lb, char *shape,
		    size_t cap)
{
	const char *pct = strrchr(idx, '%');
	if (pct && ka_csrc_param_index(k, pct + 1) >= 0 && !strchr(pct, ')')) {
		add_dim(shape, cap, pct + 1);
		return;
	}
	size_t n = strlen(idx);
	if (f->yvar[0] && f->ybound[0] && ka_csrc_has_word(idx, 0, n, f->yvar))
		add_dim(shape, cap, f->ybound);
	if (f->xbound[0] && ka_csrc_has_word(idx, 0, n, f->xvar))
		add_dim(shape, cap, f->xbound);
	for (int i = 0; i < lb->n; i++)
		if (ka_csrc_has_word(idx, 0, n, lb->v[i]))
			add_dim(shape, cap, lb->b[i]);
	for (int q = 0; q < k->nparams; q++)
		if (f->kind[q] == 1 && ka_csrc_has_word(idx, 0, n, k->params[q].name))
			add_dim(shape, cap, k->params[q].name);
}

/* Accesses of pointer p (and of locals `T *q = p + E;`): written?, shape. */
static void accesses(const ka_csrc *m, const ka_csrc_kernel *k, facts *f, int p)
{
	static char sq[65536];
	if (!ka_csrc_squeeze(m->text, k->body_open, k->body_close + 1, sq, sizeof sq))
		return;
	lbound lb;
	loop_bounds(sq, k, &lb);
	char names[4][KA_CSRC_NAME];
	int nn = 1;
	snprintf(names[0], sizeof names[0], "%s", k->params[p].name);
	char pat[KA_CSRC_NAME + 4];
	snprintf(pat, sizeof pat, "=%s+", names[0]);
	for (const char *q = strstr(sq, pat); q && nn < 4; q = strstr(q + 1, pat)) {
		const char *vs = q;
		while (vs > sq && is_ident(vs[-1]))
			vs--;
		if (vs == q || vs == sq || vs[-1] != '*')
			continue;
		snprintf(names[nn++], sizeof names[0], "%.*s", (int)(q - vs < 95 ? q - vs : 95), vs);
		const char *end = q + strlen(pat);
		char rhs[256];
		snprintf(rhs, sizeof rhs, "%.*s", (int)strcspn(end, ";,"), end);
		dims_of(rhs, k, f, &lb, f->shape[p], sizeof f->shape[p]);
	}
	for (int a = 0; a < nn; a++) {
		char st[KA_CSRC_NAME + 4];
		snprintf(st, sizeof st, "%.95s[", names[a]);
		for (const char *q = strstr(sq, st); q; q = strstr(q + 1, st)) {
			if (q > sq && is_ident(q[-1]))
				continue;
			size_t o = (size_t)(q - sq) + strlen(names[a]), c = ka_csrc_match(sq, strlen(sq), o);
			if (c == NPOS)
				continue;
			if ((sq[c + 1] == '=' && sq[c + 2] != '=') ||
			    (strchr("+-*/", sq[c + 1]) && sq[c + 2] == '=') ||
			    (q >= sq + 11 && !strncmp(q - 11, "atomicAdd(&", 11)))
				f->written[p] = 1;
			char idx[512];
			snprintf(idx, sizeof idx, "%.*s", (int)(c - o - 1), sq + o + 1);
			/* a subscript inside the subscript indexes another array */
			for (char *b = strchr(idx, '['); b; b = strchr(idx, '[')) {
				size_t cb = ka_csrc_match(idx, strlen(idx), (size_t)(b - idx));
				if (cb == NPOS)
					break;
				memmove(b, idx + cb + 1, strlen(idx + cb + 1) + 1);
			}
			if (a == 0 || !f->shape[p][0])
				dims_of(idx, k, f, &lb, f->shape[p], sizeof f->shape[p]);
			else if (a > 0) {
				/* through an alias: only the loop bounds add a dimension */
				facts g = *f;
				g.xbound[0] = g.ybound[0] = 0;
				for (int i = 0; i < k->nparams; i++)
					g.kind[i] = 0;
				dims_of(idx, k, &g, &lb, f->shape[p], sizeof f->shape[p]);
			}
		}
	}
}

static int read_facts(const ka_csrc *m, const ka_csrc_kernel *k, facts *f)
{
	memset(f, 0, sizeof *f);
	const char *t = m->text;
	size_t s0 = ka_csrc_skip_blank(t, m->len, k->body_open + 1), e0 = ka_csrc_stmt_end(t, m->len, s0);
	if (e0 != NPOS && ka_recipe_is_tid_decl_axis(t, s0, e0, 'x', f->xvar, sizeof f->xvar)) {
		size_t s1 = ka_csrc_skip_blank(t, m->len, e0), e1 = ka_csrc_stmt_end(t, m->len, s1);
		if (e1 != NPOS && !ka_recipe_is_tid_decl_axis(t, s1, e1, 'y', f->yvar, sizeof f->yvar))
			f->yvar[0] = 0;
		bound_of(m, k, f->xvar, f->xbound, sizeof f->xbound);
		if (f->yvar[0])
			bound_of(m, k, f->yvar, f->ybound, sizeof f->ybound);
		if (f->yvar[0] && !f->ybound[0])
			f->yvar[0] = 0;
	}
	for (int p = 0; p < k->nparams; p++) {
		int kind;
		const char *d = base_type(k->params[p].type, &kind);
		if (kind < 0 || (kind == 0 && !d))
			return ka_error_set(
				KA_EINPUT,
				"parameter %s of %s: type '%s' has no bench dtype (f32 f64 i32 u32 f16 bf16, "
				"integer or floating scalars)",
				k->params[p].name, k->name, k->params[p].type);
		f->kind[p] = kind;
		if (kind == 0)
			snprintf(f->dtype[p], sizeof f->dtype[p], "%s", d);
	}
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 0)
			accesses(m, k, f, p);
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 0 && !f->shape[p][0])
			for (int q = 0; q < k->nparams && !f->shape[p][0]; q++)
				if (f->kind[q] == 1)
					snprintf(f->shape[p], sizeof f->shape[p], "%s", k->params[q].name);
	return KA_OK;
}

static void yaml(ka_buf *b, const ka_csrc_kernel *k, const facts *f, const char *file)
{
	ka_buf_printf(b,
		      "# Scaffolded by `kcheck bench init %s --kernel %s` from the kernel's facts.\n"
		      "# TODO: the sizes of each config, the tolerance, the FLOPs, and reference.cu.\n"
		      "name: %s\ncategory: custom\nparams: [",
		      file, k->name, k->name);
	int np = 0, ns = 0;
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 1)
			ka_buf_printf(b, "%s%s", np++ ? ", " : "", k->params[p].name);
	ka_buf_adds(b, "]\ntensors:\n");
	for (int p = 0; p < k->nparams; p++) {
		if (f->kind[p])
			continue;
		ka_buf_printf(b, "  - {name: %s, role: %s, dtype: %s, shape: [%s]", k->params[p].name,
			      f->written[p] ? "out" : "in", f->dtype[p], f->shape[p]);
		int fp = f->dtype[p][0] == 'f' || f->dtype[p][0] == 'b'; /* f32 f64 f16 bf16 */
		if (!f->written[p])
			ka_buf_printf(b, ", dist: {kind: %s, lo: %s, hi: %s}", fp ? "uniform" : "int",
				      fp ? "-1" : "0", fp ? "1" : "1000");
		ka_buf_printf(b, "}%s\n", f->written[p] ? "   # written by the kernel" : "");
	}
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 2) {
			if (!ns++)
				ka_buf_adds(b, "scalars:\n");
			ka_buf_printf(b, "  - {name: %s, lo: 0.5, hi: 2}   # TODO: its range\n",
				      k->params[p].name);
		}
	ka_buf_adds(b, "tolerance: {atol: 1.0e-5, rtol: 1.0e-4, l2: 1.0e-5}   # TODO\nbytes: ");
	int nb = 0;
	for (int p = 0; p < k->nparams; p++) {
		if (f->kind[p])
			continue;
		char dims[256];
		snprintf(dims, sizeof dims, "%s", f->shape[p]);
		for (char *q; (q = strstr(dims, ", "));) {
			q[0] = '*';
			memmove(q + 1, q + 2, strlen(q + 2) + 1);
		}
		const char *d = f->dtype[p];
		ka_buf_printf(b, "%s%d*%s", nb++ ? " + " : "",
			      !strcmp(d, "f64")                         ? 8
			      : !strcmp(d, "f16") || !strcmp(d, "bf16") ? 2
									: 4,
			      dims);
	}
	ka_buf_adds(b, "\nflops: ");
	for (int p = 0, done = 0; p < k->nparams && !done; p++)
		if (!f->kind[p] && f->written[p]) {
			char dims[256];
			snprintf(dims, sizeof dims, "%s", f->shape[p]);
			for (char *q; (q = strstr(dims, ", "));) {
				q[0] = '*';
				memmove(q + 1, q + 2, strlen(q + 2) + 1);
			}
			ka_buf_printf(b, "%s   # TODO: per output element", dims);
			done = 1;
		}
	ka_buf_adds(b, "\nconfigs:\n  visible:\n    - {name: v_1");
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 1)
			ka_buf_printf(b, ", %s: 1024", k->params[p].name);
	ka_buf_adds(b, "}   # TODO: sizes\n  unseen:\n    - {name: u_1");
	for (int p = 0; p < k->nparams; p++)
		if (f->kind[p] == 1)
			ka_buf_printf(b, ", %s: 999", k->params[p].name);
	ka_buf_adds(b, "}   # TODO: sizes no candidate sees\n");
}

static void wrapper(ka_buf *b, const ka_csrc_kernel *k, const facts *f)
{
	int ti = 0, pi = 0, si = 0;
	const char *xb = f->xbound[0] ? f->xbound : NULL;
	ka_buf_adds(
		b,
		"\n/* the task's entry point (scaffolded by kcheck bench init) */\n"
		"extern \"C\" int ka_task_run(const ka_task_args *ka_args_, cudaStream_t ka_stream_)\n{\n");
	for (int p = 0; p < k->nparams; p++) {
		const ka_csrc_param *pa = &k->params[p];
		if (f->kind[p] == 1)
			ka_buf_printf(b, "\t%s %s = (%s)ka_args_->p[%d];\n", pa->type, pa->name, pa->type,
				      pi++);
		else if (f->kind[p] == 2)
			ka_buf_printf(b, "\t%s %s = (%s)ka_args_->s[%d];\n", pa->type, pa->name, pa->type,
				      si++);
		else
			ka_buf_printf(b, "\t%s %s = (%s)ka_args_->t[%d];\n", pa->type, pa->name, pa->type,
				      ti++);
	}
	if (f->yvar[0])
		ka_buf_printf(
			b,
			"\tdim3 block(32, 8), grid((unsigned)((%s + 31) / 32), (unsigned)((%s + 7) / 8));\n"
			"\t%s<<<grid, block, 0, ka_stream_>>>(",
			f->xbound, f->ybound, k->name);
	else if (xb)
		ka_buf_printf(b, "\t%s<<<(unsigned)(((long long)%s + 255) / 256), 256, 0, ka_stream_>>>(",
			      k->name, xb);
	else
		ka_buf_printf(b, "\t/* TODO: the grid this kernel needs */\n\t%s<<<1, 256, 0, ka_stream_>>>(",
			      k->name);
	for (int p = 0; p < k->nparams; p++)
		ka_buf_printf(b, "%s%s", p ? ", " : "", k->params[p].name);
	ka_buf_adds(b, ");\n\treturn 0;\n}\n");
}

static const char reference_stub[] =
	"/* reference.cu (scaffolded by kcheck bench init): TODO: an fp64 CPU reference.\n"
	" * a->in[k] are the input tensors in task.yaml's order (NULL for outputs),\n"
	" * a->out[k] the outputs as doubles, a->n[k] their element counts, a->p the\n"
	" * params, a->s the scalars.  Until it is written the task fails. */\n"
	"#include \"ka_task.h\"\n\n"
	"extern \"C\" int ka_task_reference(const ka_ref_args *a)\n{\n\t(void)a;\n\treturn -1;\n}\n";

static int empty_dir_or_new(const char *dir)
{
	int n = ka_fs_dir_entries(dir);
	if (n < 0)
		return mkdir(dir, 0777) ? ka_error_set(KA_EIO, "cannot create %s", dir) : KA_OK;
	return n ? ka_error_set(KA_EINPUT, "%s exists and is not empty", dir) : KA_OK;
}

static int put(const char *dir, const char *name, const char *text)
{
	char p[1200];
	if (snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", dir);
	return ka_fs_write_atomic(p, text, strlen(text));
}

int ka_scaffold_task(const char *file, const char *kernel, const char *out_dir)
{
	static ka_csrc m;
	static facts f;
	char *text = NULL;
	size_t len;
	ka_buf y, base;
	ka_buf_init(&y, 1 << 20);
	ka_buf_init(&base, 64 << 20);
	int rc = ka_fs_read(file, 0, &text, &len);
	if (rc == KA_OK)
		rc = ka_csrc_scan(&m, text, len);
	const ka_csrc_kernel *k = rc == KA_OK ? ka_csrc_kernel_find(&m, kernel) : NULL;
	if (rc == KA_OK && !k) {
		ka_buf names;
		ka_buf_init(&names, 4096);
		for (int i = 0; i < m.nkernels; i++)
			ka_buf_printf(&names, "%s%s", i ? ", " : "", m.k[i].name);
		rc = ka_error_set(KA_ENOTFOUND, "%s has no kernel named %s (kernels: %s)", file, kernel,
				  names.data ? names.data : "none");
		ka_buf_free(&names);
	}
	if (rc == KA_OK)
		rc = read_facts(&m, k, &f);
	if (rc == KA_OK && strstr(text, "ka_task_run"))
		rc = ka_error_set(KA_EINPUT, "%s defines ka_task_run already: it is a task's kernel file",
				  file);
	if (rc == KA_OK)
		rc = empty_dir_or_new(out_dir);
	if (rc == KA_OK) {
		yaml(&y, k, &f, file);
		ka_buf_printf(&base,
			      "/* baseline.cu: %s as the task's baseline (kcheck bench init). */\n"
			      "#include \"ka_task.h\"\n",
			      file);
		if (strstr(text, "main("))
			ka_buf_adds(
				&base,
				"#define main ka_user_main   /* the bench harness has its own main() */\n");
		/* no #line: findings in baseline.cu name baseline.cu's own lines */
		ka_buf_add(&base, text, len);
		wrapper(&base, k, &f);
		rc = !y.data || !base.data ? ka_error_set(KA_ENOMEM, "out of memory") : KA_OK;
	}
	if (rc == KA_OK)
		rc = put(out_dir, "task.yaml", y.data);
	if (rc == KA_OK)
		rc = put(out_dir, "baseline.cu", base.data);
	if (rc == KA_OK)
		rc = put(out_dir, "reference.cu", reference_stub);
	ka_buf_free(&y);
	ka_buf_free(&base);
	free(text);
	return rc;
}
