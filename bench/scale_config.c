/* bench/scale_config.c: the Slurm settings a repository's .kcheck.yaml may
 * give the bench (bench/scale.h, docs/security.md): the partition, the time
 * limit and the GPUs per job, each checked for its shape.  Nothing that
 * names a program, a file, an account or a free sbatch option comes from
 * the file: those are the user's, on the command line. */
#include "bench/scale.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>
#include "util/error.h"
#include "util/fs.h"

/* The nearest .kcheck.yaml from the current folder up; 0 when found. */
static int nearest(char *path, size_t cap)
{
	char dir[PATH_MAX];
	if (!getcwd(dir, sizeof dir))
		return -1;
	for (;;) {
		if (snprintf(path, cap, "%s/.kcheck.yaml", strcmp(dir, "/") ? dir : "") < (int)cap &&
		    ka_fs_is_regular(path))
			return 0;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return -1;
		*slash = 0;
	}
}

static char *scalar_dup(const yaml_node_t *v)
{
	char *s = malloc(v->data.scalar.length + 1);
	if (s) {
		memcpy(s, v->data.scalar.value, v->data.scalar.length);
		s[v->data.scalar.length] = 0;
	}
	return s;
}

int ka_scale_config(ka_scale_opts *o)
{
	static char *kept[3]; /* the values, for the rest of the run */
	char path[PATH_MAX + 20], *text = NULL;
	size_t len = 0;
	yaml_parser_t p;
	yaml_document_t d;
	int rc = 0;
	if (nearest(path, sizeof path))
		return 0;
	if (ka_fs_read(path, 1 << 20, &text, &len))
		return KA_EIO;
	if (!yaml_parser_initialize(&p)) {
		free(text);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &d)) {
		rc = ka_error_set(KA_EINPUT, "%s:%d: %s", path, (int)p.problem_mark.line + 1,
				  p.problem ? p.problem : "not YAML");
		yaml_parser_delete(&p);
		free(text);
		return rc;
	}
	yaml_node_t *root = yaml_document_get_root_node(&d);
	for (yaml_node_pair_t *q = root && root->type == YAML_MAPPING_NODE ? root->data.mapping.pairs.start
									   : NULL;
	     q && q < root->data.mapping.pairs.top && !rc; q++) {
		yaml_node_t *k = yaml_document_get_node(&d, q->key),
			    *v = yaml_document_get_node(&d, q->value);
		if (!k || k->type != YAML_SCALAR_NODE || !v)
			continue;
		const char *key = (const char *)k->data.scalar.value;
		int which = !strcmp(key, "slurm-partition")      ? 0
			    : !strcmp(key, "slurm-time-limit")   ? 1
			    : !strcmp(key, "slurm-gpus-per-job") ? 2
								 : -1;
		if (which < 0)
			continue; /* the lint's keys: it checks them */
		int line = (int)v->start_mark.line + 1;
		char *s = v->type == YAML_SCALAR_NODE ? scalar_dup(v) : NULL;
		if (!s) {
			rc = ka_error_set(KA_EINPUT, "%s:%d: '%s' must be a single value", path, line, key);
			break;
		}
		int bad = which == 0 ? !ka_scale_safe_partition(s) : which == 1 ? !ka_scale_safe_time(s) : 0;
		if (which == 2) {
			char *end;
			long n = strtol(s, &end, 10);
			bad = *end || end == s || n < 0 || n > 64;
			if (!bad && !(o->set & KA_SCALE_SET_GPUS))
				o->gpus_per_job = (int)n;
		}
		if (bad) {
			rc = ka_error_set(KA_EINPUT, "%s:%d: bad %s '%.60s' (%s)", path, line, key, s,
					  which == 0   ? "letters, digits, '.', '_', '-' and ','"
					  : which == 1 ? "a Slurm time: minutes, MM:SS, HH:MM:SS or D-HH:MM"
						       : "a number 0..64");
			free(s);
			break;
		}
		free(kept[which]);
		kept[which] = s;
		if (which == 0 && !(o->set & KA_SCALE_SET_PARTITION))
			o->partition = s;
		if (which == 1 && !(o->set & KA_SCALE_SET_TIME))
			o->time_limit = s;
	}
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	free(text);
	return rc;
}
