/* Adversarial (gelu): calls the harness's own reference.  Rejected by the
 * static gate. */
#include "ka_task.h"
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	ka_ref_args r = {};
	return ka_task_reference(&r);
}
