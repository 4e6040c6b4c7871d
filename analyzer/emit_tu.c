/* analyzer/emit_tu.c: the rows that describe the translation unit (arch,
 * files and their lines, clang's diagnostics, __constant__ variables) and
 * each kernel as a whole (kernel with its occupancy, params, shared and
 * local arrays), and kcheck's own warnings about the analysis (budget,
 * limits).  Written on the typed facts writer (facts/facts.h). */
#include "analyzer/walk.h"
#include "util/checked.h"
#include <stdio.h>
#include <string.h>

void walk_emit_loc(ka_facts_row *r, const ka_loc *l)
{
	ka_facts_loc fl = {.file = l->file,
			   .line = l->line,
			   .col = l->col,
			   .end_line = l->end_line,
			   .end_col = l->end_col,
			   .begin = !l->in_macro && l->begin >= 0 ? l->begin : -1,
			   .end = !l->in_macro && l->end >= 0 ? l->end : -1};
	ka_facts_loc_set(r, &fl);
}

static void arch_row(walk *w)
{
	const ka_arch *a = w->file.arch;
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(arch));
	ka_facts_text(&r, KA_COL(arch, name), a->name);
	ka_facts_text(&r, KA_COL(arch, vendor), a->vendor);
	ka_facts_int(&r, KA_COL(arch, warp_size), a->warp_size);
	ka_facts_int(&r, KA_COL(arch, smem_banks), a->smem_banks);
	ka_facts_int(&r, KA_COL(arch, bank_bytes), a->bank_bytes);
	ka_facts_int(&r, KA_COL(arch, smem_per_block), a->smem_per_block);
	ka_facts_int(&r, KA_COL(arch, smem_per_block_optin), a->smem_per_block_optin);
	ka_facts_int(&r, KA_COL(arch, smem_per_sm), a->smem_per_sm);
	ka_facts_int(&r, KA_COL(arch, regs_per_sm), a->regs_per_sm);
	ka_facts_int(&r, KA_COL(arch, max_regs_per_thread), a->max_regs_per_thread);
	ka_facts_int(&r, KA_COL(arch, max_threads_per_block), a->max_threads_per_block);
	ka_facts_int(&r, KA_COL(arch, max_threads_per_sm), a->max_threads_per_sm);
	ka_facts_int(&r, KA_COL(arch, max_blocks_per_sm), a->max_blocks_per_sm);
	ka_facts_opt(&r, KA_COL(arch, sm_count), a->sm_count > 0, a->sm_count);
	ka_facts_opt(&r, KA_COL(arch, l2_bytes), a->l2_bytes > 0, a->l2_bytes);
	ka_facts_int(&r, KA_COL(arch, sector_bytes), a->sector_bytes);
	ka_facts_insert(&r);
}

static int file_has_code(ka_tu *tu, const char *path)
{
	for (ka_decl *f = tu->funcs; f; f = f->next)
		if (f->loc.file && strcmp(f->loc.file, path) == 0)
			return 1;
	return 0;
}

static void line_rows(walk *w, const ka_srcfile *f)
{
	const char *p = f->data, *end = f->data + f->len;
	int ln = 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		ka_facts_row r;
		ka_facts_begin(&r, w->file.fw, KA_TABLE(line));
		ka_facts_text(&r, KA_COL(line, file), f->path);
		ka_facts_int(&r, KA_COL(line, line), ln++);
		ka_facts_textn(&r, KA_COL(line, text), p, (int)(e - p));
		ka_facts_insert(&r);
		p = nl ? nl + 1 : end;
	}
}

void walk_emit_tu(walk *w)
{
	ka_facts_row r;
	arch_row(w);
	for (const ka_srcfile *g = w->file.tu->files; g; g = g->next) {
		if (!g->is_main && !file_has_code(w->file.tu, g->path))
			continue;
		const ka_srcfile *f = ka_tu_file(w->file.tu, g->path); /* its bytes, read now */
		int errs = 0, lines = 1;
		for (const ka_diag *d = w->file.tu->diags; d; d = d->next)
			errs += d->file && strcmp(d->file, f->path) == 0 && ka_diag_is_error(d);
		for (int i = 0; i < f->len; i++)
			lines += f->data[i] == '\n';
		ka_facts_begin(&r, w->file.fw, KA_TABLE(file));
		ka_facts_text(&r, KA_COL(file, path), f->path);
		ka_facts_text(&r, KA_COL(file, lang), w->file.tu->lang);
		ka_facts_int(&r, KA_COL(file, is_main), f->is_main);
		ka_facts_int(&r, KA_COL(file, lines), lines);
		ka_facts_int(&r, KA_COL(file, parse_errors), errs);
		int unlisted = 0;
		for (const ka_diag *d = w->file.tu->diags; d && f->is_main; d = d->next)
			unlisted += d->quiet;
		ka_facts_int(&r, KA_COL(file, errors_unlisted), unlisted);
		ka_facts_insert(&r);
		line_rows(w, f);
	}
	/* in clang's order (the list runs backwards): the first error first */
	int nd = 0;
	for (const ka_diag *d = w->file.tu->diags; d; d = d->next)
		nd += !d->quiet;
	const ka_diag **order = ka_arena_alloc(w->file.a, sizeof *order * (size_t)(nd + 1));
	int k = nd;
	for (const ka_diag *d = w->file.tu->diags; d; d = d->next)
		if (!d->quiet)
			order[--k] = d;
	for (int i = 0; i < nd; i++) {
		const ka_diag *d = order[i];
		ka_facts_begin(&r, w->file.fw, KA_TABLE(diag));
		ka_facts_text(&r, KA_COL(diag, file), d->file);
		ka_facts_int(&r, KA_COL(diag, line), d->line);
		ka_facts_int(&r, KA_COL(diag, col), d->col);
		ka_facts_text(&r, KA_COL(diag, severity), d->severity);
		ka_facts_text(&r, KA_COL(diag, message), d->message);
		ka_facts_text(&r, KA_COL(diag, func), d->func);
		ka_facts_insert(&r);
	}
	for (ka_decl *g = w->file.tu->globals; g; g = g->next) {
		if (!(g->flags & KDF_CONSTANT))
			continue;
		ka_facts_begin(&r, w->file.fw, KA_TABLE(constant_var));
		ka_facts_int(&r, KA_COL(constant_var, id), walk_next_id(w));
		ka_facts_text(&r, KA_COL(constant_var, name), g->name);
		ka_facts_text(&r, KA_COL(constant_var, type), g->type);
		walk_emit_loc(&r, &g->loc);
		ka_facts_opt(&r, KA_COL(constant_var, bytes), g->type_bytes > 0, g->type_bytes);
		ka_facts_insert(&r);
	}
}

static void param_rows(walk *w, ka_decl *k)
{
	for (int i = 0; i < k->nparams; i++) {
		ka_decl *p = k->params[i];
		dstat *ds = &w->sym.ds[p->id];
		ka_facts_row r;
		ka_facts_begin(&r, w->file.fw, KA_TABLE(param));
		ka_facts_int(&r, KA_COL(param, id), walk_next_id(w));
		ka_facts_int(&r, KA_COL(param, kernel_id), w->kernel_id);
		ka_facts_text(&r, KA_COL(param, kernel), k->name);
		ka_facts_int(&r, KA_COL(param, idx), i);
		ka_facts_text(&r, KA_COL(param, name), p->name);
		ka_facts_text(&r, KA_COL(param, type), p->type);
		walk_emit_loc(&r, &p->loc);
		ka_facts_int(&r, KA_COL(param, is_pointer), (p->tflags & KT_POINTER) != 0);
		ka_facts_int(&r, KA_COL(param, is_const_pointee), (p->tflags & KT_CONST_POINTEE) != 0);
		ka_facts_int(&r, KA_COL(param, is_restrict), (p->tflags & KT_RESTRICT) != 0);
		ka_facts_opt(&r, KA_COL(param, elem_bytes), p->elem_bytes > 0, p->elem_bytes);
		ka_facts_int(&r, KA_COL(param, is_read), ds->read);
		ka_facts_int(&r, KA_COL(param, is_written), ds->written);
		ka_facts_int(&r, KA_COL(param, is_integer), (p->tflags & KT_INT) != 0);
		ka_facts_opt(&r, KA_COL(param, int_bits), (p->tflags & KT_INT) && p->type_bytes > 0,
			     p->type_bytes * 8);
		ka_facts_int(&r, KA_COL(param, is_unsigned), (p->tflags & KT_UNSIGNED) != 0);
		ka_facts_int(&r, KA_COL(param, n_loop_reads), ds->loop_reads);
		ka_facts_insert(&r);
	}
}

static int64_t array_rows(walk *w, ka_decl *k, int *dynamic)
{
	int64_t static_smem = 0;
	*dynamic = 0;
	for (int i = 0; i < w->tally.narrays; i++) {
		ka_decl *d = w->tally.arrays[i];
		dstat *ds = &w->sym.ds[d->id];
		ka_facts_row r;
		if (d->flags & KDF_SHARED) {
			int dyn = (d->flags & KDF_EXTERN) || (d->ndims && d->dims[0] < 0);
			*dynamic |= dyn;
			if (!dyn && d->type_bytes > 0)
				static_smem += d->type_bytes;
			ka_facts_begin(&r, w->file.fw, KA_TABLE(shared_array));
			ka_facts_int(&r, KA_COL(shared_array, id), walk_next_id(w));
			ka_facts_int(&r, KA_COL(shared_array, kernel_id), w->kernel_id);
			ka_facts_text(&r, KA_COL(shared_array, kernel), k->name);
			ka_facts_text(&r, KA_COL(shared_array, name), d->name);
			ka_facts_text(&r, KA_COL(shared_array, type), d->type);
			walk_emit_loc(&r, &d->loc);
			ka_facts_opt(&r, KA_COL(shared_array, elem_bytes), d->elem_bytes > 0, d->elem_bytes);
			ka_facts_int(&r, KA_COL(shared_array, ndims), d->ndims);
			static const ka_facts_col dc[] = {KA_COL(shared_array, dim0),
							  KA_COL(shared_array, dim1),
							  KA_COL(shared_array, dim2)};
			char dims[96] = "";
			for (int j = 0; j < d->ndims && j < 3; j++) {
				ka_facts_opt(&r, dc[j], d->dims[j] >= 0, d->dims[j]);
				size_t n = strlen(dims);
				snprintf(dims + n, sizeof dims - n, "[%lld]", (long long)d->dims[j]);
			}
			ka_facts_text(&r, KA_COL(shared_array, dims), dims);
			ka_facts_opt(&r, KA_COL(shared_array, bytes), !dyn && d->type_bytes > 0,
				     d->type_bytes);
			ka_facts_int(&r, KA_COL(shared_array, is_dynamic), dyn);
			ka_facts_int(&r, KA_COL(shared_array, is_file_scope),
				     (d->flags & KDF_FILE_SCOPE) != 0);
			ka_facts_int(&r, KA_COL(shared_array, is_volatile), (d->tflags & KT_VOLATILE) != 0);
			ka_facts_opt(&r, KA_COL(shared_array, inner_dim_begin_off), d->inner_dim_begin >= 0,
				     d->inner_dim_begin);
			ka_facts_opt(&r, KA_COL(shared_array, inner_dim_end_off), d->inner_dim_end >= 0,
				     d->inner_dim_end);
			ka_facts_int(&r, KA_COL(shared_array, is_reinterpreted), ds->reinterp);
			ka_facts_int(&r, KA_COL(shared_array, max_bank_ways), ds->max_bank);
			ka_facts_insert(&r);
		} else if (!(d->flags & KDF_CONSTANT) && (d->tflags & KT_ARRAY)) {
			ka_facts_begin(&r, w->file.fw, KA_TABLE(local_array));
			ka_facts_int(&r, KA_COL(local_array, id), walk_next_id(w));
			ka_facts_int(&r, KA_COL(local_array, kernel_id), w->kernel_id);
			ka_facts_text(&r, KA_COL(local_array, kernel), k->name);
			ka_facts_text(&r, KA_COL(local_array, name), d->name);
			ka_facts_text(&r, KA_COL(local_array, type), d->type);
			walk_emit_loc(&r, &d->loc);
			ka_facts_opt(&r, KA_COL(local_array, elem_bytes), d->elem_bytes > 0, d->elem_bytes);
			ka_facts_opt(&r, KA_COL(local_array, elems), d->elem_bytes > 0 && d->type_bytes > 0,
				     d->elem_bytes > 0 ? d->type_bytes / d->elem_bytes : 0);
			ka_facts_opt(&r, KA_COL(local_array, bytes), d->type_bytes > 0, d->type_bytes);
			ka_facts_int(&r, KA_COL(local_array, dynamic_index), ds->n_dyn > 0);
			ka_facts_int(&r, KA_COL(local_array, n_dynamic_accesses), ds->n_dyn);
			static const char *const lx_names[] = {NULL,      "loop", "thread",
							       "carried", "data", "counter"};
			ka_facts_text(&r, KA_COL(local_array, index_kind),
				      ds->n_dyn ? lx_names[ds->lx_kind] : NULL);
			ka_facts_text(&r, KA_COL(local_array, counter_index_text), ds->counter_text);
			ka_facts_opt(&r, KA_COL(local_array, counter_guarded), ds->counter_stores > 0,
				     ds->counter_unguarded == 0);
			ka_facts_insert(&r);
		}
	}
	return static_smem;
}

/* threads is in [1, INT32_MAX] and smem >= 0 (kernel_row checks): every
 * product below is done in 64 bits. */
static void occupancy_cols(walk *w, ka_facts_row *r, int64_t threads, int64_t smem)
{
	const ka_arch *a = w->file.arch;
	int64_t warps = (threads + a->warp_size - 1) / a->warp_size;
	int by_threads = (int)(a->max_threads_per_sm / (warps * a->warp_size));
	if (by_threads > a->max_blocks_per_sm)
		by_threads = a->max_blocks_per_sm;
	int reserve = strcmp(a->vendor, "nvidia") == 0 ? 1024 : 0;
	int by_smem = smem > 0 ? (int)(a->smem_per_sm / (smem + reserve)) : a->max_blocks_per_sm;
	int best = by_threads < by_smem ? by_threads : by_smem;
	ka_facts_int(r, KA_COL(kernel, occ_blocks_threads), by_threads);
	ka_facts_int(r, KA_COL(kernel, occ_blocks_smem), by_smem);
	ka_facts_opt(r, KA_COL(kernel, occ_blocks_regs), 0, 0);
	ka_facts_int(r, KA_COL(kernel, occ_blocks), best);
	ka_facts_real(r, KA_COL(kernel, occupancy),
		      (double)(best * warps * a->warp_size) / a->max_threads_per_sm);
	ka_facts_text(r, KA_COL(kernel, occ_limiter),
		      best == by_smem && by_smem < by_threads ? "smem"
		      : by_threads == a->max_blocks_per_sm    ? "blocks"
							      : "threads");
}

void walk_emit_kernel(walk *w, ka_decl *k, const char *kind, int nl, int agree, int64_t max_dyn)
{
	int dynamic = 0;
	int64_t smem = array_rows(w, k, &dynamic);
	param_rows(w, k);
	int known = strcmp(w->block_source, "assumed") != 0;
	int64_t dims[3] = {w->block[0], w->block[1], w->block[2]}, threads = 0, all_smem = 0;
	int threads_ok = ka_prod64(dims, 3, &threads) && threads > 0 && threads <= INT32_MAX;
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(kernel));
	ka_facts_int(&r, KA_COL(kernel, id), w->kernel_id);
	ka_facts_text(&r, KA_COL(kernel, name), k->name);
	ka_facts_text(&r, KA_COL(kernel, mangled), k->mangled);
	ka_facts_text(&r, KA_COL(kernel, kind), kind);
	walk_emit_loc(&r, &k->loc);
	ka_facts_opt(&r, KA_COL(kernel, body_begin_off), k->body_begin >= 0, k->body_begin);
	ka_facts_opt(&r, KA_COL(kernel, decl_begin_off), !k->loc.in_macro, k->decl_begin);
	ka_facts_text(&r, KA_COL(kernel, kernel), k->name);
	ka_facts_text(&r, KA_COL(kernel, lang), w->file.tu->lang);
	ka_facts_int(&r, KA_COL(kernel, is_template), (k->flags & KDF_TEMPLATE) != 0);
	ka_facts_int(&r, KA_COL(kernel, nparams), k->nparams);
	ka_facts_opt(&r, KA_COL(kernel, launch_bounds_max), k->lb_max > 0, k->lb_max);
	ka_facts_opt(&r, KA_COL(kernel, launch_bounds_min_blocks), k->lb_min > 0, k->lb_min);
	ka_facts_int(&r, KA_COL(kernel, static_smem_bytes), smem);
	ka_facts_int(&r, KA_COL(kernel, uses_dynamic_smem), dynamic);
	ka_facts_int(&r, KA_COL(kernel, block_x), w->block[0]);
	ka_facts_int(&r, KA_COL(kernel, block_y), w->block[1]);
	ka_facts_int(&r, KA_COL(kernel, block_z), w->block[2]);
	ka_facts_opt(&r, KA_COL(kernel, block_threads), threads_ok, threads);
	ka_facts_text(&r, KA_COL(kernel, block_source), w->block_source);
	ka_facts_int(&r, KA_COL(kernel, n_launch_sites), nl);
	ka_facts_int(&r, KA_COL(kernel, launch_sites_agree), nl > 0 && agree);
	ka_facts_opt(&r, KA_COL(kernel, max_launch_dyn_smem), nl > 0, max_dyn);
	ka_facts_int(&r, KA_COL(kernel, n_barriers), w->tally.n_barriers);
	ka_facts_int(&r, KA_COL(kernel, n_accesses), w->tally.n_accesses);
	ka_facts_int(&r, KA_COL(kernel, n_loops), w->tally.n_loops);
	ka_facts_int(&r, KA_COL(kernel, uses_warp_intrinsics), w->tally.uses_warp);
	ka_facts_int(&r, KA_COL(kernel, has_bounds_guard), w->tally.has_guard);
	if (known && threads_ok && ka_add64(smem, max_dyn, &all_smem) && all_smem >= 0)
		occupancy_cols(w, &r, threads, all_smem);
	else if (known)
		ka_facts_text(&r, KA_COL(kernel, occ_limiter), NULL);
	ka_facts_insert(&r);
}

/* The budget ran out in f: say so in the diag table (the CLI prints it). */
void walk_emit_budget(walk *w, ka_decl *f)
{
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(diag));
	ka_facts_text(&r, KA_COL(diag, file), f->loc.file ? f->loc.file : w->file.tu->main_file);
	ka_facts_int(&r, KA_COL(diag, line), f->loc.line);
	ka_facts_int(&r, KA_COL(diag, col), f->loc.col);
	ka_facts_text(&r, KA_COL(diag, severity), "warning");
	ka_facts_text(&r, KA_COL(diag, message),
		      ka_arena_printf(w->file.a,
				      "analysis budget exceeded in %s "
				      "(%s per file): it and the functions after it are not fully analysed",
				      f->name ? f->name : "?", w->file.budget_text));
	ka_facts_insert(&r);
}

void walk_limit_reached(walk *w, walk_limit what, const ka_loc *at)
{
	static const char *const why[] = {
		[WALK_LIMIT_LOOPS] = "more than " WALK_STR(
			WALK_MAX_LOOPS) " nested loops: the inner "
					"ones are analysed without their loop context",
		[WALK_LIMIT_BRANCHES] = "more than " WALK_STR(
			WALK_MAX_BRANCHES) " nested conditions: "
					   "the inner code is analysed as if it ran unconditionally",
		[WALK_LIMIT_INLINE] = "device calls nested more than " WALK_STR(
			WALK_MAX_INLINE) " deep: the deeper call is not followed and its result is unknown",
		[WALK_LIMIT_ARRAYS] = "more than " WALK_STR(
			WALK_MAX_ARRAYS) " shared and local arrays: "
					 "the others get no shared_array or local_array row",
		[WALK_LIMIT_OPTIN] = "more than " WALK_STR(
			WALK_MAX_OPTIN) " kernels opt in to large "
					"dynamic shared memory: the others keep launch.smem_optin = 0",
		[WALK_LIMIT_ARGS] = "a call with more than " WALK_STR(
			WALK_MAX_ARGS) " arguments: a lambda among the "
				       "others is not followed into the inlined callee",
	};
	if (w->ctl.limits_hit & (1u << what))
		return;
	w->ctl.limits_hit |= 1u << what;
	const char *name = w->kernel ? w->kernel->name : w->fn ? w->fn->name : NULL;
	ka_facts_row r;
	ka_facts_begin(&r, w->file.fw, KA_TABLE(diag));
	ka_facts_text(&r, KA_COL(diag, file), at && at->file ? at->file : w->file.tu->main_file);
	ka_facts_int(&r, KA_COL(diag, line), at ? at->line : 0);
	ka_facts_int(&r, KA_COL(diag, col), at ? at->col : 0);
	ka_facts_text(&r, KA_COL(diag, severity), "warning");
	ka_facts_text(&r, KA_COL(diag, message),
		      ka_arena_printf(w->file.a,
				      "analysis limit reached "
				      "in %s at line %d: %s",
				      name ? name : "?", at ? at->line : 0, why[what]));
	ka_facts_insert(&r);
}
