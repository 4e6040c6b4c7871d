/* tests/util/test_fs.c: util/fs.h on what a hostile tree holds: FIFOs and
 * devices are never opened for a blocking read, writes follow symbolic
 * links and never replace a device, a FIFO or a folder, a conditional
 * write refuses a changed file, and the visited-folder set sees through
 * links; reads are capped (also for files that grow while read), and a
 * write that fails keeps the old file and leaves no temporary; a cache
 * folder keeps the entries used most recently. */
#include "test_util.h"
#include "util/error.h"
#include "util/fs.h"
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *get(const char *path)
{
	char *data = NULL;
	size_t n;
	assert_int_equal(ka_fs_read(path, 0, &data, &n), KA_OK);
	return data;
}

/* Only the names the test made are left in dir (no temporary). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void read_refuses_fifo_and_device(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *fifo = tu_path(dir, "in.cu"), *data = NULL;
	size_t n;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(20); /* a blocking open would hang: make that a failure */
	assert_int_equal(ka_fs_read(fifo, 0, &data, &n), KA_EIO);
	char want[4200];
	snprintf(want, sizeof want, "cannot read %s: not a regular file", fifo);
	assert_string_equal(ka_error_last(), want);
	assert_int_equal(ka_fs_read("/dev/null", 0, &data, &n), KA_EIO);
	assert_non_null(strstr(ka_error_last(), "/dev/null: not a regular file"));
	assert_int_equal(ka_fs_read(dir, 0, &data, &n), KA_EIO);
	assert_non_null(strstr(ka_error_last(), ": is a directory"));
	alarm(0);
	assert_null(data);
	tu_rmtree(dir);
	free(fifo);
	free(dir);
}

static void write_follows_links(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *target = tu_path(dir, "real.cu"), *link = tu_path(dir, "link.cu");
	char *dangling = tu_path(dir, "nowhere.cu");
	put(target, "old\n");
	assert_int_equal(chmod(target, 0640), 0);
	assert_int_equal(symlink("real.cu", link), 0);
	assert_int_equal(ka_fs_write_atomic(link, "new\n", 4), KA_OK);
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	char *got = get(target);
	assert_string_equal(got, "new\n");
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640); /* the mode is kept */
	assert_int_equal(symlink("missing/x.cu", dangling), 0);
	assert_int_equal(ka_fs_write_atomic(dangling, "x", 1), KA_EIO);
	assert_non_null(strstr(ka_error_last(), "the symbolic link points nowhere"));
	assert_int_equal(lstat(dangling, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(entries(dir), 3); /* no temporary left */
	free(got);
	tu_rmtree(dir);
	free(dangling);
	free(link);
	free(target);
	free(dir);
}

static void write_devices_and_fifos_in_place(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *fifo = tu_path(dir, "out.fifo"), *devlink = tu_path(dir, "null");
	struct stat st;
	alarm(20);
	/* a character device through a link: written in place, never replaced */
	assert_int_equal(symlink("/dev/null", devlink), 0);
	assert_int_equal(ka_fs_write_atomic(devlink, "report\n", 7), KA_OK);
	assert_int_equal(lstat(devlink, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	/* a FIFO nobody reads: an error at once */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(ka_fs_write_atomic(fifo, "report\n", 7), KA_EIO);
	assert_non_null(strstr(ka_error_last(), "no process is reading the FIFO"));
	/* a FIFO with a reader gets the bytes, and stays a FIFO */
	int rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_equal(ka_fs_write_atomic(fifo, "report\n", 7), KA_OK);
	char buf[16] = {0};
	assert_int_equal(read(rd, buf, sizeof buf - 1), 7);
	assert_string_equal(buf, "report\n");
	close(rd);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	/* a folder is refused */
	assert_int_equal(ka_fs_write_atomic(dir, "x", 1), KA_EIO);
	assert_non_null(strstr(ka_error_last(), ": is a directory"));
	alarm(0);
	assert_int_equal(entries(dir), 2);
	tu_rmtree(dir);
	free(devlink);
	free(fifo);
	free(dir);
}

static void conditional_write(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *f = tu_path(dir, "k.cu");
	put(f, "saved by the editor\n");
	assert_int_equal(ka_fs_write_atomic_if(f, "fixed\n", 6, "analysed\n", 9), KA_FS_CHANGED);
	char *got = get(f);
	assert_string_equal(got, "saved by the editor\n");
	free(got);
	assert_int_equal(entries(dir), 1);
	assert_int_equal(ka_fs_write_atomic_if(f, "fixed\n", 6, "saved by the editor\n", 20), KA_OK);
	got = get(f);
	assert_string_equal(got, "fixed\n");
	free(got);
	unlink(f); /* deleted meanwhile: changed, and not recreated */
	assert_int_equal(ka_fs_write_atomic_if(f, "fixed\n", 6, "fixed\n", 6), KA_FS_CHANGED);
	assert_int_equal(access(f, F_OK), -1);
	assert_int_equal(entries(dir), 0);
	tu_rmtree(dir);
	free(f);
	free(dir);
}

static void seen_set_sees_through_links(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *link = tu_path(dir, "loop");
	ka_fs_seen s = {0};
	assert_int_equal(symlink(".", link), 0);
	assert_int_equal(ka_fs_seen_add(&s, dir), 1);
	assert_int_equal(ka_fs_seen_add(&s, link), 0);
	char name[64];
	for (int i = 0; i < 300; i++) { /* past several growths */
		snprintf(name, sizeof name, "d%d", i);
		char *p = tu_path(dir, name);
		assert_int_equal(mkdir(p, 0700), 0);
		assert_int_equal(ka_fs_seen_add(&s, p), 1);
		free(p);
	}
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof name, "loop/d%d", i);
		char *p = tu_path(dir, name);
		assert_int_equal(ka_fs_seen_add(&s, p), 0);
		free(p);
	}
	assert_int_equal(s.n, 301);
	assert_int_equal(ka_fs_seen_add(&s, "/nonexistent/folder"), KA_EIO);
	ka_fs_seen_free(&s);
	tu_rmtree(dir);
	free(link);
	free(dir);
}

static void read_caps_and_errors(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *f = tu_path(dir, "ten.cu"), *e = tu_path(dir, "empty.cu");
	char *missing = tu_path(dir, "missing.cu"), *data = (char *)"untouched", want[4300];
	size_t n = 77;
	put(f, "0123456789");
	put(e, "");
	assert_int_equal(ka_fs_read(f, 9, &data, &n), KA_ETOOBIG);
	snprintf(want, sizeof want, "cannot read %s: larger than 9 bytes", f);
	assert_string_equal(ka_error_last(), want);
	assert_null(data); /* nothing half-read */
	assert_int_equal(n, 0);
	assert_int_equal(ka_fs_read(f, 10, &data, NULL), KA_OK); /* len may be NULL */
	assert_string_equal(data, "0123456789");
	free(data);
	assert_int_equal(ka_fs_read(e, 0, &data, &n), KA_OK);
	assert_string_equal(data, "");
	assert_int_equal(n, 0);
	free(data);
	assert_int_equal(ka_fs_read(missing, 0, &data, &n), KA_EIO);
	snprintf(want, sizeof want, "cannot read %s: No such file or directory", missing);
	assert_string_equal(ka_error_last(), want);
	tu_rmtree(dir);
	free(missing);
	free(e);
	free(f);
	free(dir);
}

/* /proc files say size 0 and hold more: the cap holds while reading, not
 * only at the next doubling of the buffer. */
static void read_cap_holds_for_growing_files(void **state)
{
	(void)state;
	char *data = NULL;
	size_t n = 0;
	assert_int_equal(ka_fs_read("/proc/self/cmdline", 0, &data, &n), KA_OK);
	assert_true(n > 8);
	assert_non_null(strstr(data, "test_util"));
	free(data);
	assert_int_equal(ka_fs_read("/proc/self/cmdline", n, &data, NULL), KA_OK);
	free(data);
	assert_int_equal(ka_fs_read("/proc/self/cmdline", n - 1, &data, NULL), KA_ETOOBIG);
	char want[128];
	snprintf(want, sizeof want, "cannot read /proc/self/cmdline: larger than %zu bytes", n - 1);
	assert_string_equal(ka_error_last(), want);
	assert_null(data);
}

static void predicates(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *f = tu_path(dir, "a.cu"), *dl = tu_path(dir, "dirlink");
	char *missing = tu_path(dir, "nope");
	put(f, "x");
	assert_int_equal(symlink(".", dl), 0);
	assert_int_equal(ka_fs_is_regular(f), 1);
	assert_int_equal(ka_fs_is_regular(dir), 0);
	assert_int_equal(ka_fs_is_regular("/dev/null"), 0);
	assert_int_equal(ka_fs_is_dir(dir), 1);
	assert_int_equal(ka_fs_is_dir(dl), 1); /* after links */
	assert_int_equal(ka_fs_is_dir(f), 0);
	assert_int_equal(ka_fs_exists(f), 1);
	assert_int_equal(ka_fs_exists(missing), 0);
	assert_int_equal(ka_fs_is_dir(missing), 0);
	char bin[9000];
	memset(bin, 'a', sizeof bin);
	assert_int_equal(ka_fs_is_binary(bin, sizeof bin), 0);
	bin[8192] = '\0'; /* past the first 8 KiB: not looked at */
	assert_int_equal(ka_fs_is_binary(bin, sizeof bin), 0);
	bin[8191] = '\0';
	assert_int_equal(ka_fs_is_binary(bin, sizeof bin), 1);
	assert_int_equal(ka_fs_is_binary("", 0), 0);
	tu_rmtree(dir);
	free(missing);
	free(dl);
	free(f);
	free(dir);
}

static void write_new_and_empty_files(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *f = tu_path(dir, "new.yaml"), *sub = tu_path(dir, "no/such/dir.yaml");
	char want[4300];
	struct stat st;
	mode_t old = umask(077);
	assert_int_equal(ka_fs_write_atomic(f, "a: 1\n", 5), KA_OK);
	umask(old);
	assert_int_equal(stat(f, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644); /* a new file: 0644, not the umask */
	char *got = get(f);
	assert_string_equal(got, "a: 1\n");
	free(got);
	assert_int_equal(ka_fs_write_atomic(f, "", 0), KA_OK);
	assert_int_equal(stat(f, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(ka_fs_write_atomic(sub, "x", 1), KA_EIO);
	snprintf(want, sizeof want, "cannot write %s: No such file or directory", sub);
	assert_string_equal(ka_error_last(), want);
	assert_int_equal(entries(dir), 1);
	tu_rmtree(dir);
	free(sub);
	free(f);
	free(dir);
}

/* A write that fails half-way (here: past RLIMIT_FSIZE, which holds for
 * root too) leaves the old file whole and no temporary beside it. */
static void failed_write_keeps_the_old_file(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *f = tu_path(dir, "kernel.cu");
	put(f, "the old bytes\n");
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = {4096, 4096};
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
			_exit(3);
		static char big[65536];
		memset(big, 'n', sizeof big);
		int rc = ka_fs_write_atomic(f, big, sizeof big);
		char want[4300];
		snprintf(want, sizeof want, "cannot write %s: File too large", f);
		_exit(rc == KA_EIO && strcmp(ka_error_last(), want) == 0 ? 0 : 4);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	char *got = get(f);
	assert_string_equal(got, "the old bytes\n");
	free(got);
	assert_int_equal(entries(dir), 1);
	tu_rmtree(dir);
	free(f);
	free(dir);
}

static void write_refuses_sockets(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *sock = tu_path(dir, "s"), want[4300];
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	assert_true(fd >= 0);
	assert_true(strlen(sock) < sizeof sa.sun_path);
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", sock);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	assert_int_equal(ka_fs_write_atomic(sock, "x", 1), KA_EIO);
	snprintf(want, sizeof want, "cannot write %s: not a regular file", sock);
	assert_string_equal(ka_error_last(), want);
	struct stat st;
	assert_int_equal(lstat(sock, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	close(fd);
	tu_rmtree(dir);
	free(sock);
	free(dir);
}

static void set_age(const char *path, long age)
{
	struct timespec t[2];
	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= age;
	t[1] = t[0];
	assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* Six entries used 6000..1000 s ago (e0 the oldest), one other suffix, one
 * folder: keeping 3 removes e0..e2; a touch makes the oldest the newest;
 * an entry used within min_age stays even over the count. */
static void cache_prune_keeps_recent(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), p[4400];
	for (int i = 0; i < 6; i++) {
		snprintf(p, sizeof p, "%s/e%d.pch", dir, i);
		put(p, "x");
		set_age(p, 6000 - 1000 * i);
	}
	snprintf(p, sizeof p, "%s/e9.other", dir);
	put(p, "x");
	set_age(p, 90000);
	snprintf(p, sizeof p, "%s/old.pch", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof p, "%s/e3.pch", dir);
	ka_fs_cache_touch(p); /* e3 used now */
	assert_int_equal(ka_fs_cache_prune(dir, ".pch", 3, 600), 3);
	const char *left[] = {"e3.pch", "e4.pch", "e5.pch", "e9.other", "old.pch"};
	assert_int_equal(entries(dir), 5);
	for (int i = 0; i < 5; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, left[i]);
		assert_true(ka_fs_exists(p));
	}
	/* keep 0 with a min_age of 1500 s: e4 (2000 s) goes, e3 and e5 stay */
	assert_int_equal(ka_fs_cache_prune(dir, ".pch", 0, 1500), 1);
	snprintf(p, sizeof p, "%s/e4.pch", dir);
	assert_false(ka_fs_exists(p));
	assert_int_equal(entries(dir), 4);
	assert_int_equal(ka_fs_cache_prune(dir, ".pch", 5, 0), 0);
	snprintf(p, sizeof p, "%s/none", dir);
	assert_int_equal(ka_fs_cache_prune(p, ".pch", 1, 0), -1);
	tu_rmtree(dir);
	free(dir);
}

int run_fs_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_refuses_fifo_and_device),
		cmocka_unit_test(write_follows_links),
		cmocka_unit_test(write_devices_and_fifos_in_place),
		cmocka_unit_test(conditional_write),
		cmocka_unit_test(seen_set_sees_through_links),
		cmocka_unit_test(read_caps_and_errors),
		cmocka_unit_test(read_cap_holds_for_growing_files),
		cmocka_unit_test(predicates),
		cmocka_unit_test(write_new_and_empty_files),
		cmocka_unit_test(failed_write_keeps_the_old_file),
		cmocka_unit_test(write_refuses_sockets),
		cmocka_unit_test(cache_prune_keeps_recent),
	};
	return cmocka_run_group_tests_name("util_fs", tests, NULL, NULL);
}
