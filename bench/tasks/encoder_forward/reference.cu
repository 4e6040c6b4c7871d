/* bench/tasks/encoder_forward/reference.cu: fp64 CPU reference; a token id
 * outside the table fails the task. */
#include "ka_task.h"

struct ctx {
	const int *inp;
	const float *wte, *wpe;
	double *out;
	long long T, C;
	int bad;
};

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long bt = lo; bt < hi; bt++) {
		long long ix = c->inp[bt], t = bt % c->T;
		if (ix < 0 || ix >= 4096) {
			c->bad = 1;
			continue;
		}
		for (long long j = 0; j < c->C; j++)
			c->out[bt * c->C + j] = (double)c->wte[ix * c->C + j] + (double)c->wpe[t * c->C + j];
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const int *)a->in[0],
			(const float *)a->in[1],
			(const float *)a->in[2],
			a->out[3],
			a->p[1],
			a->p[2],
			0};
	ka_ref_parallel_for(a->p[0] * a->p[1], rows, &c);
	return c.bad;
}
