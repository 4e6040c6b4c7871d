/* rewriter/transforms/registry.c: the transform library by name.  Rule files
 * name a transform in their `fix:` field; ka_fixset_request looks it up here
 * and runs it on the finding's facts row.  Adding a transform = one file in
 * this folder + one line in the table below + a golden test folder. */
#include "rewriter/transforms/xform.h"
#include "util/error.h"
#include <assert.h>
#include <string.h>

typedef struct entry {
	ka_transform_info info;
	xf_fn fn;
} entry;

static const entry table[] = {
	{{"pad-shared-array", KA_FIX_SAFE,
	  "pad a shared array's innermost dimension by one element (not when reinterpreted)"},
	 xf_pad_shared_array},
	{{"float-literal-suffix", KA_FIX_UNSAFE, "0.5 -> 0.5f where the literal widens float math"},
	 xf_float_literal_suffix},
	{{"double-math-to-float", KA_FIX_UNSAFE, "sqrt(float) -> sqrtf, exp -> expf, ..."},
	 xf_double_math_to_float},
	{{"pow-to-multiply", KA_FIX_SAFE, "pow(x, 2) -> (x * x), pow(x, 3) -> (x * x * x)"},
	 xf_pow_to_multiply},
	{{"legacy-intrinsic-to-sync", KA_FIX_SAFE,
	  "__shfl_down(v, o) -> __shfl_down_sync(0xffffffff, v, o); __any/__all/__ballot likewise"},
	 xf_legacy_intrinsic_to_sync},
	{{"insert-syncwarp", KA_FIX_SAFE,
	  "split warp-synchronous shared-memory steps with __syncwarp() between read and write"},
	 xf_insert_syncwarp},
	{{"rsqrt", KA_FIX_UNSAFE, "1.0f / sqrtf(x) -> rsqrtf(x)"}, xf_rsqrt},
	{{"fast-math-intrinsic", KA_FIX_UNSAFE, "expf -> __expf, sinf -> __sinf, ..."},
	 xf_fast_math_intrinsic},
	{{"const-restrict-params", KA_FIX_UNSAFE,
	  "const on read-only pointees and __restrict__ on pointer parameters"},
	 xf_const_restrict_params},
	{{"hoist-invariant-load", KA_FIX_UNSAFE, "load a loop-invariant global element once, before the loop"},
	 xf_hoist_invariant_load},
	{{"accumulate-in-register", KA_FIX_UNSAFE,
	  "accumulate C[i] += ... of a loop in a register, store once after it"},
	 xf_accumulate_in_register},
	{{"early-return-to-guard", KA_FIX_SAFE,
	  "if (i >= n) return; body -> if (i < n) { body } with barriers kept outside"},
	 xf_early_return_to_guard},
	{{"index-to-64bit", KA_FIX_SAFE,
	  "int i = blockIdx.x * blockDim.x + threadIdx.x -> 64-bit arithmetic"},
	 xf_index_to_64bit},
	{{"swap-thread-dims", KA_FIX_SUGGEST,
	  "swap threadIdx/blockIdx/blockDim .x and .y and the launch's dims"},
	 xf_swap_thread_dims},
	{{"sequential-reduction", KA_FIX_SAFE,
	  "interleaved (tid % (2*s)) tree reduction -> sequential addressing"},
	 xf_sequential_reduction},
	{{"privatize-atomics", KA_FIX_SUGGEST,
	  "histogram atomics into a shared-memory copy, merged once per block"},
	 xf_privatize_atomics},
	{{"round-block-size", KA_FIX_UNSAFE,
	  "block size to a multiple of 32 and at least 128, ceil-div grid recomputed"},
	 xf_round_block_size},
	{{"add-launch-bounds", KA_FIX_SAFE, "__launch_bounds__(N) from the agreeing launch sites"},
	 xf_add_launch_bounds},
	{{"smem-optin-attribute", KA_FIX_SAFE,
	  "cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before the launch"},
	 xf_smem_optin_attribute},
	{{"hip-warpsize", KA_FIX_SAFE, "warp-size literals 32 / 31 -> warpSize / (warpSize - 1)"},
	 xf_hip_warpsize},
	{{"hip-64bit-mask", KA_FIX_SAFE, "0xffffffff lane masks -> 0xffffffffffffffffull"},
	 xf_hip_64bit_mask},
};

#define N_TABLE (sizeof table / sizeof table[0])

size_t ka_transform_count(void) { return N_TABLE; }

const ka_transform_info *ka_transform_get(size_t i)
{
	assert(i < N_TABLE);
	return i < N_TABLE ? &table[i].info : NULL;
}

static const entry *find(const char *name)
{
	for (size_t i = 0; name && i < N_TABLE; i++)
		if (strcmp(table[i].info.name, name) == 0)
			return &table[i];
	return NULL;
}

const ka_transform_info *ka_transform_find(const char *name)
{
	const entry *e = find(name);
	return e ? &e->info : NULL;
}

int ka_fixset_request(ka_fixset *fs, sqlite3 *db, const ka_fix_request *req)
{
	const entry *e = find(req->transform);
	if (!req->transform || !*req->transform || strcmp(req->transform, "none") == 0)
		return KA_OK;
	if (!e) {
		ka_fixset_note(fs, "%s: unknown transform '%s'", req->rule ? req->rule : "?",
			       req->transform);
		return KA_OK;
	}
	if (!req->scope || !*req->scope)
		return ka_error_set(KA_EINPUT, "fix request for %s has no scope", req->transform);
	xf_ctx c = {fs, db, req, e->info.name};
	int rc = e->fn(&c);
	return rc < 0 ? rc : KA_OK;
}
