/* bench/scan.c: the static gate of bench/scan.h.  It reads the source the
 * way the preprocessor's early phases do, so that no spelling hides a
 * directive or a name from it:
 *   1. bytes: NUL bytes and trigraphs (??= ??/ ...) are refused outright;
 *   2. line splices (a backslash, optional blanks, a newline) are removed,
 *      each remaining byte keeping the number of the line it came from;
 *   3. a lexer turns the spliced text into tokens: comments become blanks
 *      (a block comment never ends a line), string, character and raw
 *      string literals (with their L/u/U/u8 prefixes) are single tokens,
 *      numbers follow the pp-number grammar, and the digraphs %: and %:%:
 *      are # and ##;
 *   4. a # (or %:) that is the first token of a line starts a directive:
 *      #include must name an allowlisted header directly; #include_next,
 *      #import, #embed, #line with a file name, line markers and unknown
 *      directives are refused; #pragma and _Pragma may not mention include,
 *      import, embed, dependency or omp; token pasting is refused.
 * Every identifier, in code and in directives alike, is looked up in the
 * deny table.  Prefix entries (cu[A-Z]..., cudaEvent..., cudaGraph...)
 * cover whole API families.  A backslash outside a literal that is not a
 * splice (a universal character name) is refused: it could spell a name. */
#include "bench/scan.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct deny {
	const char *name;
	int prefix;
	const char *reason;
};

static const char R_STREAM[] = "creates or names a stream: launch only on the harness's stream";
static const char R_HOST[] = "host callbacks and threads can hide work from the timer";
static const char R_L2[] = "changes L2 persistence or device limits";
static const char R_FILE[] = "touches files, the environment or the process";
static const char R_LIB[] = "loads code at run time";
static const char R_TIMER[] = "events, graphs and clocks belong to the harness";
static const char R_ERR[] = "consumes the launch-error state the harness checks";
static const char R_MEM[] = "host-visible or managed memory can be written behind the timer";
static const char R_REF[] = "the reference and harness symbols are off limits";
static const char R_DEV[] = "device and context control belong to the harness";
static const char R_ASM[] = "inline assembly cannot be checked by the static gate";

static const struct deny deny[] = {
	{"cudaStreamCreate", 1, R_STREAM},
	{"cudaStreamPerThread", 0, R_STREAM},
	{"cudaStreamLegacy", 0, R_STREAM},
	{"cudaStreamNonBlocking", 0, R_STREAM},
	{"cudaStreamBeginCapture", 0, R_TIMER},
	{"cudaStreamEndCapture", 0, R_TIMER},
	{"hipStreamCreate", 1, R_STREAM},
	{"cudaLaunchHostFunc", 0, R_HOST},
	{"cudaStreamAddCallback", 0, R_HOST},
	{"pthread_", 1, R_HOST},
	{"thread", 0, R_HOST},
	{"jthread", 0, R_HOST},
	{"async", 0, R_HOST},
	{"fork", 0, R_FILE},
	{"vfork", 0, R_FILE},
	{"clone", 0, R_HOST},
	{"cudaStreamSetAttribute", 0, R_L2},
	{"cudaCtxResetPersistingL2Cache", 0, R_L2},
	{"cudaDeviceSetLimit", 0, R_L2},
	{"accessPolicyWindow", 0, R_L2},
	{"cudaAccessPolicyWindow", 0, R_L2},
	{"cudaLimitPersistingL2CacheSize", 0, R_L2},
	{"cudaAccessPropertyPersisting", 0, R_L2},
	{"fopen", 0, R_FILE},
	{"freopen", 0, R_FILE},
	{"open", 0, R_FILE},
	{"openat", 0, R_FILE},
	{"creat", 0, R_FILE},
	{"ofstream", 0, R_FILE},
	{"ifstream", 0, R_FILE},
	{"fstream", 0, R_FILE},
	{"unlink", 0, R_FILE},
	{"remove", 0, R_FILE},
	{"rename", 0, R_FILE},
	{"getenv", 0, R_FILE},
	{"secure_getenv", 0, R_FILE},
	{"setenv", 0, R_FILE},
	{"putenv", 0, R_FILE},
	{"unsetenv", 0, R_FILE},
	{"environ", 0, R_FILE},
	{"system", 0, R_FILE},
	{"popen", 0, R_FILE},
	{"exec", 1, R_FILE},
	{"kill", 0, R_FILE},
	{"signal", 0, R_FILE},
	{"sigaction", 0, R_FILE},
	{"atexit", 0, R_FILE},
	{"at_quick_exit", 0, R_FILE},
	{"exit", 0, R_FILE},
	{"_exit", 0, R_FILE},
	{"abort", 0, R_FILE},
	{"setjmp", 0, R_FILE},
	{"longjmp", 0, R_FILE},
	{"constructor", 0, R_FILE},
	{"destructor", 0, R_FILE},
	{"init_priority", 0, R_FILE},
	{"mmap", 0, R_MEM},
	{"mprotect", 0, R_MEM},
	{"dlopen", 0, R_LIB},
	{"dlsym", 0, R_LIB},
	{"dlmopen", 0, R_LIB},
	{"dlvsym", 0, R_LIB},
	{"cudaEvent", 1, R_TIMER},
	{"hipEvent", 1, R_TIMER},
	{"cudaGraph", 1, R_TIMER},
	{"clock_gettime", 0, R_TIMER},
	{"gettimeofday", 0, R_TIMER},
	{"chrono", 0, R_TIMER},
	{"cudaProfilerStart", 0, R_TIMER},
	{"cudaProfilerStop", 0, R_TIMER},
	{"cudaGetLastError", 0, R_ERR},
	{"cudaPeekAtLastError", 0, R_ERR},
	{"hipGetLastError", 0, R_ERR},
	{"cudaMallocManaged", 0, R_MEM},
	{"cudaMallocHost", 0, R_MEM},
	{"cudaHostAlloc", 0, R_MEM},
	{"cudaHostRegister", 0, R_MEM},
	{"cudaHostGetDevicePointer", 0, R_MEM},
	{"cudaSetDevice", 0, R_DEV},
	{"cudaSetDeviceFlags", 0, R_DEV},
	{"cudaDeviceReset", 0, R_DEV},
	{"cudaDeviceSetCacheConfig", 0, R_DEV},
	{"cudaDeviceSetSharedMemConfig", 0, R_DEV},
	{"cudaLaunchCooperativeKernelMultiDevice", 0, R_DEV},
	{"ka_impl_a", 0, R_REF},
	{"ka_impl_b", 0, R_REF},
	{"ka_task_reference", 0, R_REF},
	{"ka_ref_parallel_for", 0, R_REF},
	{"main", 0, R_REF},
	{"asm", 0, R_ASM},
	{"__asm__", 0, R_ASM},
	{"__asm", 0, R_ASM},
};

static const char *const allowed_headers[] = {
	"ka_task.h",
	"cuda_runtime.h",
	"cuda_fp16.h",
	"cuda_bf16.h",
	"cooperative_groups.h",
	"cooperative_groups/reduce.h",
	"cooperative_groups/scan.h",
	"mma.h",
	"cuda_pipeline.h",
	"stdint.h",
	"stddef.h",
	"math.h",
	"float.h",
	"limits.h",
	"stdbool.h",
	"cstdint",
	"cstddef",
	"cmath",
	"cfloat",
	"climits",
	"hip/hip_runtime.h",
	"ka_hip.h",
	"cuda/barrier",
	"cuda/pipeline",
	"cub/cub.cuh",
	"cub/block/block_reduce.cuh",
	"cub/block/block_scan.cuh",
	"cub/warp/warp_reduce.cuh",
	"cub/warp/warp_scan.cuh",
	"cub/block/block_load.cuh",
};

int ka_bench_header_allowed(const char *name, size_t n)
{
	for (size_t k = 0; k < sizeof allowed_headers / sizeof allowed_headers[0]; k++)
		if (strlen(allowed_headers[k]) == n && !memcmp(name, allowed_headers[k], n))
			return 1;
	return 0;
}

static const char R_HIDE[] = "this spelling can hide code from the static gate";
static const char R_INCL[] = "header is not on the bench's allowlist";
static const char R_DIRECT[] = "preprocessor directive not allowed in a bench candidate";
static const char R_PASTE[] = "token pasting can build names the gate cannot see";
static const char R_PRAGMA[] = "pragma may read files or start threads";

struct st {
	ka_bench_finding *out;
	int max, count;
	/* the spliced text and, per byte, its original line */
	char *b;
	int *ln;
	size_t n;
};

static void add(struct st *s, int line, const char *what, size_t n, const char *reason)
{
	if (s->count < s->max) {
		ka_bench_finding *f = &s->out[s->count];
		f->line = line;
		snprintf(f->what, sizeof f->what, "%.*s", (int)(n < 63 ? n : 63), what);
		f->reason = reason;
	}
	s->count++;
}

static void check_ident(struct st *s, int line, const char *id, size_t n)
{
	if (n >= 3 && id[0] == 'c' && id[1] == 'u' && isupper((unsigned char)id[2])) {
		add(s, line, id, n, "the CUDA driver API is off limits (the harness owns the context)");
		return;
	}
	for (size_t i = 0; i < sizeof deny / sizeof deny[0]; i++) {
		size_t dn = strlen(deny[i].name);
		if (deny[i].prefix ? (n >= dn && !memcmp(id, deny[i].name, dn))
				   : (n == dn && !memcmp(id, deny[i].name, dn))) {
			add(s, line, id, n, deny[i].reason);
			return;
		}
	}
}

/* Phase 1: bytes no candidate needs and that change what the compiler reads. */
static int raw_bytes(struct st *s, const char *src, size_t len)
{
	int line = 1, bad = 0;
	for (size_t i = 0; i < len; i++) {
		if (src[i] == '\n')
			line++;
		else if (!src[i]) {
			add(s, line, "NUL byte", 8, R_HIDE);
			bad = 1;
		} else if (src[i] == '?' && i + 2 < len && src[i + 1] == '?' &&
			   strchr("=/'()!<>-", src[i + 2]) && src[i + 2]) {
			add(s, line, src + i, 3,
			    "trigraphs are refused: they can hide a directive or a splice");
			bad = 1;
		}
	}
	return bad;
}

/* Phase 2: remove line splices (a backslash, blanks, a newline; compilers
 * accept blanks before the newline), keeping each byte's original line. */
static int splice(struct st *s, const char *src, size_t len)
{
	s->b = malloc(len + 1);
	s->ln = malloc((len + 1) * sizeof *s->ln);
	if (!s->b || !s->ln)
		return -1;
	int line = 1;
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (src[i] == '\\') {
			size_t j = i + 1;
			while (j < len && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f' ||
					   src[j] == '\v' || src[j] == '\r'))
				j++;
			if (j < len && src[j] == '\n') {
				line++;
				i = j;
				continue;
			}
		}
		s->b[n] = src[i];
		s->ln[n++] = line;
		if (src[i] == '\n')
			line++;
	}
	s->b[n] = 0;
	s->ln[n] = line;
	s->n = n;
	return 0;
}

enum tok_kind { T_END, T_NL, T_IDENT, T_NUM, T_LIT, T_HASH, T_PASTE, T_PUNCT, T_BAD };

struct tok {
	enum tok_kind k;
	size_t at, len;
	int line;
	int after_nl_comment; /* a block comment holding a newline came before it */
};

static int is_id(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

/* A quoted literal from b[i] (at its opening quote) to just after its close;
 * an ordinary literal also ends at a newline (the compiler refuses it). */
static size_t quoted(const struct st *s, size_t i)
{
	char q = s->b[i];
	for (i++; i < s->n && s->b[i] != q && s->b[i] != '\n'; i++)
		if (s->b[i] == '\\' && i + 1 < s->n)
			i++;
	return i < s->n && s->b[i] == q ? i + 1 : i;
}

/* A raw string R"d( ... )d" from b[i] (at the quote): its end, or 0 when the
 * delimiter is malformed. */
static size_t raw_string(const struct st *s, size_t i)
{
	size_t d = i + 1, de = d;
	while (de < s->n && de - d <= 16 && s->b[de] != '(' && !isspace((unsigned char)s->b[de]) &&
	       s->b[de] != ')' && s->b[de] != '\\' && s->b[de] != '"')
		de++;
	if (de >= s->n || s->b[de] != '(' || de - d > 16)
		return 0;
	size_t dl = de - d;
	for (size_t k = de + 1; k + dl + 1 < s->n + 1; k++)
		if (s->b[k] == ')' && k + dl + 1 < s->n + 1 && !memcmp(s->b + k + 1, s->b + d, dl) &&
		    k + 1 + dl < s->n && s->b[k + 1 + dl] == '"')
			return k + dl + 2;
	return s->n; /* unterminated: the rest of the file is the string */
}

/* The length of a literal prefix (L u U u8, each optionally followed by R;
 * or R alone) when b[i..i+idn) is one and a quote follows; sets *raw. */
static int literal_prefix(const struct st *s, size_t i, size_t idn, int *raw)
{
	static const char *const pre[] = {"L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R"};
	if (i + idn >= s->n || (s->b[i + idn] != '"' && s->b[i + idn] != '\''))
		return 0;
	for (size_t k = 0; k < sizeof pre / sizeof pre[0]; k++)
		if (strlen(pre[k]) == idn && !memcmp(s->b + i, pre[k], idn)) {
			*raw = pre[k][idn - 1] == 'R';
			if (*raw && s->b[i + idn] != '"')
				return 0;
			return 1;
		}
	return 0;
}

/* The next token at or after *pos (comments skipped). */
static struct tok next(const struct st *s, size_t *pos)
{
	size_t i = *pos;
	struct tok t = {T_END, 0, 0, 0, 0};
	const char *b = s->b;
	for (;;) {
		while (i < s->n && is_blank(b[i]))
			i++;
		if (i + 1 < s->n && b[i] == '/' && b[i + 1] == '/') {
			while (i < s->n && b[i] != '\n')
				i++;
			continue;
		}
		if (i + 1 < s->n && b[i] == '/' && b[i + 1] == '*') {
			for (i += 2; i < s->n && !(b[i] == '*' && i + 1 < s->n && b[i + 1] == '/'); i++)
				if (b[i] == '\n')
					t.after_nl_comment = 1;
			i = i < s->n ? i + 2 : s->n;
			continue;
		}
		break;
	}
	t.at = i;
	t.line = s->ln[i];
	if (i >= s->n) {
		*pos = i;
		return t;
	}
	char c = b[i];
	size_t e = i + 1;
	if (c == '\n') {
		t.k = T_NL;
	} else if (c == '"' || c == '\'') {
		t.k = T_LIT;
		e = quoted(s, i);
	} else if (isdigit((unsigned char)c) ||
		   (c == '.' && i + 1 < s->n && isdigit((unsigned char)b[i + 1]))) {
		t.k = T_NUM;
		for (e = i + 1; e < s->n; e++) {
			if ((b[e] == '+' || b[e] == '-') && strchr("eEpP", b[e - 1]))
				continue;
			if (b[e] == '\'' && e + 1 < s->n && is_id(b[e + 1]))
				continue;
			if (!is_id(b[e]) && b[e] != '.')
				break;
		}
	} else if (is_id(c)) {
		int raw = 0;
		while (e < s->n && is_id(b[e]))
			e++;
		t.k = T_IDENT;
		if (literal_prefix(s, i, e - i, &raw)) {
			t.k = T_LIT;
			e = raw ? raw_string(s, e) : quoted(s, e);
			if (!e) {
				t.k = T_BAD;
				e = i + 1;
			}
		}
	} else if (c == '#' || (c == '%' && i + 1 < s->n && b[i + 1] == ':')) {
		e = c == '#' ? i + 1 : i + 2;
		t.k = T_HASH;
		if (e < s->n && b[e] == '#')
			e++, t.k = T_PASTE;
		else if (e + 1 < s->n && b[e] == '%' && b[e + 1] == ':')
			e += 2, t.k = T_PASTE;
	} else if (c == '\\') {
		t.k = T_BAD;
	} else {
		t.k = T_PUNCT;
	}
	t.len = e - i;
	*pos = e;
	return t;
}

static int tok_is(const struct st *s, const struct tok *t, const char *w)
{
	return t->len == strlen(w) && !memcmp(s->b + t->at, w, t->len);
}

/* The first of words that p[0..n) mentions (any case), or NULL. */
static const char *mentions(const char *p, size_t n, const char *const *words)
{
	for (; *words; words++) {
		size_t k = strlen(*words);
		for (size_t i = 0; i + k <= n; i++)
			if (!strncasecmp(p + i, *words, k))
				return *words;
	}
	return NULL;
}

static const char *const pragma_words[] = {"include", "import", "embed", "dependency", "omp", NULL};

/* #include's operand: a header name, read raw as the preprocessor does. */
static void include_operand(struct st *s, int line, size_t *pos)
{
	size_t i = *pos;
	while (i < s->n && is_blank(s->b[i]))
		i++;
	/* a comment before the header name is a blank too */
	if (i + 1 < s->n && s->b[i] == '/' && (s->b[i + 1] == '*' || s->b[i + 1] == '/')) {
		struct tok t = next(s, &i);
		i = t.at;
	}
	char close = i < s->n && s->b[i] == '<' ? '>' : i < s->n && s->b[i] == '"' ? '"' : 0;
	size_t h = i + 1, he = h;
	while (close && he < s->n && s->b[he] != close && s->b[he] != '\n')
		he++;
	int ok = close && he < s->n && s->b[he] == close && ka_bench_header_allowed(s->b + h, he - h);
	if (!ok) {
		if (close)
			add(s, line, s->b + h, he - h, R_INCL);
		else
			add(s, line, "#include", 8, "#include must name an allowlisted header directly");
	}
	*pos = close && he < s->n ? he + 1 : he;
}

/* _Pragma must take a plain string literal that names nothing include-ish. */
static void pragma_operator(struct st *s, const struct tok *id, size_t *pos)
{
	size_t p = *pos;
	struct tok a = next(s, &p), lit = next(s, &p), z = next(s, &p);
	if (!tok_is(s, &a, "(") || lit.k != T_LIT || !tok_is(s, &z, ")")) {
		add(s, id->line, s->b + id->at, id->len, "_Pragma must take a string literal directly");
		return;
	}
	if (mentions(s->b + lit.at, lit.len, pragma_words))
		add(s, id->line, s->b + lit.at, lit.len, R_PRAGMA);
	*pos = p;
}

static void code_token(struct st *s, const struct tok *t, size_t *pos)
{
	if (t->k == T_IDENT) {
		if (tok_is(s, t, "_Pragma") || tok_is(s, t, "__pragma"))
			pragma_operator(s, t, pos);
		else
			check_ident(s, t->line, s->b + t->at, t->len);
	} else if (t->k == T_BAD) {
		add(s, t->line, s->b + t->at, 1, R_HIDE);
	}
}

/* A directive from after its '#' to the end of its line. */
static void directive(struct st *s, const struct tok *hash, size_t *pos)
{
	static const char *const plain[] = {"define", "undef",   "if",       "ifdef", "ifndef",
					    "elif",   "elifdef", "elifndef", "else",  "endif",
					    "error",  "warning", NULL};
	struct tok name = next(s, pos);
	const char *nm = s->b + name.at;
	if (name.k == T_NL || name.k == T_END)
		return; /* the null directive */
	int line = hash->line, known = 0;
	if (name.k == T_IDENT && tok_is(s, &name, "include")) {
		include_operand(s, line, pos);
		known = 1;
	} else if (name.k == T_IDENT && tok_is(s, &name, "pragma")) {
		size_t e = *pos;
		while (e < s->n && s->b[e] != '\n')
			e++;
		const char *w = mentions(s->b + *pos, e - *pos, pragma_words);
		if (w) {
			char what[32];
			int n = snprintf(what, sizeof what, "#pragma %s", w);
			add(s, line, what, (size_t)n, R_PRAGMA);
		}
		*pos = e;
		return;
	} else if (name.k == T_IDENT && tok_is(s, &name, "line")) {
		known = 1;
	} else if (name.k == T_IDENT) {
		for (int k = 0; plain[k] && !known; k++)
			known = tok_is(s, &name, plain[k]);
	}
	if (!known) {
		add(s, line, nm, name.len, R_DIRECT);
		known = -1;
	} else if (name.k == T_IDENT && !tok_is(s, &name, "include") && !tok_is(s, &name, "line")) {
		check_ident(s, name.line, nm, name.len);
	}
	int is_line = tok_is(s, &name, "line");
	for (;;) {
		size_t before = *pos;
		struct tok t = next(s, pos);
		if (t.k == T_NL || t.k == T_END) {
			*pos = before;
			return;
		}
		if (t.k == T_PASTE)
			add(s, t.line, "##", 2, R_PASTE);
		else if (is_line && t.k == T_LIT)
			add(s, t.line, "#line", 5, "#line may not name a file");
		else if (known > 0)
			code_token(s, &t, pos);
	}
}

int ka_bench_scan(const char *src, size_t len, ka_bench_finding *out, int max)
{
	struct st s = {out, max, 0, NULL, NULL, 0};
	if (raw_bytes(&s, src, len))
		return s.count;
	if (splice(&s, src, len)) {
		free(s.b);
		free(s.ln);
		add(&s, 1, "(source)", 8, "out of memory");
		return s.count;
	}
	size_t pos = 0;
	int bol = 1;
	for (;;) {
		struct tok t = next(&s, &pos);
		if (t.k == T_END)
			break;
		if (t.k == T_NL) {
			bol = 1;
			continue;
		}
		/* a # first on its line, or after a block comment that ended a
		 * line (compilers differ there: take it as a directive) */
		if ((t.k == T_HASH || t.k == T_PASTE) && (bol || t.after_nl_comment)) {
			if (t.k == T_PASTE)
				add(&s, t.line, "##", 2, R_PASTE);
			else
				directive(&s, &t, &pos);
			bol = 0;
			continue;
		}
		bol = 0;
		if (t.k == T_PASTE)
			add(&s, t.line, "##", 2, R_PASTE);
		else
			code_token(&s, &t, &pos);
	}
	free(s.b);
	free(s.ln);
	return s.count;
}
