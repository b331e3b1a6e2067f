// Faults of kernel code. On the device, an AI core that reads or writes
// outside the memory mapped for it, or meets an instruction it cannot
// run, raises an exception of that one task; the process goes on. Here a
// kernel is host code, so such a fault is a synchronous signal on the
// thread running the block. The handler below tells the two apart by
// the thread's block state: while the thread runs kernel code (running),
// the fault is the kernel's, and the handler records it and makes the
// thread resume at gocann_fault_resume, which leaves the block through
// its trap point. Every other fault goes to the handler that was there
// before (Go's, Python's faulthandler, the program's own, or the default
// action), as if this one were not installed.
//
// Resuming by rewriting the interrupted context, rather than jumping out
// of the handler, returns through every handler frame and lets the
// kernel restore the signal mask and the signal stack as for any
// handler's return.

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include "block.h"

#if defined(__x86_64__) || defined(__aarch64__)
#define CONTAINED 1
#else
#define CONTAINED 0
#endif

static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

// previous holds the action each signal had before ours; written before
// ours is installed, read-only afterwards.
static struct sigaction previous[NSIG];

static void on_fault(int sig, siginfo_t *si, void *ctx);

// pass_on hands a fault that is not a kernel's to the previous action.
static void pass_on(int sig, siginfo_t *si, void *ctx) {
	const struct sigaction *p = &previous[sig];
	if (p->sa_flags & SA_SIGINFO) {
		if (p->sa_sigaction != NULL && p->sa_sigaction != on_fault) {
			p->sa_sigaction(sig, si, ctx);
			return;
		}
	} else if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
		p->sa_handler(sig);
		return;
	}
	// The default action, as without this handler: a fault the
	// instruction raises again once the handler returns; a signal that
	// was sent, and is ignored or blocked by the handler's mask, raised
	// again to arrive when the handler returns. An ignored synchronous
	// fault also ends the process (the kernel resets it to the default).
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	if (si->si_code <= 0) {
		if (p->sa_handler == SIG_IGN && !(p->sa_flags & SA_SIGINFO)) {
			return;
		}
		sigaction(sig, &dfl, NULL);
		raise(sig);
		return;
	}
	sigaction(sig, &dfl, NULL);
}

#if defined(__x86_64__)
#define TRAP_PAGE_FAULT 14
#define PF_WRITE 2u
#define PF_INSTR 16u

// record fills f from the signal and the interrupted context.
static void record(gocann_failure *f, int sig, const siginfo_t *si, const ucontext_t *uc) {
	const greg_t *g = uc->uc_mcontext.gregs;
	f->pc = (uint64_t)g[REG_RIP];
	if (sig != SIGSEGV && sig != SIGBUS) {
		return;
	}
	// A general protection fault (a non-canonical address, among others)
	// carries no address.
	if (si->si_code != SI_KERNEL) {
		f->addr = (uint64_t)(uintptr_t)si->si_addr;
		f->addr_known = 1;
	}
	if (g[REG_TRAPNO] == TRAP_PAGE_FAULT) {
		uint64_t err = (uint64_t)g[REG_ERR];
		f->access = err & PF_INSTR ? GOCANN_ACCESS_EXEC : err & PF_WRITE ? GOCANN_ACCESS_WRITE : GOCANN_ACCESS_READ;
	}
}

// resume_at makes the interrupted thread go on at fn, on a stack below
// sp: as if fn had been called there (the x86-64 ABI's alignment), the
// direction flag clear as a call expects.
static void resume_at(ucontext_t *uc, void (*fn)(void), uintptr_t sp) {
	greg_t *g = uc->uc_mcontext.gregs;
	g[REG_RSP] = (greg_t)((sp - 256) & ~(uintptr_t)15) - 8;
	g[REG_RIP] = (greg_t)(uintptr_t)fn;
	g[REG_EFL] &= ~(greg_t)0x400;
}

#elif defined(__aarch64__)
// The exception syndrome the kernel appends to the context (struct
// esr_context of the kernel's asm/sigcontext.h).
#define ESR_CONTEXT_MAGIC 0x45535201u
struct esr_record {
	uint32_t magic, size;
	uint64_t esr;
};

static uint64_t syndrome(const ucontext_t *uc) {
	const unsigned char *p = (const unsigned char *)uc->uc_mcontext.__reserved;
	const unsigned char *end = p + sizeof uc->uc_mcontext.__reserved;
	while (p + 8 <= end) {
		uint32_t magic, size;
		memcpy(&magic, p, 4);
		memcpy(&size, p + 4, 4);
		if (magic == 0 || size < 8) {
			break;
		}
		if (magic == ESR_CONTEXT_MAGIC && p + sizeof(struct esr_record) <= end) {
			struct esr_record r;
			memcpy(&r, p, sizeof r);
			return r.esr;
		}
		p += size;
	}
	return 0;
}

static void record(gocann_failure *f, int sig, const siginfo_t *si, const ucontext_t *uc) {
	f->pc = uc->uc_mcontext.pc;
	if (sig != SIGSEGV && sig != SIGBUS) {
		return;
	}
	f->addr = (uint64_t)(uintptr_t)si->si_addr;
	f->addr_known = 1;
	uint64_t esr = syndrome(uc), ec = esr >> 26;
	if (ec == 0x24 || ec == 0x25) { // data abort: WnR says which
		f->access = esr >> 6 & 1 ? GOCANN_ACCESS_WRITE : GOCANN_ACCESS_READ;
	} else if (ec == 0x20 || ec == 0x21) { // instruction abort
		f->access = GOCANN_ACCESS_EXEC;
	}
}

static void resume_at(ucontext_t *uc, void (*fn)(void), uintptr_t sp) {
	uc->uc_mcontext.sp = (sp - 256) & ~(uintptr_t)15;
	uc->uc_mcontext.pc = (uintptr_t)fn;
}
#endif

void gocann_fault_resume(void) { longjmp(*gocann_block.trap, 2); }

static void on_fault(int sig, siginfo_t *si, void *ctx) {
#if CONTAINED
	// A signal sent by a process (si_code <= 0) is never the kernel's
	// fault, whatever the thread was running.
	if (gocann_block.running && gocann_block.trap != NULL && si->si_code > 0) {
		gocann_block.running = 0;
		gocann_failure *f = &gocann_fault;
		memset(f, 0, sizeof *f);
		f->signo = sig;
		f->code = si->si_code;
		record(f, sig, si, ctx);
		resume_at(ctx, gocann_fault_resume, gocann_block.resume_sp);
		return;
	}
#endif
	pass_on(sig, si, ctx);
}

static int installed = -1;

static void install(void) {
	if (!CONTAINED) {
		return;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	// On the signal stack Go gives its threads, and with every signal
	// blocked while it runs, as Go's own handler is installed.
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++) {
		int sig = fault_signals[i];
		struct sigaction before;
		if (sigaction(sig, NULL, &previous[sig]) != 0 || sigaction(sig, &sa, &before) != 0) {
			continue;
		}
		// Changed in between by another thread: that one is the previous.
		if (before.sa_sigaction != on_fault) {
			previous[sig] = before;
		}
	}
	installed = 0;
}

int gocann_fault_install(void) {
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, install);
	return installed;
}
