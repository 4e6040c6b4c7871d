/* bench/tasks/gelu_f16/reference.cu: fp64 CPU reference from the f16
 * inputs as drawn, y = x * Phi(x) with Phi(x) = erfc(-x/sqrt 2)/2. */
#include <math.h>
#include "ka_task.h"
#include "ka_lowp.h"

struct ctx { const uint16_t *x; double *y; };

static void part(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long i = lo; i < hi; i++) {
		double v = ka_f16_to_float(c->x[i]);
		c->y[i] = 0.5 * v * erfc(-v / sqrt(2.0));
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const uint16_t *)a->in[0], a->out[1]};
	ka_ref_parallel_for(a->n[0], part, &c);
	return 0;
}
