/* The sampler's platform layer: open and pread on Linux; elsewhere every open fails, so every
 * signal is unavailable and the rest of the module compiles unchanged. */
#if defined(__linux__)
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "host_internal.h"

#if defined(__linux__)

int llmm__host_open(const char *path)
{
    struct stat st;
    int fd;

    /* O_NONBLOCK: opening a FIFO planted in a captured tree must not wait for a writer */
    do
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    while (fd < 0 && errno == EINTR);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* procfs and sysfs hand out a file in pieces; a read that continues at the offset where the
 * previous one stopped picks up the same snapshot. */
long llmm__host_read(int fd, char *buf, size_t cap)
{
    size_t len = 0;

    while (len < cap) {
        ssize_t n = pread(fd, buf + len, cap - len, (off_t)len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        len += (size_t)n;
    }
    return (long)len;
}

void llmm__host_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

#else

int llmm__host_open(const char *path)
{
    (void)path;
    return -1;
}

long llmm__host_read(int fd, char *buf, size_t cap)
{
    (void)fd;
    (void)buf;
    (void)cap;
    return -1;
}

void llmm__host_close(int fd)
{
    (void)fd;
}

#endif
