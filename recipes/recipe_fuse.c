/* recipes/recipe_fuse.c: the fuse-elementwise recipe (rule
 * host-kernel-chain-unfused).  Back-to-back launches of one-element-per-
 * thread kernels over the same count, on the same stream,
 *     add_bias<<<g, b, 0, s>>>(x, bias, t, n, cols);
 *     gelu_inplace<<<g, b, 0, s>>>(t, n);
 *     apply_scale<<<g, b, 0, s>>>(t, sc, y, n, cols);
 * each make a full pass through memory.  The recipe writes one kernel whose
 * thread runs the bodies in launch order for its element, and one launch.
 * The fused kernel keeps the element-wise shape, so vectorize and
 * grid-stride still apply to it afterwards.
 *
 * Proved first: every kernel has the element-wise shape (recipe.h) with its
 * bound on the same launch argument, and none is a grid-stride loop (whose
 * launch need not cover its count); nothing but the launches lies between
 * them; their configs are the same text; every buffer that one of them
 * could write (every pointer to non-const) is accessed only as the
 * thread's own element (p[i], never &p[i]) in all of them, so running the
 * bodies per element keeps each element's order; a read-only buffer is
 * only indexed.
 * The fused index has the kernels' index type (they must agree, const
 * aside), so each body computes with the type it had.
 * Launch arguments are buffers by their text: two different argument
 * texts are taken to be different buffers (the bench checks the result). */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_CHAIN 8
#define MAX_ARGS 32

typedef struct farg {
	char text[256];          /* the launch argument, squeezed */
	char name[KA_CSRC_NAME]; /* its parameter name in the fused kernel */
	char type[160];
} farg;

typedef struct chain {
	int nl, launch[MAX_CHAIN];
	const ka_csrc_kernel *k[MAX_CHAIN];
	ka_recipe_ew sh[MAX_CHAIN];
	int map[MAX_CHAIN][KA_CSRC_MAX_PARAMS]; /* kernel param -> fused arg */
	int na;
	farg a[MAX_ARGS];
} chain;

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Body text of kernel j with its parameter names and index renamed. */
static void renamed(ka_buf *b, const char *t, size_t e, const chain *ch, int j)
{
	const ka_csrc_kernel *k = ch->k[j];
	size_t i = 0, from = 0;
	while (i < e) {
		if (!is_ident(t[i]) || (i > 0 && (is_ident(t[i - 1]) || t[i - 1] == '.')) ||
		    (i > 1 && t[i - 1] == '>' && t[i - 2] == '-')) {
			i++;
			continue;
		}
		size_t u = i;
		while (u < e && is_ident(t[u]))
			u++;
		const char *rep = NULL;
		if (u - i == strlen(ch->sh[j].var) && !memcmp(t + i, ch->sh[j].var, u - i))
			rep = "ka_i";
		for (int p = 0; p < k->nparams && !rep; p++)
			if (strlen(k->params[p].name) == u - i && !memcmp(t + i, k->params[p].name, u - i))
				rep = ch->a[ch->map[j][p]].name;
		if (rep) {
			ka_buf_add(b, t + from, i - from);
			ka_buf_adds(b, rep);
			from = u;
		}
		i = u;
	}
	ka_buf_add(b, t + from, e - from);
}

/* Find the chain that starts with a launch of c->k. */
static int find_chain(ka_recipe_ctx *c, chain *ch)
{
	const ka_csrc *m = c->m;
	int first = -1;
	for (int i = 0; i < m->nlaunches && first < 0; i++)
		if (!strcmp(m->l[i].kernel, c->k->name))
			first = i;
	if (first < 0)
		return ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
	memset(ch, 0, sizeof *ch);
	for (int i = first; i < m->nlaunches && ch->nl < MAX_CHAIN; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (i > first) {
			/* only blanks and the previous launch's ';' in between */
			size_t p = ka_csrc_skip_blank(m->text, m->len, m->l[i - 1].end);
			if (p >= m->len || m->text[p] != ';' ||
			    ka_csrc_skip_blank(m->text, m->len, p + 1) != l->start)
				break;
			char a[512], b2[512];
			int same = l->ncfg == m->l[first].ncfg;
			for (int q = 0; same && q < l->ncfg; q++) {
				ka_csrc_squeeze(m->text, l->cfg[q].s, l->cfg[q].e, a, sizeof a);
				ka_csrc_squeeze(m->text, m->l[first].cfg[q].s, m->l[first].cfg[q].e, b2,
						sizeof b2);
				same = !strcmp(a, b2);
			}
			if (!same)
				break;
		}
		const ka_csrc_kernel *k = ka_csrc_kernel_find(m, l->kernel);
		if (!k || l->nargs != k->nparams)
			break;
		ka_recipe_ctx sub = {.m = m, .k = k, .params = c->params};
		if (ka_recipe_ew_shape(&sub, &ch->sh[ch->nl]) != KA_OK) {
			if (i == first)
				return ka_recipe_decline(c, "%s", sub.why);
			break;
		}
		/* a grid-stride loop covers its count with any grid, the fused
		 * kernel (one element a thread) only with a grid that does */
		if (ch->sh[ch->nl].stride_loop) {
			if (ch->nl < 2)
				return ka_recipe_decline(c,
							 "%s loops over the grid: one element a thread would "
							 "leave the elements past its launch's threads",
							 k->name);
			break;
		}
		/* one index for all the bodies, of the type each had */
		if (ch->nl && strcmp(ch->sh[ch->nl].base, ch->sh[0].base)) {
			if (ch->nl < 2)
				return ka_recipe_decline(c, "the index of %s is '%s', that of %s '%s'",
							 c->k->name, ch->sh[0].base, k->name,
							 ch->sh[ch->nl].base);
			break;
		}
		ch->k[ch->nl] = k;
		ch->launch[ch->nl++] = i;
	}
	if (ch->nl < 2)
		return ka_recipe_decline(c, "its launch is not followed by another element-wise launch");
	return KA_OK;
}

/* Fused parameters: launch arguments deduplicated by text. */
static int map_args(ka_recipe_ctx *c, chain *ch, char *count)
{
	const ka_csrc *m = c->m;
	for (int j = 0; j < ch->nl; j++) {
		const ka_csrc_launch *l = &m->l[ch->launch[j]];
		for (int p = 0; p < ch->k[j]->nparams; p++) {
			char txt[256];
			if (!ka_csrc_squeeze(m->text, l->args[p].s, l->args[p].e, txt, sizeof txt))
				return ka_recipe_decline(c, "a launch argument is too long");
			int f = -1;
			for (int q = 0; q < ch->na && f < 0; q++)
				if (!strcmp(ch->a[q].text, txt))
					f = q;
			const ka_csrc_param *pa = &ch->k[j]->params[p];
			if (f < 0) {
				if (ch->na == MAX_ARGS)
					return ka_recipe_decline(c, "too many arguments");
				f = ch->na++;
				snprintf(ch->a[f].text, sizeof ch->a[f].text, "%s", txt);
				snprintf(ch->a[f].type, sizeof ch->a[f].type, "%s", pa->type);
				snprintf(ch->a[f].name, sizeof ch->a[f].name, "%s", pa->name);
				for (int q = 0; q < f; q++)
					if (!strcmp(ch->a[q].name, ch->a[f].name))
						snprintf(ch->a[f].name, sizeof ch->a[f].name, "ka_a%d", f);
			} else if (strcmp(ch->a[f].type, pa->type)) {
				/* the same buffer as const T * and T *: the fused kernel takes T * */
				char x[176], y[176]; /* "const " and a type of up to 159 characters */
				snprintf(x, sizeof x, "const %s", pa->type);
				snprintf(y, sizeof y, "const %s", ch->a[f].type);
				if (!strcmp(x, ch->a[f].type))
					snprintf(ch->a[f].type, sizeof ch->a[f].type, "%s", pa->type);
				else if (strcmp(y, pa->type))
					return ka_recipe_decline(c, "argument %s has two types", txt);
			}
			ch->map[j][p] = f;
			if (!strcmp(pa->name, ch->sh[j].count)) {
				if (j == 0)
					snprintf(count, KA_CSRC_NAME, "%s", ch->a[f].name);
				else if (strcmp(count, ch->a[f].name))
					return ka_recipe_decline(c, "the kernels count different lengths");
			}
		}
	}
	return KA_OK;
}

/* Each writable buffer is touched only as `p[ka_i]`, in every body, and
 * never through its address (&p[ka_i], an atomic's): whatever writes it
 * (=, op=, ++, a scatter, pointer arithmetic) then writes the thread's own
 * element.  A read-only buffer is only indexed, never offset or cast. */
static int check_elementwise(ka_recipe_ctx *c, const chain *ch, const char *body)
{
	size_t bl = strlen(body);
	static char sq[65536];
	if (!ka_csrc_squeeze(body, 0, bl, sq, sizeof sq))
		return ka_recipe_decline(c, "the fused body is too long");
	for (int f = 0; f < ch->na; f++) {
		const char *ty = ch->a[f].type, *star = strchr(ty, '*'), *cn = strstr(ty, "const");
		if (!star)
			continue;
		int writable = !cn || cn > star;
		const char *nm = ch->a[f].name;
		size_t nl = strlen(nm);
		int uses = ka_csrc_count_word(body, 0, bl, nm), ok = 0;
		for (const char *q = strstr(sq, nm); q; q = strstr(q + 1, nm)) {
			if ((q > sq && (is_ident(q[-1]) || q[-1] == '.')) || is_ident(q[nl]) ||
			    (q > sq + 1 && q[-1] == '>' && q[-2] == '-'))
				continue; /* another name, or a member */
			if (q > sq && q[-1] == '&' && (q == sq + 1 || q[-2] != '&'))
				continue; /* its address */
			ok += writable ? !strncmp(q + nl, "[ka_i]", 6) : q[nl] == '[';
		}
		if (ok != uses)
			return ka_recipe_decline(c,
						 writable ? "%s is writable and used other than as its own "
							    "element [i]"
							  : "%s is used other than indexed",
						 ch->a[f].text);
	}
	return KA_OK;
}

static int fuse_apply(ka_recipe_ctx *c, ka_buf *out)
{
	static chain ch;
	char count[KA_CSRC_NAME] = "";
	int rc = find_chain(c, &ch);
	if (rc == KA_OK)
		rc = map_args(c, &ch, count);
	if (rc)
		return rc;
	const ka_csrc *m = c->m;
	ka_buf body, k;
	ka_buf_init(&body, 1 << 20);
	ka_buf_init(&k, 1 << 20);
	for (int j = 0; j < ch.nl; j++) {
		ka_buf_printf(&body, "\t\t/* %s */\n\t\t", ch.k[j]->name);
		ka_buf tmp;
		ka_buf_init(&tmp, 1 << 20);
		ka_recipe_add_body(&tmp, m->text, ch.sh[j].body_s, ch.sh[j].body_e);
		if (tmp.data)
			renamed(&body, tmp.data, tmp.len, &ch, j);
		ka_buf_free(&tmp);
		ka_buf_adds(&body, "\n");
	}
	rc = body.data ? check_elementwise(c, &ch, body.data) : ka_error_set(KA_ENOMEM, "out of memory");
	char fname[KA_CSRC_NAME + 8];
	snprintf(fname, sizeof fname, "%s_fused", ch.k[0]->name);
	if (rc == KA_OK && ka_csrc_kernel_find(m, fname))
		rc = ka_recipe_decline(c, "%s exists already", fname);
	ka_buf_printf(&k, "\n\n/* %s", ch.k[0]->name);
	for (int j = 1; j < ch.nl; j++)
		ka_buf_printf(&k, " + %s", ch.k[j]->name);
	ka_buf_printf(&k, ", one element per thread, in launch order */\n__global__ void %s(", fname);
	for (int f = 0; f < ch.na; f++)
		ka_buf_printf(&k, "%s%s %s", f ? ", " : "", ch.a[f].type, ch.a[f].name);
	ka_buf_printf(&k,
		      ")\n{\n\t%s ka_i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		      "\tif (ka_i < %s) {\n%s\t}\n}\n",
		      ch.sh[0].base, count, body.data ? body.data : "");
	/* the fused kernel after the last kernel of the chain; one launch */
	size_t after = 0;
	for (int j = 0; j < ch.nl; j++)
		after = ch.k[j]->body_close + 1 > after ? ch.k[j]->body_close + 1 : after;
	ka_recipe_edits ed = {0};
	const ka_csrc_launch *l0 = &m->l[ch.launch[0]], *ln = &m->l[ch.launch[ch.nl - 1]];
	if (rc == KA_OK && after > l0->start)
		rc = ka_recipe_decline(c, "the kernels are defined after their launches");
	if (rc == KA_OK)
		rc = k.data ? ka_recipe_edit(&ed, after, after, k.data) : KA_ENOMEM;
	ka_buf launch;
	ka_buf_init(&launch, 1 << 16);
	ka_buf_printf(&launch, "%s<<<", fname);
	ka_buf_add(&launch, m->text + l0->cfg[0].s, l0->cfg[l0->ncfg - 1].e - l0->cfg[0].s);
	ka_buf_adds(&launch, ">>>(");
	for (int f = 0; f < ch.na; f++)
		ka_buf_printf(&launch, "%s%s", f ? ", " : "", ch.a[f].text);
	ka_buf_adds(&launch, ")");
	if (rc == KA_OK)
		rc = launch.data ? ka_recipe_edit(&ed, l0->start, ln->end, launch.data) : KA_ENOMEM;
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, m->text, m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&launch);
	ka_buf_free(&body);
	ka_buf_free(&k);
	return rc;
}

static const char *const fuse_grid[] = {"", NULL};

const ka_recipe ka_recipe_fuse_elementwise = {
	.name = "fuse-elementwise",
	.summary = "back-to-back element-wise launches over one count -> one kernel, one pass",
	/* the element-wise finding too: on kernels launched back to back, fusing
	 * comes first, since vectorize composes after it and not before */
	.rules = "host-kernel-chain-unfused gmem-scalar-not-vectorized",
	.grid = fuse_grid,
	.apply = fuse_apply,
};
