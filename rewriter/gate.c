/* rewriter/gate.c: the compile gate.  An edited file is written to a
 * private copy under a name kcheck chose (util/safesrc.h: nvcc hands its
 * arguments to /bin/sh, so the user's file name never reaches it), with the
 * original's folder as -iquote so relative includes resolve as before,
 * compiled with nvcc under a time limit, and removed; with hipcc when kcheck
 * parses the file as HIP (a .hip file, project flags with `-x hip`, or a
 * CUDA-named file that includes the HIP runtime).  The
 * original is never touched here; the caller decides what to write.
 * ka_gate_temp (the bench of --task) still writes beside the file; the
 * bench makes its own private copy of what it compiles. */
#include "rewriter/rewriter.h"
#include "analyzer/arch.h"
#include "util/buf.h"
#include "util/ccdiag.h"
#include "util/proc.h"
#include "util/cleanup.h"
#include "util/safesrc.h"
#include "util/error.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_CAP (64u << 10)

static int is_exe(const char *p)
{
	struct stat st;
	return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static int is_hip(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcmp(path + n - 4, ".hip") == 0;
}

/* The project flags name the language: `-x hip` (or -xhip, --x=hip); the
 * last -x wins. */
static int flags_say_hip(const ka_gate_opts *o, int *said)
{
	int hip = 0;
	*said = 0;
	for (int i = 0; i < o->n_extra_args; i++) {
		const char *a = o->extra_args[i], *v = NULL;
		if ((!strcmp(a, "-x") || !strcmp(a, "--x")) && i + 1 < o->n_extra_args)
			v = o->extra_args[++i];
		else if (!strncmp(a, "-x", 2) && a[2] && a[2] != '-')
			v = a + 2 + (a[2] == '=');
		else if (!strncmp(a, "--x=", 4))
			v = a + 4;
		if (v) {
			*said = 1;
			hip = !strcmp(v, "hip");
		}
	}
	return hip;
}

/* As the analyzer decides (analyzer/frontend_tu.c): the extension, then the
 * project's -x, then a CUDA-named file that includes the HIP runtime. */
static int gate_is_hip(const ka_gate_opts *o, const char *path, const char *text, size_t len)
{
	int said;
	if (is_hip(path))
		return 1;
	int h = flags_say_hip(o, &said);
	if (said)
		return h;
	static const char *const incs[] = {"#include <hip/hip_runtime.h>", "#include \"hip/hip_runtime.h\""};
	for (size_t k = 0; k < sizeof incs / sizeof *incs; k++) {
		size_t il = strlen(incs[k]);
		for (size_t i = 0; text && i + il <= len; i++)
			if (text[i] == '#' && memcmp(text + i, incs[k], il) == 0)
				return 1;
	}
	return 0;
}

static char *find_compiler(const ka_gate_opts *o, int hip)
{
	const char *opt = hip ? o->hipcc : o->nvcc;
	if (opt)
		return is_exe(opt) ? strdup(opt) : NULL;
	return ka_proc_find_tool(hip ? "KCHECK_HIPCC" : "KCHECK_NVCC", hip ? "hipcc" : "nvcc",
				 hip ? "/opt/rocm/bin/hipcc" : "/usr/local/cuda/bin/nvcc");
}

char *ka_gate_find_compiler(const ka_gate_opts *o, const char *path)
{
	return find_compiler(o, is_hip(path));
}

/* Temporary `DIR/.NAME.kcheck-XXXXXX.cu` holding text. */
static int write_temp(const char *path, const char *text, size_t len, char **tmp_out)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	const char *ext = is_hip(path) ? ".hip" : ".cu";
	size_t cap = strlen(path) + 32;
	char *tmp = malloc(cap);
	if (!tmp)
		return ka_error_set(KA_ENOMEM, "out of memory");
	snprintf(tmp, cap, "%.*s.%s.kcheck-XXXXXX%s", dirlen, path, slash ? slash + 1 : path, ext);
	int fd = mkstemps(tmp, (int)strlen(ext));
	if (fd < 0) {
		int rc = ka_error_set(KA_EIO, "cannot create a temporary file beside %s: %s", path,
				      strerror(errno));
		free(tmp);
		return rc;
	}
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int rc = ka_error_set(KA_EIO, "cannot write %s: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			free(tmp);
			return rc;
		}
		done += (size_t)w;
	}
	close(fd);
	*tmp_out = tmp;
	return KA_OK;
}

void ka_gate_temp_remove(char *tmp, int slot)
{
	if (tmp)
		unlink(tmp);
	ka_cleanup_remove_file(slot);
	free(tmp);
}

int ka_gate_temp(const char *path, const char *text, size_t len, char **tmp_out, int *slot)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old); /* created and registered, or neither */
	int rc = write_temp(path, text, len, tmp_out);
	*slot = rc == KA_OK ? ka_cleanup_add_file(*tmp_out) : -1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Run argv with stdout+stderr captured (util/proc.h kills its process
 * group at the limit).  Returns the exit status, -1 when it was killed for
 * time, or a negative error code when it could not start. */
static int run_captured(char *const argv[], int timeout_s, ka_buf *output)
{
	ka_proc_result res;
	int rc = ka_proc_run(argv, timeout_s, output, &res);
	if (rc < 0) /* not started, or exec failed (127) */
		return rc;
	if (res.timed_out)
		return -1;
	return res.exited ? res.status : 128;
}

static int has_word(const char *p, size_t n, const char *w)
{
	size_t m = strlen(w);
	for (size_t i = 0; i + m <= n; i++)
		if (memcmp(p + i, w, m) == 0)
			return 1;
	return 0;
}

static char *first_error_line(const char *out, const ka_safesrc *copy, const char *path)
{
	const char *pick = NULL, *p = out;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		if (n && !pick)
			pick = p;
		if (n && has_word(p, n, "error")) {
			pick = p;
			break;
		}
		p = nl ? nl + 1 : NULL;
	}
	if (!pick)
		return strdup("(no compiler output)");
	size_t n = strcspn(pick, "\n");
	ka_buf b;
	ka_buf_init(&b, 4096);
	(void)ka_safesrc_names(&b, copy, path, pick, n); /* name the user's file, not the copy */
	return ka_buf_steal(&b);
}

int ka_gate_compile(const ka_gate_opts *o, const char *path, const char *text, size_t len, char **first_error)
{
	int hip = gate_is_hip(o, path, text, len);
	char *cc = find_compiler(o, hip), archflag[64], *iquote = NULL;
	char **argv = NULL;
	ka_buf output;
	ka_safesrc copy = {.file_slot = -1, .link_slot = -1, .dir_slot = -1};
	int rc;
	ka_buf_init(&output, OUTPUT_CAP);
	*first_error = NULL;
	if (!cc)
		return ka_error_set(KA_ENOTFOUND, "%s not found", hip ? "hipcc" : "nvcc");
	if ((rc = ka_safesrc_make(path, text, len, &copy)) < 0)
		goto out;
	/* nvcc's host compiler preprocesses both sides: -iquote reaches it through -Xcompiler */
	iquote = malloc(strlen(copy.quote) + 16);
	argv = calloc((size_t)o->n_extra_args + 14, sizeof(char *));
	if (!argv || !iquote) {
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	int n = 0;
	argv[n++] = cc;
	if (hip) { /* an NVIDIA --arch says nothing about the AMD target, and back */
		snprintf(archflag, sizeof archflag, "--offload-arch=%s",
			 o->arch && strncmp(o->arch, "gfx", 3) == 0 ? o->arch : "gfx90a");
		if (!is_hip(path)) { /* a .cu or .cpp file: say it is HIP */
			argv[n++] = "-x";
			argv[n++] = "hip";
		}
		sprintf(iquote, "%s", copy.quote);
		argv[n++] = "-iquote";
	} else {
		snprintf(archflag, sizeof archflag, "-arch=%s",
			 o->arch && strncmp(o->arch, "sm_", 3) == 0 ? o->arch : KA_ARCH_DEFAULT);
		argv[n++] = "-x";
		argv[n++] = "cu";
		sprintf(iquote, "-iquote%s", copy.quote);
		argv[n++] = "-Xcompiler";
	}
	argv[n++] = iquote;
	argv[n++] = archflag;
	for (int i = 0, take; i < o->n_extra_args; i += take) /* include and macro flags only */
		if (ka_proc_cc_flag(o->extra_args, o->n_extra_args, i, &take))
			for (int k = 0; k < take; k++)
				argv[n++] = (char *)o->extra_args[i + k];
	argv[n++] = "-c";
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	argv[n++] = copy.file;
	int limit = o->timeout_s > 0 ? o->timeout_s : 60;
	int status = run_captured(argv, limit, &output);
	if (status > 0 && hip && output.data && strstr(output.data, "invalid target ID") &&
	    strcmp(archflag, "--offload-arch=gfx90a") != 0) {
		/* Debian's hipcc (ROCm 5.2, clang 15) predates gfx942: compile for
		 * gfx90a, the same wave64 CDNA instruction set family. */
		snprintf(archflag, sizeof archflag, "--offload-arch=gfx90a");
		ka_buf_free(&output);
		ka_buf_init(&output, OUTPUT_CAP);
		status = run_captured(argv, limit, &output);
	}
	if (status < -1) { /* could not start it: an error of the run, not of the fix */
		char why[512];
		snprintf(why, sizeof why, "%s", ka_error_last());
		rc = ka_error_set(KA_EIO, "compile gate: %s", why);
		goto out;
	}
	if (status == -1) {
		*first_error = malloc(64);
		if (*first_error)
			snprintf(*first_error, 64, "compiler killed after %d s time limit", limit);
		rc = ka_error_set(KA_ETOOL, "%s timed out after %d s", path, limit);
	} else if (status != 0) {
		/* only diagnostics about the compiled file: a quote of any other
		 * file (one the edit included) must not reach a prompt or a report */
		const char *const allowed[] = {copy.file, NULL};
		ka_buf kept;
		ka_buf_init(&kept, OUTPUT_CAP);
		if (ka_ccdiag_filter(output.data ? output.data : "", output.len, allowed, &kept) < 0)
			ka_buf_reset(&kept);
		*first_error = first_error_line(kept.data ? kept.data : "", &copy, path);
		ka_buf_free(&kept);
		rc = ka_error_set(KA_ETOOL, "%s does not compile", path);
	} else {
		rc = KA_OK;
	}
out:
	ka_safesrc_remove(&copy);
	free(iquote);
	free(argv);
	free(cc);
	ka_buf_free(&output);
	return rc;
}
