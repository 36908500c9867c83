/* count_alloc.c: a counting allocator for suite 'cli', loaded into `llmm` with LD_PRELOAD.
 * It passes every malloc, calloc, realloc, aligned allocation and free to glibc's own
 * (__libc_*) and keeps the bytes the program holds (malloc_usable_size of the blocks it has
 * not freed); at exit it writes "peak BYTES\ncalls N\n" to the file named by
 * $COUNT_ALLOC_OUT. Deterministic for a deterministic program: what the memory tests assert,
 * never a wall-clock figure. The tool is single-threaded, so are the counters. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void *__libc_memalign(size_t align, size_t n);
void __libc_free(void *p);

static size_t live, peak, calls;

static void *held(void *p)
{
    if (p) {
        live += malloc_usable_size(p);
        if (live > peak)
            peak = live;
        calls++;
    }
    return p;
}

static void let_go(void *p)
{
    if (p)
        live -= malloc_usable_size(p);
}

void *malloc(size_t n)
{
    return held(__libc_malloc(n));
}

void *calloc(size_t n, size_t size)
{
    return held(__libc_calloc(n, size));
}

void *realloc(void *p, size_t n)
{
    size_t was = p ? malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, n);
    if (q || n == 0)
        live -= was;
    return held(q);
}

void free(void *p)
{
    let_go(p);
    __libc_free(p);
}

void *memalign(size_t align, size_t n)
{
    return held(__libc_memalign(align, n));
}

void *aligned_alloc(size_t align, size_t n)
{
    return held(__libc_memalign(align, n));
}

int posix_memalign(void **out, size_t align, size_t n)
{
    void *p = held(__libc_memalign(align, n));
    if (!p)
        return 12; /* ENOMEM */
    *out = p;
    return 0;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("COUNT_ALLOC_OUT");
    char line[96];
    int fd, n;
    if (!path)
        return;
    n = snprintf(line, sizeof line, "peak %zu\ncalls %zu\n", peak, calls);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) != n)
            _exit(99);
        close(fd);
    }
}
