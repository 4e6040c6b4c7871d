/* bench/tasks/embedding_add_bf16/reference.cu: fp64 CPU reference from
 * the bf16 tables as drawn; an id outside the table fails the task. */
#include "ka_task.h"
#include "ka_lowp.h"

struct ctx { const int *ids; const uint16_t *wte, *wpe; double *out; long long seq, dim; int bad; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long t = lo; t < hi; t++) {
		long long id = c->ids[t], pos = t % c->seq;
		if (id < 0 || id >= 8192) { c->bad = 1; continue; }
		for (long long j = 0; j < c->dim; j++)
			c->out[t * c->dim + j] =
				(double)ka_bf16_to_float(c->wte[id * c->dim + j]) + (double)ka_bf16_to_float(c->wpe[pos * c->dim + j]);
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const int *)a->in[0], (const uint16_t *)a->in[1], (const uint16_t *)a->in[2], a->out[3],
			a->p[1], a->p[2], 0};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return c.bad;
}
