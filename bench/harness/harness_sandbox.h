/* bench/harness/harness_sandbox.h: the second wall around candidate code.
 * The first wall is the object check (bench/objcheck.c): a candidate object
 * may import only a kernel wrapper's CUDA calls.  This one holds even if
 * something gets past that: before the first call into an implementation,
 * the harness enters a seccomp filter (raw BPF, no library) that allows
 * only what the CUDA runtime and the harness need once the device is open
 * (ioctl, mmap without PROT_EXEC, futex, threads, clocks, reads and writes
 * on descriptors already open) and traps everything else: execve, fork and
 * process clones, every open, sockets, ptrace, executable mappings, other
 * processes' signals, io_uring, new seccomp-free tricks.  A trapped call
 * prints "fail - sandbox: system call N (name) is not allowed" on the
 * result channel and ends the process with status 3, so the parent rejects
 * the run.  A filter cannot be lifted, so it covers the rest of the run:
 * the harness does everything that needs more (plan, device open, module
 * load) first.  Threads the CUDA driver started before the filter are not
 * under it (no TSYNC): candidate code runs on the main thread and on the
 * threads it may start, which inherit the filter.
 *
 * Plain C, included by harness.cu and by the host-side test
 * (tests/bench/test_sandbox.c): x86-64 Linux only; elsewhere entering the
 * sandbox fails and the harness refuses to run. */
#ifndef KA_HARNESS_SANDBOX_H
#define KA_HARNESS_SANDBOX_H
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#ifndef CLONE_THREAD
#define CLONE_THREAD 0x00010000
#endif

static int sandbox_report_fd = 3;

/* Names for the message; the number alone for the rest. */
static const char *sandbox_name(long nr)
{
	static const struct {
		long nr;
		const char *name;
	} k[] = {
		{SYS_execve, "execve"},
		{SYS_execveat, "execveat"},
		{SYS_fork, "fork"},
		{SYS_vfork, "vfork"},
		{SYS_clone, "clone"},
		{SYS_open, "open"},
		{SYS_openat, "openat"},
		{SYS_creat, "creat"},
		{SYS_socket, "socket"},
		{SYS_connect, "connect"},
		{SYS_ptrace, "ptrace"},
		{SYS_mmap, "mmap"},
		{SYS_mprotect, "mprotect"},
		{SYS_kill, "kill"},
		{SYS_tgkill, "tgkill"},
		{SYS_prctl, "prctl"},
		{SYS_rt_sigaction, "rt_sigaction"},
		{SYS_process_vm_writev, "process_vm_writev"},
		{SYS_unlink, "unlink"},
		{SYS_rename, "rename"},
		{SYS_memfd_create, "memfd_create"},
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
		if (k[i].nr == nr)
			return k[i].name;
	return "?";
}

/* SIGSYS from a trapped call: report it on the result channel (write(2)
 * only: async-signal-safe) and end the process. */
static void sandbox_on_sigsys(int sig, siginfo_t *si, void *uc)
{
	char line[160], num[24];
	long nr = si->si_syscall;
	size_t n = 0, k = 0;
	const char *name = sandbox_name(nr);
	(void)sig;
	(void)uc;
	do {
		num[k++] = (char)('0' + nr % 10);
		nr /= 10;
	} while (nr > 0 && k < sizeof num);
	const char *head = "\nfail - sandbox: system call ";
	memcpy(line, head, strlen(head));
	n = strlen(head);
	while (k > 0)
		line[n++] = num[--k];
	line[n++] = ' ';
	line[n++] = '(';
	memcpy(line + n, name, strlen(name));
	n += strlen(name);
	const char *tail = ") is not allowed in the bench\n";
	memcpy(line + n, tail, strlen(tail));
	n += strlen(tail);
	if (write(sandbox_report_fd, line, n) < 0 || write(2, line + 1, n - 1) < 0)
		_exit(3);
	_exit(3);
}

/* The filter's program, built into prog[] (returns its length). */
#define SB_LD(off) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define SB_RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define SB_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))

static int sandbox_program(struct sock_filter *prog, int cap, pid_t pid)
{
	static const long allow[] = {
		SYS_read,
		SYS_write,
		SYS_readv,
		SYS_writev,
		SYS_pread64,
		SYS_pwrite64,
		SYS_close,
		SYS_fstat,
		SYS_newfstatat,
		SYS_lseek,
		SYS_munmap,
		SYS_mremap,
		SYS_madvise,
		SYS_mincore,
		SYS_msync,
		SYS_brk,
		SYS_ioctl,
		SYS_poll,
		SYS_ppoll,
		SYS_select,
		SYS_pselect6,
		SYS_epoll_create1,
		SYS_epoll_ctl,
		SYS_epoll_wait,
		SYS_epoll_pwait,
		SYS_eventfd2,
		SYS_futex,
		SYS_set_robust_list,
		SYS_get_robust_list,
		SYS_sched_yield,
		SYS_sched_getaffinity,
		SYS_getcpu,
		SYS_nanosleep,
		SYS_clock_nanosleep,
		SYS_clock_gettime,
		SYS_clock_getres,
		SYS_gettimeofday,
		SYS_time,
		SYS_getpid,
		SYS_getppid,
		SYS_gettid,
		SYS_getuid,
		SYS_geteuid,
		SYS_getgid,
		SYS_getegid,
		SYS_rt_sigprocmask,
		SYS_rt_sigreturn,
		SYS_sigaltstack,
		SYS_exit,
		SYS_exit_group,
		SYS_restart_syscall,
		SYS_getrusage,
		SYS_getrlimit,
		SYS_uname,
		SYS_sysinfo,
		SYS_membarrier,
		SYS_rseq,
		SYS_getrandom,
		SYS_fcntl,
		SYS_dup,
		SYS_mlock,
		SYS_munlock,
		SYS_sched_getparam,
		SYS_sched_getscheduler,
		SYS_times,
		SYS_set_tid_address,
		SYS_readlink,
		SYS_getcwd,
		SYS_statx,
		SYS_access,
		SYS_faccessat,
#ifdef SYS_faccessat2
		SYS_faccessat2,
#endif
#ifdef SYS_futex_waitv
		SYS_futex_waitv,
#endif
	};
	int n = 0;
	const __u32 trap = SECCOMP_RET_TRAP;
#define SB_PUT(ins) \
	do { \
		if (n >= cap) \
			return -1; \
		struct sock_filter t_ = ins; \
		prog[n++] = t_; \
	} while (0)
/* if nr == NR: A = arg I (low half); if A & MASK (or == VAL): RET Y else RET N */
#define SB_ARG_SET(nr, i, mask, yes, no) \
	do { \
		SB_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4)); \
		SB_PUT(SB_LD(SB_ARG_LO(i))); \
		SB_PUT(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (mask), 0, 1)); \
		SB_PUT(SB_RET(yes)); \
		SB_PUT(SB_RET(no)); \
	} while (0)
#define SB_ARG_EQ(nr, i, val, yes, no) \
	do { \
		SB_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4)); \
		SB_PUT(SB_LD(SB_ARG_LO(i))); \
		SB_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (val), 0, 1)); \
		SB_PUT(SB_RET(yes)); \
		SB_PUT(SB_RET(no)); \
	} while (0)
	SB_PUT(SB_LD(offsetof(struct seccomp_data, arch)));
	SB_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
	SB_PUT(SB_RET(SECCOMP_RET_KILL_PROCESS));
	SB_PUT(SB_LD(offsetof(struct seccomp_data, nr)));
	SB_PUT(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1)); /* x32 numbers */
	SB_PUT(SB_RET(trap));
	for (size_t i = 0; i < sizeof allow / sizeof allow[0]; i++) {
		SB_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)allow[i], 0, 1));
		SB_PUT(SB_RET(SECCOMP_RET_ALLOW));
	}
	/* glibc's pthread_create tries clone3 first (its flags sit in memory a
	 * filter cannot read): ENOSYS sends it to clone, checked here. */
	SB_PUT(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1));
	SB_PUT(SB_RET(SECCOMP_RET_ERRNO | ENOSYS));
	SB_ARG_SET(SYS_clone, 0, CLONE_THREAD, SECCOMP_RET_ALLOW, trap); /* threads, not processes */
	SB_ARG_SET(SYS_mmap, 2, PROT_EXEC, trap, SECCOMP_RET_ALLOW);     /* no new code */
	SB_ARG_SET(SYS_mprotect, 2, PROT_EXEC, trap, SECCOMP_RET_ALLOW);
	SB_ARG_EQ(SYS_rt_sigaction, 0, SIGSYS, trap, SECCOMP_RET_ALLOW); /* the reporter stays */
	SB_ARG_EQ(SYS_kill, 0, (__u32)pid, SECCOMP_RET_ALLOW, trap);     /* this process only */
	SB_ARG_EQ(SYS_tgkill, 0, (__u32)pid, SECCOMP_RET_ALLOW, trap);
	SB_ARG_EQ(SYS_prctl, 0, PR_SET_NAME, SECCOMP_RET_ALLOW, trap); /* thread names */
	SB_ARG_EQ(SYS_prlimit64, 0, 0, SECCOMP_RET_ALLOW, trap);       /* its own limits */
	SB_PUT(SB_RET(trap));
#undef SB_PUT
#undef SB_ARG_SET
#undef SB_ARG_EQ
	return n;
}

/* Enters the sandbox for the rest of the process; trapped calls are
 * reported on report_fd.  0, or -1 with errno when the kernel refused. */
static int sandbox_enter(int report_fd)
{
	struct sock_filter prog[256];
	struct sigaction sa;
	int n = sandbox_program(prog, 256, getpid());
	if (n < 0) {
		errno = E2BIG;
		return -1;
	}
	struct sock_fprog fp = {(unsigned short)n, prog};
	sandbox_report_fd = report_fd;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = sandbox_on_sigsys;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL))
		return -1;
	sigset_t sys;
	sigemptyset(&sys);
	sigaddset(&sys, SIGSYS);
	if (sigprocmask(SIG_UNBLOCK, &sys, NULL))
		return -1;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp);
}

#endif
