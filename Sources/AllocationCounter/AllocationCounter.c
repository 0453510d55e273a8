#include "AllocationCounter.h"
// A sanitizer (`swift test --sanitize=thread`) intercepts malloc itself: interposing it as well
// crashes the test binary at start-up, so under one the counter is unavailable.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define ALLOCATION_COUNTER_SANITIZED 1
#endif
#endif
#if defined(__linux__) && defined(__GLIBC__) && !defined(ALLOCATION_COUNTER_SANITIZED)
#include <stddef.h>
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
static _Thread_local int counting = 0;
static _Thread_local uint64_t count = 0;
void *malloc(size_t n) { if (counting) count++; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { if (counting) count++; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { if (counting) count++; return __libc_realloc(p, n); }
void *aligned_alloc(size_t a, size_t n) { if (counting) count++; return __libc_memalign(a, n); }
void *memalign(size_t a, size_t n) { if (counting) count++; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) { if (counting) count++; void *p = __libc_memalign(a, n); if (!p) return 12; *out = p; return 0; }
void allocation_counter_start(void) { count = 0; counting = 1; }
uint64_t allocation_counter_stop(void) { counting = 0; return count; }
int allocation_counter_is_available(void) { return 1; }
#else
void allocation_counter_start(void) {}
uint64_t allocation_counter_stop(void) { return 0; }
int allocation_counter_is_available(void) { return 0; }
#endif
