// The call into a kernel, and the C++ exceptions that leave it: a kernel
// written in C++ that throws fails its block, as a kernel that faults
// does, instead of unwinding into the runtime (which would end the
// process in std::terminate).

#include <cxxabi.h>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <typeinfo>
#include "block.h"

typedef uint64_t u;
typedef void (*kernel32)(u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u,
			 u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);

// Every kernel is called with 32 slots: the calling conventions of the
// supported hosts pass integer and pointer parameters alike and let the
// caller clean up, so a kernel declaring fewer parameters ignores the rest.
// Slots past n are zero. They are read one by one, not copied into a
// cleared array first: a block's call is on the launch path of every task.
static inline void invoke(void *fn, const uint64_t *args, int n) {
#define A(i) ((i) < n ? args[i] : 0)
	((kernel32)fn)(A(0), A(1), A(2), A(3), A(4), A(5), A(6), A(7), A(8), A(9), A(10), A(11),
		       A(12), A(13), A(14), A(15), A(16), A(17), A(18), A(19), A(20), A(21), A(22),
		       A(23), A(24), A(25), A(26), A(27), A(28), A(29), A(30), A(31));
#undef A
}

// Kernels with float or double parameters take those in the vector
// registers and the rest in the integer registers, each kind in order,
// and what does not fit goes on the stack in parameter order, one 8-byte
// slot each: the System V x86-64 and AAPCS64 conventions agree on that
// much. One prototype with the integer registers, then eight doubles, then
// stack slots, reaches every such layout. A float travels in the low half
// of its register or slot, as its 8-byte argument slot holds it.
#if defined(__x86_64__)
#define INT_REGS 6
typedef void (*kernel_fp)(u, u, u, u, u, u, double, double, double, double, double, double, double, double,
			  u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);
#elif defined(__aarch64__)
#define INT_REGS 8
typedef void (*kernel_fp)(u, u, u, u, u, u, u, u, double, double, double, double, double, double, double, double,
			  u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u, u);
#endif

#ifdef INT_REGS
static inline double bits(uint64_t v) {
	double d;
	memcpy(&d, &v, sizeof d);
	return d;
}

static void invoke_fp(void *fn, const uint64_t *args, int n, uint32_t fpmask) {
	u ir[INT_REGS] = {0}, st[GOCANN_MAX_ARGS] = {0};
	double fr[8] = {0};
	int ni = 0, nf = 0, ns = 0;
	for (int i = 0; i < n; i++) {
		if (fpmask >> i & 1) {
			if (nf < 8) {
				fr[nf++] = bits(args[i]);
				continue;
			}
		} else if (ni < INT_REGS) {
			ir[ni++] = args[i];
			continue;
		}
		st[ns++] = args[i];
	}
#define S(i) st[i]
#if INT_REGS == 6
	((kernel_fp)fn)(ir[0], ir[1], ir[2], ir[3], ir[4], ir[5],
#else
	((kernel_fp)fn)(ir[0], ir[1], ir[2], ir[3], ir[4], ir[5], ir[6], ir[7],
#endif
			fr[0], fr[1], fr[2], fr[3], fr[4], fr[5], fr[6], fr[7],
			S(0), S(1), S(2), S(3), S(4), S(5), S(6), S(7), S(8), S(9), S(10), S(11), S(12), S(13), S(14),
			S(15), S(16), S(17), S(18), S(19), S(20), S(21), S(22), S(23), S(24), S(25), S(26), S(27), S(28),
			S(29), S(30), S(31));
#undef S
}
#else
static void invoke_fp(void *, const uint64_t *, int, uint32_t) { abort(); } // refused when the kernel is looked up
#endif

// escaped records the exception being handled, its type demangled, with
// what() for a std::exception.
static void escaped(const char *what) {
	gocann_failure *f = &gocann_fault;
	memset(f, 0, sizeof *f);
	const std::type_info *t = abi::__cxa_current_exception_type();
	const char *name = t ? t->name() : "an unknown type";
	int status = -1;
	char *readable = t ? abi::__cxa_demangle(name, nullptr, nullptr, &status) : nullptr;
	if (status == 0 && readable != nullptr) {
		name = readable;
	}
	size_t n = strlen(name);
	if (n >= sizeof f->text) {
		n = sizeof f->text - 1;
	}
	memcpy(f->text, name, n);
	if (what != nullptr && n + 2 < sizeof f->text) {
		size_t w = strlen(what);
		size_t room = sizeof f->text - 1 - (n + 2);
		memcpy(f->text + n, ": ", 2);
		memcpy(f->text + n + 2, what, w < room ? w : room);
		n += 2 + (w < room ? w : room);
	}
	f->text[n] = 0;
	free(readable);
}

// guarded runs call, the kernel's code, marked as running and under the
// guard: it returns 0, or GOCANN_CALL_FAULTED with gocann_fault
// describing the C++ exception that left it.
template <typename Call>
static inline int guarded(Call call) {
	// A contained fault resumes here, in a frame the kernel's stack lies
	// below: the kernel may have overflowed or wrecked its own.
	gocann_block.resume_sp = (uintptr_t)__builtin_frame_address(0);
	try {
		gocann_block.running = 1;
		call();
		gocann_block.running = 0;
		return 0;
	} catch (abi::__forced_unwind &) {
		gocann_block.running = 0;
		throw; // a thread exit or cancellation must go on unwinding
	} catch (const std::exception &e) {
		gocann_block.running = 0;
		escaped(e.what());
	} catch (...) {
		gocann_block.running = 0;
		escaped(nullptr);
	}
	return GOCANN_CALL_FAULTED;
}

extern "C" int gocann_invoke(void *fn, const uint64_t *args, int n, uint32_t fpmask) {
	return guarded([=] {
		if (fpmask == 0) {
			invoke(fn, args, n);
		} else {
			invoke_fp(fn, args, n, fpmask);
		}
	});
}

extern "C" int gocann_invoke_batch(const gocann_native_call *calls, int n, volatile int *at) {
	return guarded([=] {
		for (int i = 0; i < n; i++) {
			*at = i;
			invoke((void *)calls[i].fn, (const uint64_t *)calls[i].args, (int)calls[i].nargs);
		}
	});
}
