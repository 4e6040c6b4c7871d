/* bench/tasks/scan/reference.cu: CPU reference, 64-bit sum reduced mod 2^32. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const unsigned *x = (const unsigned *)a->in[0];
	unsigned long long s = 0;
	for (long long i = 0; i < a->n[0]; i++) {
		s = (s + x[i]) & 0xffffffffULL;
		a->out[1][i] = (double)s;
	}
	return 0;
}
