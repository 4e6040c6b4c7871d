/* analyzer/frontend_tu.c: functions, file-scope variables and the parse
 * entry point. */
#include "analyzer/frontend_int.h"
#include "analyzer/frontend_pch.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Evaluate a small integer expression written in text: numbers, + - * / %
 * and parentheses (the pretty-printed __launch_bounds__ arguments). */
static int64_t text_expr(const char **p, int *ok);

static int64_t text_atom(const char **p, int *ok)
{
	while (isspace((unsigned char)**p))
		(*p)++;
	if (**p == '(') {
		(*p)++;
		int64_t v = text_expr(p, ok);
		while (isspace((unsigned char)**p))
			(*p)++;
		if (**p == ')')
			(*p)++;
		else
			*ok = 0;
		return v;
	}
	if (**p == '-') {
		(*p)++;
		return -text_atom(p, ok);
	}
	if (!isdigit((unsigned char)**p)) {
		*ok = 0;
		return 0;
	}
	char *e;
	int64_t v = strtoll(*p, &e, 0);
	while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L')
		e++;
	*p = e;
	return v;
}

static int64_t text_term(const char **p, int *ok)
{
	int64_t v = text_atom(p, ok);
	for (;;) {
		while (isspace((unsigned char)**p))
			(*p)++;
		char op = **p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		(*p)++;
		int64_t r = text_atom(p, ok);
		if (op == '*')
			v *= r;
		else if (r == 0)
			*ok = 0;
		else
			v = op == '/' ? v / r : v % r;
	}
}

static int64_t text_expr(const char **p, int *ok)
{
	int64_t v = text_term(p, ok);
	for (;;) {
		while (isspace((unsigned char)**p))
			(*p)++;
		char op = **p;
		if (op != '+' && op != '-')
			return v;
		(*p)++;
		int64_t r = text_term(p, ok);
		v = op == '+' ? v + r : v - r;
	}
}

static void launch_bounds(lower_ctx *cx, CXCursor c, ka_decl *d)
{
	CXPrintingPolicy pol = clang_getCursorPrintingPolicy(c);
	clang_PrintingPolicy_setProperty(pol, CXPrintingPolicy_TerseOutput, 1);
	CXString s = clang_getCursorPrettyPrinted(c, pol);
	const char *t = clang_getCString(s);
	const char *lb = t ? strstr(t, "launch_bounds(") : NULL;
	if (lb) {
		const char *p = lb + strlen("launch_bounds(");
		int ok = 1;
		int64_t mx = text_expr(&p, &ok);
		if (ok)
			d->lb_max = (int)mx;
		while (isspace((unsigned char)*p))
			p++;
		if (ok && *p == ',') {
			p++;
			int64_t mn = text_expr(&p, &ok);
			if (ok)
				d->lb_min = (int)mn;
		}
	}
	/* HIP: ROCm's __launch_bounds__(N) is amdgpu_flat_work_group_size(1, N) */
	const char *fw = t && !lb ? strstr(t, "amdgpu_flat_work_group_size(") : NULL;
	if (fw) {
		const char *p = fw + strlen("amdgpu_flat_work_group_size(");
		int ok = 1;
		text_expr(&p, &ok);
		while (isspace((unsigned char)*p))
			p++;
		if (ok && *p == ',') {
			p++;
			int64_t mx = text_expr(&p, &ok);
			if (ok)
				d->lb_max = (int)mx;
		}
	}
	clang_disposeString(s);
	clang_PrintingPolicy_dispose(pol);
}

/* Partial analysis (docs/analyzer.md): a function whose extent holds a
 * clang error is not analyzed; the errors name it.  Returns whether one did. */
static int body_has_error(lower_ctx *cx, CXCursor c, ka_decl *d)
{
	if (!cx->tu->n_errors)
		return 0;
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile fb, fe;
	unsigned ob, oe;
	clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
	clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
	if (!fb || !clang_File_isEqual(fb, fe))
		return 0;
	const char *file = fe_file_name(cx, fb);
	int hit = 0, shown = 0;
	ka_diag *last = NULL;
	for (ka_diag *g = cx->tu->diags; g; g = g->next)
		if (g->file == file && ka_diag_is_error(g) && g->off >= (int)ob && g->off <= (int)oe) {
			if (!g->func) {
				g->func = d->name;
				g->message = ka_arena_printf(cx->a, "%s (function '%s' not analyzed)",
							     g->message, d->name ? d->name : "(unnamed)");
			}
			hit = 1;
			shown |= !g->quiet;
			last = g; /* the list runs backwards: the function's first error */
		}
	if (last && !shown)
		last->quiet = 0; /* which function was lost is always said */
	return hit;
}

static void lower_function(lower_ctx *cx, CXCursor c)
{
	ka_decl *prev = fe_usr_get(cx, fe_usr_of(cx, c));
	if (prev && prev->body)
		return;
	ka_decl *d = fe_new_decl(cx, c, KD_FUNC);
	if (clang_getCursorKind(c) == CXCursor_FunctionTemplate)
		d->flags |= KDF_TEMPLATE;
	if (clang_getCursorKind(c) == CXCursor_Constructor)
		d->flags |= KDF_CTOR;
	CXString m = clang_Cursor_getMangling(c);
	d->mangled = ka_arena_strdup(cx->a, clang_getCString(m));
	clang_disposeString(m);
	d->type = fe_type_name(cx, clang_getCursorResultType(c));
	launch_bounds(cx, c, d);
	fe_lower_params_body(cx, c, d);
	if (!d->body)
		return;
	if (body_has_error(cx, c, d)) {
		d->body = NULL; /* callers see a declaration only */
		cx->tu->n_skipped++;
		return;
	}
	d->next = cx->tu->funcs;
	cx->tu->funcs = d;
}

/* The expansion ranges of FILE (NULL when it has none). */
const struct macro_set *fe_macro_set(const lower_ctx *cx, const char *file)
{
	for (int i = 0; i < cx->nmsets; i++)
		if (cx->msets[i].file == file)
			return &cx->msets[i];
	return NULL;
}

/* A macro expansion outside the system headers: its range joins its file's
 * set, and its macro's definition (wherever that is) is recorded. */
static void add_macro(lower_ctx *cx, CXCursor c)
{
	/* most expansions a file sees are in the system headers it includes:
	 * those are dropped before their extent is asked for */
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		return;
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f;
	unsigned b, e;
	clang_getFileLocation(clang_getRangeStart(r), &f, NULL, NULL, &b);
	clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
	if (!f || clang_Location_isInSystemHeader(clang_getRangeStart(r)))
		return;
	const char *file = fe_file_name(cx, f);
	struct macro_set *m = (struct macro_set *)fe_macro_set(cx, file);
	if (!m) {
		if (cx->nmsets == cx->capmsets) {
			cx->capmsets = cx->capmsets ? cx->capmsets * 2 : 8;
			struct macro_set *n = ka_arena_alloc(cx->a, sizeof *n * (size_t)cx->capmsets);
			if (cx->nmsets)
				memcpy(n, cx->msets, sizeof *n * (size_t)cx->nmsets);
			cx->msets = n;
		}
		m = &cx->msets[cx->nmsets++];
		*m = (struct macro_set){.file = file};
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		int *n = ka_arena_alloc(cx->a, sizeof *n * 2 * (size_t)m->cap);
		if (m->n)
			memcpy(n, m->pairs, sizeof *n * 2 * (size_t)m->n);
		m->pairs = n;
	}
	m->pairs[2 * m->n] = (int)b;
	m->pairs[2 * m->n + 1] = (int)e;
	m->n++;
	/* the definition, wherever it is (member_from_macro reads it) */
	CXCursor d = clang_getCursorReferenced(c);
	if (clang_Cursor_isNull(d))
		return;
	CXSourceRange dr = clang_getCursorExtent(d);
	CXFile df;
	unsigned db, de;
	clang_getFileLocation(clang_getRangeStart(dr), &df, NULL, NULL, &db);
	clang_getFileLocation(clang_getRangeEnd(dr), NULL, NULL, NULL, &de);
	if (!df || de <= db)
		return;
	if (cx->ndefs == cx->capdefs) {
		cx->capdefs = cx->capdefs ? cx->capdefs * 2 : 64;
		struct macro_def *n = ka_arena_alloc(cx->a, sizeof *n * (size_t)cx->capdefs);
		if (cx->ndefs)
			memcpy(n, cx->defs, sizeof *n * (size_t)cx->ndefs);
		cx->defs = n;
	}
	cx->defs[cx->ndefs++] = (struct macro_def){(int)b, (int)db, (int)de, file, fe_file_name(cx, df)};
}

/* A function or variable made from a template (an implicit or explicit
 * instantiation, a class template's static member): it sits where its
 * pattern does.  The walk sees the declarations that this parse handed to
 * the AST consumer (the index is made with excludeDeclarationsFromPCH),
 * and those include the instantiations done at the end of the file; the
 * pattern itself is what is lowered, as in the file's text. */
static int is_instantiation(CXCursor c)
{
	CXCursor t = clang_getSpecializedCursorTemplate(c);
	return !clang_Cursor_isNull(t) &&
	       clang_equalLocations(clang_getCursorLocation(c), clang_getCursorLocation(t));
}

/* The one walk over the translation unit: macro expansions outside the
 * system headers, and
 * the definitions outside system headers, kept to be lowered once the
 * expansions are indexed.  A namespace or extern "C" block of a system
 * header is not entered: all it holds is in that header.  The index leaves
 * out what the toolkit's precompiled header holds (excludeDeclarationsFromPCH):
 * all of it is in system headers, and visiting it would read every one of
 * its declarations and macro expansions back from the header file. */
static int is_class_kind(enum CXCursorKind k)
{
	return k == CXCursor_ClassDecl || k == CXCursor_StructDecl || k == CXCursor_ClassTemplate ||
	       k == CXCursor_ClassTemplatePartialSpecialization;
}

/* 1 when [b, e) holds the text m */
static int span_has(const char *b, const char *e, const char *m)
{
	size_t ml = strlen(m);
	for (; (size_t)(e - b) >= ml; b++) {
		b = memchr(b, m[0], (size_t)(e - b) - ml + 1);
		if (!b)
			return 0;
		if (memcmp(b, m, ml) == 0)
			return 1;
	}
	return 0;
}

/* A method defined inside its class whose text launches a kernel: `<<<`,
 * or a launch API (`cudaLaunchKernel`, `hipLaunchKernelGGL`) by name. */
static int method_launches(lower_ctx *cx, CXCursor c)
{
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile fb, fe;
	unsigned ob, oe;
	clang_getExpansionLocation(clang_getRangeStart(r), &fb, NULL, NULL, &ob);
	clang_getExpansionLocation(clang_getRangeEnd(r), &fe, NULL, NULL, &oe);
	size_t size;
	const char *text = fb && clang_File_isEqual(fb, fe) ? fe_file_text(cx, fb, &size) : NULL;
	if (!text || oe <= ob || oe > size)
		return 0;
	static const char *const marks[] = {"<<<", "LaunchKernel", "LaunchCooperativeKernel", NULL};
	for (const char *const *m = marks; *m; m++)
		if (span_has(text + ob, text + oe, *m))
			return 1;
	return 0;
}

static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data)
{
	lower_ctx *cx = data;
	enum CXCursorKind kk = clang_getCursorKind(c);
	if (kk == CXCursor_MacroExpansion) {
		add_macro(cx, c);
		return CXChildVisit_Continue;
	}
	if (clang_isPreprocessing(kk))
		return CXChildVisit_Continue;
	if (clang_Location_isInSystemHeader(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	if (kk == CXCursor_Namespace || kk == CXCursor_LinkageSpec || kk == CXCursor_UnexposedDecl)
		return CXChildVisit_Recurse;
	if (is_class_kind(kk))
		return clang_isCursorDefinition(c) ? CXChildVisit_Recurse : CXChildVisit_Continue;
	/* a class's host method defined outside the class (`void
	 * Solver::init() { k<<<g, b>>>(...); }`): host code whose launches and
	 * calls the host walk reads; device methods are left to the calls
	 * that reach them */
	int host_method = (kk == CXCursor_CXXMethod || kk == CXCursor_Constructor ||
			   kk == CXCursor_Destructor) &&
			  clang_isCursorDefinition(c) && !(fe_cuda_attrs(c) & (KDF_DEVICE | KDF_GLOBAL));
	/* inside a class body, only its host methods (and member templates)
	 * that launch a kernel (`struct Op { void run() { k<<<g, b>>>(...); }
	 * };`), so that the launch is seen (its block, and that the kernel runs
	 * at all); the rest of a class's inline code is left alone */
	if (is_class_kind(clang_getCursorKind(parent)) &&
	    !((host_method || (kk == CXCursor_FunctionTemplate && clang_isCursorDefinition(c))) &&
	      method_launches(cx, c)))
		return CXChildVisit_Continue;
	if (!(((kk == CXCursor_FunctionDecl || kk == CXCursor_FunctionTemplate) &&
	       clang_isCursorDefinition(c)) ||
	      kk == CXCursor_VarDecl || host_method))
		return CXChildVisit_Continue;
	if (is_instantiation(c))
		return CXChildVisit_Continue;
	if (cx->ntops == cx->captops) {
		cx->captops = cx->captops ? cx->captops * 2 : 64;
		CXCursor *n = ka_arena_alloc(cx->a, sizeof *n * (size_t)cx->captops);
		if (cx->ntops)
			memcpy(n, cx->tops, sizeof *n * (size_t)cx->ntops);
		cx->tops = n;
	}
	cx->tops[cx->ntops++] = c;
	return CXChildVisit_Continue;
}

static void lower_top(lower_ctx *cx, CXCursor c)
{
	if (clang_getCursorKind(c) != CXCursor_VarDecl) {
		lower_function(cx, c);
		return;
	}
	ka_decl *d = fe_lower_vardecl(cx, c);
	d->flags |= KDF_FILE_SCOPE;
	d->next = cx->tu->globals;
	cx->tu->globals = d;
}

/* Calls to functions defined after their caller resolve now. */
static void resolve_calls(lower_ctx *cx, ka_node *n)
{
	if (!n)
		return;
	if ((n->kind == KN_CALL || n->kind == KN_DECLREF) && !n->ref && n->ref_usr)
		n->ref = fe_usr_get(cx, n->ref_usr);
	for (int i = 0; i < n->nkids; i++)
		resolve_calls(cx, n->kids[i]);
	if (n->cfg)
		resolve_calls(cx, n->cfg);
}

/* Where the main file includes (directly or not) a system header. */
typedef struct incl_find {
	CXFile target;
	CXSourceLocation at;
	int found;
} incl_find;

static void incl_visit(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData data)
{
	incl_find *q = data;
	if (!q->found && n > 0 && clang_File_isEqual(f, q->target)) {
		q->at = stack[n - 1];
		q->found = 1;
	}
}

/* An error inside a system header is reported at the #include of the main
 * file that brought it in (a finding in /usr/include would be out of the
 * project and dropped), naming the header and line in the message. */
static void error_at_include(lower_ctx *cx, CXFile f, ka_diag *d)
{
	incl_find q = {.target = f};
	clang_getInclusions(cx->ctu, incl_visit, &q);
	if (!q.found)
		return;
	CXFile mf;
	unsigned line, col, off;
	clang_getExpansionLocation(q.at, &mf, &line, &col, &off);
	if (!mf)
		return;
	d->message = ka_arena_printf(cx->a, "in included file %s:%d: %s", d->file, d->line, d->message);
	d->file = fe_file_name(cx, mf);
	d->line = (int)line;
	d->col = (int)col;
	d->off = -1;
}

static void collect_diags(lower_ctx *cx)
{
	unsigned nd = clang_getNumDiagnostics(cx->ctu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic dg = clang_getDiagnostic(cx->ctu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(dg);
		CXSourceLocation l = clang_getDiagnosticLocation(dg);
		if (sev < CXDiagnostic_Warning ||
		    (sev == CXDiagnostic_Warning && clang_Location_isInSystemHeader(l))) {
			clang_disposeDiagnostic(dg);
			continue;
		}
		ka_diag *d = ka_arena_alloc(cx->a, sizeof *d);
		CXFile f;
		unsigned line, col, off;
		clang_getExpansionLocation(l, &f, &line, &col, &off);
		d->off = (int)off;
		d->file = f ? fe_file_name(cx, f) : cx->tu->main_file;
		d->line = (int)line;
		d->col = (int)col;
		d->severity = sev == CXDiagnostic_Warning ? "warning"
			      : sev == CXDiagnostic_Error ? "error"
							  : "fatal";
		CXString s = clang_getDiagnosticSpelling(dg);
		d->message = ka_arena_strdup(cx->a, clang_getCString(s));
		clang_disposeString(s);
		if (sev >= CXDiagnostic_Error && f && clang_Location_isInSystemHeader(l))
			error_at_include(cx, f, d);
		if (sev >= CXDiagnostic_Error)
			d->quiet = ++cx->tu->n_errors > KA_DIAG_SHOWN;
		d->next = cx->tu->diags;
		cx->tu->diags = d;
		clang_disposeDiagnostic(dg);
	}
}

/* The shim headers, in memory under their virtual folder. */
static int shim_unsaved(ka_arena *a, struct CXUnsavedFile *u, int max)
{
	int n = 0;
	for (const struct ka_embedded *e = ka_frontend_shim_table(); e->path && n < max; e++) {
		const char *rel = strstr(e->path, "shim/");
		u[n].Filename = ka_arena_printf(a, "/kcheck-shim/%s", rel ? rel + 5 : e->path);
		u[n].Contents = e->data;
		u[n].Length = (unsigned long)e->len;
		n++;
	}
	return n;
}

/* The directive of the line at p ("if", "ifdef", "include", ...), its
 * length in *n; NULL when the line is no directive. */
static const char *directive(const char *p, size_t *n)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '#')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	*n = 0;
	while (p[*n] >= 'a' && p[*n] <= 'z')
		(*n)++;
	return p;
}

static int is_word(const char *d, size_t n, const char *w)
{
	return n == strlen(w) && strncmp(d, w, n) == 0;
}

/* `#ifndef NAME` followed by `#define NAME`: an include guard, which makes
 * nothing conditional. */
static int is_include_guard(const char *d, const char *next)
{
	const char *name = d + 6;
	size_t n = 0, m;
	while (*name == ' ' || *name == '\t')
		name++;
	while (name[n] && name[n] != '\n' && name[n] != ' ' && name[n] != '\t' && name[n] != '\r')
		n++;
	const char *nd = next ? directive(next, &m) : NULL;
	if (!n || !nd || !is_word(nd, m, "define"))
		return 0;
	nd += m;
	while (*nd == ' ' || *nd == '\t')
		nd++;
	return strncmp(nd, name, n) == 0 && (nd[n] == '\n' || nd[n] == '\0' || nd[n] == ' ' || nd[n] == '\r');
}

/* A CUDA-named file that includes the HIP runtime (HIP ports keep .cu and
 * are built with hipcc) is parsed as HIP; an include under a preprocessor
 * condition (`#if BNB_HIP` / `#ifdef __HIP_PLATFORM_AMD__` ... `#else`
 * `<cuda_runtime.h>`: a portable file) is one branch of two and is not. */
static int is_hip_source(const ka_frontend_opts *o, const char *data)
{
	if (o->force_shim || o->lang_fixed || (o->lang && strcmp(o->lang, "cuda") != 0))
		return 0;
	int depth = 0, guards = 0;
	for (const char *p = data; p && *p;) {
		const char *next = strchr(p, '\n');
		next = next ? next + 1 : NULL;
		size_t n;
		const char *d = directive(p, &n);
		if (d && (is_word(d, n, "if") || is_word(d, n, "ifdef"))) {
			depth++;
		} else if (d && is_word(d, n, "ifndef")) {
			if (depth == guards && is_include_guard(d, next))
				guards++;
			depth++;
		} else if (d && is_word(d, n, "endif") && depth > 0) {
			depth--;
			guards = guards > depth ? depth : guards;
		} else if (d && is_word(d, n, "include") && depth == guards) {
			const char *f = d + n;
			while (*f == ' ' || *f == '\t')
				f++;
			if (strncmp(f, "\"hip/hip_runtime.h\"", 20) == 0 ||
			    strncmp(f, "<hip/hip_runtime.h>", 19) == 0)
				return 1;
		}
		p = next;
	}
	return 0;
}

/* The toolkit's precompiled header (frontend_pch.c, built on first use)
 * appended to the arguments when there is one to use. */
static void add_pch(CXIndex idx, ka_arena *a, const char ***argv, int *argc, struct CXUnsavedFile *unsaved,
		    int nunsaved)
{
	const char *pch = ka_frontend_pch(idx, a, *argv, *argc, unsaved, nunsaved);
	if (!pch)
		return;
	const char **v = ka_arena_alloc(a, sizeof *v * (size_t)(*argc + 3));
	memcpy(v, *argv, sizeof *v * (size_t)*argc);
	v[(*argc)++] = "-include-pch";
	v[(*argc)++] = pch;
	v[*argc] = NULL;
	*argv = v;
}

int ka_frontend_parse_args(const ka_frontend_opts *o, ka_arena *a, const char ***argv, int *argc)
{
	struct CXUnsavedFile unsaved[16];
	int nunsaved = shim_unsaved(a, unsaved, 15);
	int rc = ka_frontend_args(o, a, argv, argc);
	if (rc != KA_OK)
		return rc;
	CXIndex idx = clang_createIndex(0, 0);
	char refused[1300];
	ka_incguard_begin(); /* as in a parse: the user's -I reach the header's build */
	add_pch(idx, a, argv, argc, unsaved, nunsaved);
	ka_incguard_end(refused, sizeof refused); /* a refusal failed the build: no header */
	clang_disposeIndex(idx);
	return KA_OK;
}

/* In a process that ends after its file (ka_analyze_no_crash_recovery),
 * the parse is not freed: the exit returns its memory at once, where
 * freeing it touches every page again.  It stays reachable from here. */
static int keep_parse;
static CXIndex kept_idx;
static CXTranslationUnit kept_tu;

static void release_parse(CXIndex idx, CXTranslationUnit tu)
{
	if (kept_tu) { /* a second file in this process: the first one goes */
		clang_disposeTranslationUnit(kept_tu);
		clang_disposeIndex(kept_idx);
		kept_tu = NULL;
		kept_idx = NULL;
	}
	if (keep_parse) {
		kept_idx = idx;
		kept_tu = tu;
		return;
	}
	clang_disposeTranslationUnit(tu);
	clang_disposeIndex(idx);
}

/* A per-file process's heap in transparent huge pages (where the system
 * grants them on request, THP "madvise"): the parse grows the heap by some
 * hundred megabytes, and a fault per 4 KB page was a tenth of the CPU time
 * on a virtual machine.  One arena (the parse runs on its own thread), no
 * mmap for blocks under 32 MB and a large top pad, so the heap grows once
 * into one region marked MADV_HUGEPAGE; nothing is trimmed, the process
 * ends after its file.  A hint only: the memory holds the same bytes. */
static void huge_heap(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && !defined(__SANITIZE_ADDRESS__) && \
	!defined(KA_NO_HUGE_HEAP)
	const size_t pad = (size_t)512 << 20, page = (size_t)2 << 20;
	if (getenv("KCHECK_NO_HUGE_HEAP"))
		return;
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, (int)pad);
	char *p = malloc(1 << 20); /* more than the top chunk holds: the heap grows by the pad */
	char *end = sbrk(0);
	if (p && end != (char *)-1 && end > p) {
		uintptr_t b = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
		if ((uintptr_t)end > b)
			madvise((void *)b, (size_t)((uintptr_t)end - b), MADV_HUGEPAGE);
	}
	free(p);
	mallopt(M_TOP_PAD, 128 << 10);
#endif
}

void ka_analyze_no_crash_recovery(void)
{
	huge_heap();
	keep_parse = 1;
	setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1); /* clang_createIndex would enable it again */
	clang_toggleCrashRecovery(0);
}

int ka_frontend_parse(const ka_frontend_opts *o, const char *path, ka_tu **out)
{
	int rc = KA_OK;
	*out = NULL;
	char *data = NULL;
	size_t len = 0;
	if ((rc = ka_fs_read(path, 0, &data, &len)) != KA_OK)
		return rc;
	if (ka_fs_is_binary(data, len)) {
		free(data);
		return ka_error_set(KA_EIO, "%s: not a source file (binary data)", path);
	}
	ka_frontend_opts hip_opts;
	if (is_hip_source(o, data)) { /* a .cu file written for hipcc */
		hip_opts = *o;
		hip_opts.lang = "hip";
		o = &hip_opts;
	}
	ka_tu *tu = ka_tu_new(path, o->lang, data, len);
	free(data);
	lower_ctx cx = {.tu = tu, .a = tu->arena};
	const char **argv = NULL;
	int argc = 0;
	struct CXUnsavedFile unsaved[16 + FE_CHEVRON_FILES];
	int nunsaved = shim_unsaved(cx.a, unsaved, 15), nparse = nunsaved;
	size_t olen;
	const char *otext = ka_fs_overlay_get(path, &olen);
	if (otext) /* the text came on stdin (kcheck - --stdin-filename): clang reads it, not the disk */
		unsaved[nparse++] = (struct CXUnsavedFile){path, otext, (unsigned long)olen};
	else
		otext = tu->files->data, olen = (size_t)tu->files->len;
	const char *joined = fe_chevrons_joined(cx.a, otext, olen);
	if (joined && unsaved[nparse - 1].Filename == path)
		unsaved[nparse - 1].Contents = joined;
	else if (joined)
		unsaved[nparse++] = (struct CXUnsavedFile){path, joined, (unsigned long)olen};
	if ((rc = ka_frontend_args(o, tu->arena, &argv, &argc)) != KA_OK)
		goto fail;
	CXIndex idx = clang_createIndex(1, 0); /* 1: the walk skips the PCH's declarations */
	char refused[1300];
	ka_incguard_begin(); /* also while the toolkit's header is precompiled: the user's -I reach it */
	add_pch(idx, cx.a, &argv, &argc, unsaved, nunsaved); /* the toolkit's headers, parsed once */
	enum CXErrorCode e = clang_parseTranslationUnit2(
		idx, path, argv, argc, unsaved, (unsigned)nparse,
		CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord, &cx.ctu);
	if (e == CXError_Success && cx.ctu && fe_chevron_headers(&cx, unsaved, &nparse, path)) {
		clang_disposeTranslationUnit(cx.ctu); /* again, with the headers' launches joined */
		cx.ctu = NULL;
		e = clang_parseTranslationUnit2(
			idx, path, argv, argc, unsaved, (unsigned)nparse,
			CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord, &cx.ctu);
	}
	if (ka_incguard_end(refused, sizeof refused)) { /* an include that is no source file */
		if (cx.ctu)
			clang_disposeTranslationUnit(cx.ctu);
		clang_disposeIndex(idx);
		rc = ka_error_set(KA_EINPUT, "%s: it includes %s", path, refused);
		goto fail;
	}
	if (e != CXError_Success || !cx.ctu) {
		clang_disposeIndex(idx);
		if (e == CXError_Crashed)
			rc = ka_error_set(KA_EPARSE, "%s: the analysis crashed (in libclang's parser)", path);
		else
			rc = ka_error_set(KA_EPARSE, "%s: libclang could not parse the file (error %d)", path,
					  (int)e);
		goto fail;
	}
	collect_diags(&cx);
	if (o->lang && strcmp(o->lang, "hip") == 0 && !o->force_shim && ka_frontend_uses_shim(o)) {
		ka_diag *d = ka_arena_alloc(cx.a, sizeof *d); /* the fallback says so */
		d->file = tu->main_file;
		d->line = d->col = 1;
		d->severity = "note";
		d->message = "parsed with kcheck's minimal HIP shim headers: no ROCm headers found "
			     "(install libamdhip64-dev or set ROCM_PATH); findings may be incomplete";
		d->next = tu->diags;
		tu->diags = d;
	}
	clang_visitChildren(clang_getTranslationUnitCursor(cx.ctu), top_visit, &cx);
	for (int i = 0; i < cx.nmsets; i++) {
		struct macro_set *m = &cx.msets[i];
		m->maxend = ka_arena_alloc(cx.a, sizeof *m->maxend * (size_t)(m->n + 1));
		ka_ranges_index(m->pairs, m->n, m->maxend);
	}
	for (int i = 0; i < cx.ntops; i++)
		lower_top(&cx, cx.tops[i]);
	for (ka_decl *f = tu->funcs; f; f = f->next)
		resolve_calls(&cx, f->body);
	for (ka_decl *g = tu->globals; g; g = g->next)
		resolve_calls(&cx, g->init);
	release_parse(idx, cx.ctu);
	*out = tu;
	return KA_OK;
fail:
	ka_tu_free(tu);
	return rc;
}
