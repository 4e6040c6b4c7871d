/* util/shsafe.c: the character rules of util/shsafe.h. */
#include "util/shsafe.h"
#include "util/proc.h"
#include "util/utf8.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why byte c may not reach nvcc, or NULL when it may. */
static const char *refused(unsigned char c)
{
	switch (c) {
	case '$':
		return "'$' (nvcc's /bin/sh would expand it)";
	case '`':
		return "'`' (nvcc's /bin/sh would run it)";
	case '"':
		return "'\"' (it would end nvcc's quoting)";
	case '\\':
		return "'\\' (nvcc's /bin/sh would read it as an escape)";
	case '\'':
		return "a single quote (nvcc's quoting is not made for it)";
	case ';':
		return "';' (a command separator in nvcc's /bin/sh)";
	default:
		return c < 0x20 || c == 0x7f ? "a control character" : NULL;
	}
}

static void say(char *why, size_t cap, const char *what)
{
	if (why && cap)
		snprintf(why, cap, "%s", what);
}

int ka_sh_safe(const char *s, char *why, size_t cap)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		const char *r = c < 0x80 ? refused(c) : NULL;
		if (r) {
			say(why, cap, r);
			return 0;
		}
		size_t k = c < 0x80 ? 1 : ka_utf8_char_len(s + i, n - i);
		if (!k) {
			say(why, cap, "a byte that is not UTF-8");
			return 0;
		}
		i += k;
	}
	return 1;
}

int ka_sh_safe_name(const char *s)
{
	if (!*s || *s == '-')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

int ka_sh_cc_unsafe(const char *const *args, int n, char *why, size_t cap)
{
	for (int i = 0, take; i < n; i += take)
		if (ka_proc_cc_flag(args, n, i, &take))
			for (int k = 0; k < take; k++)
				if (!ka_sh_safe(args[i + k], why, cap))
					return i + k;
	return -1;
}

static int same_env(const char *argv0, const char *var)
{
	const char *e = getenv(var);
	return e && *e && strcmp(e, argv0) == 0;
}

int ka_sh_nvcc_family(const char *argv0)
{
	static const char *const names[] = {"nvcc", "hipcc", "ptxas", "clang", "cudafe", "cicc", "nvc++"};
	const char *base = strrchr(argv0, '/') ? strrchr(argv0, '/') + 1 : argv0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strstr(base, names[i]))
			return 1;
	return same_env(argv0, "KCHECK_NVCC") || same_env(argv0, "KCHECK_HIPCC");
}

char *ka_sh_show(char *dst, size_t cap, const char *s)
{
	size_t o = 0;
	if (!cap)
		return dst;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char one[8];
		int w = c >= 0x20 && c < 0x7f ? snprintf(one, sizeof one, "%c", c)
					      : snprintf(one, sizeof one, "\\x%02x", c);
		if (o + (size_t)w + 4 > cap) {
			snprintf(dst + o, cap - o, "%s", cap - o > 3 ? "..." : "");
			return dst;
		}
		memcpy(dst + o, one, (size_t)w);
		o += (size_t)w;
	}
	dst[o] = '\0';
	return dst;
}
