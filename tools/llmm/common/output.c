/* output.c: output files written safely, and the end of standard output (output.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/output.h"

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static void release(llmm_cli_out *o)
{
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    o->f = NULL;
}

static int fail_errno(llmm_cli_error *err, const char *name, int e)
{
    return llmm_cli_fail(err, e == ENOMEM ? LLMM_CLI_ENOMEM : LLMM_CLI_EIO, "%s: %s", name,
                         strerror(e));
}

/* A new temporary file beside target (".NAME.XXXXXX" in its directory), with the permission
 * bits of the file it replaces (st) or those of a new file. */
static int open_temp(llmm_cli_out *o, const char *target, const struct stat *st,
                     llmm_cli_error *err)
{
    const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
    size_t dlen = slash ? (size_t)(slash - target) + 1 : 0, cap = dlen + strlen(base) + 9;
    mode_t mode;
    int fd;
    o->path = dup_n(target, strlen(target));
    o->tmp = malloc(cap);
    if (!o->path || !o->tmp) {
        release(o);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    snprintf(o->tmp, cap, "%.*s.%s.XXXXXX", (int)dlen, target, base);
    fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot create a file in %.*s: %s", o->name,
                      dlen > 1 ? (int)dlen - 1 : 1, dlen ? target : ".", strerror(e));
        release(o);
        return LLMM_CLI_EIO;
    }
    if (st) {
        mode = st->st_mode & 0777;
    } else {
        mode = umask(0);
        umask(mode);
        mode = 0666 & ~mode;
    }
    if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        release(o);
        return fail_errno(err, o->name, e);
    }
    return LLMM_CLI_OK;
}

/* A device or a FIFO: written where it is. */
static int open_in_place(llmm_cli_out *o, const char *target, llmm_cli_error *err)
{
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return fail_errno(err, o->name, errno);
    o->path = dup_n(target, strlen(target));
    if (!o->path || !(o->f = fdopen(fd, "wb"))) {
        int e = o->path ? errno : ENOMEM;
        close(fd);
        release(o);
        return fail_errno(err, o->name, e);
    }
    return LLMM_CLI_OK;
}

/* What exists at target (st: stat, links followed) decides how it is written. */
static int open_existing(llmm_cli_out *o, const char *target, const struct stat *st,
                         llmm_cli_error *err)
{
    if (S_ISREG(st->st_mode))
        return open_temp(o, target, st, err);
    if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) || S_ISFIFO(st->st_mode))
        return open_in_place(o, target, err);
    if (S_ISDIR(st->st_mode))
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: is a directory: name a file to write",
                             o->name);
    return llmm_cli_fail(err, LLMM_CLI_EIO,
                         "%s: not a regular file, device or FIFO: not written", o->name);
}

int llmm_cli_out_open(llmm_cli_out *o, const char *path, llmm_cli_error *err)
{
    struct stat st;
    char *real;
    int rc;
    memset(o, 0, sizeof *o);
    o->name = path;
    if (lstat(path, &st) != 0) {
        if (errno != ENOENT)
            return fail_errno(err, path, errno);
        return open_temp(o, path, NULL, err);
    }
    if (!S_ISLNK(st.st_mode))
        return open_existing(o, path, &st, err);
    /* a symbolic link: what it points to, never a file created through a dangling one */
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return llmm_cli_fail(err, LLMM_CLI_EIO,
                                 "%s: a symbolic link to a missing file: not followed", path);
        return fail_errno(err, path, errno);
    }
    real = realpath(path, NULL);
    if (!real)
        return fail_errno(err, path, errno);
    rc = open_existing(o, real, &st, err);
    free(real);
    return rc;
}

/* The rename is durable once the directory is synced too (best effort). */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? dup_n(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
    int fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int llmm_cli_out_close(llmm_cli_out *o, llmm_cli_error *err)
{
    int e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (!e && o->tmp && fsync(fileno(o->f)) != 0)
        e = errno;
    if (fclose(o->f) != 0 && !e)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (!e && o->tmp && rename(o->tmp, o->path) != 0)
        e = errno;
    if (!e && o->tmp)
        sync_dir(o->path);
    if (e && o->tmp)
        unlink(o->tmp);
    release(o);
    if (e)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: cannot write: %s", o->name, strerror(e));
    return LLMM_CLI_OK;
}

void llmm_cli_out_discard(llmm_cli_out *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}

int llmm_cli_out_write_file(const char *path, const void *buf, size_t len,
                            llmm_cli_error *err)
{
    llmm_cli_out o;
    int rc = llmm_cli_out_open(&o, path, err);
    if (rc != LLMM_CLI_OK)
        return rc;
    if (len)
        (void)fwrite(buf, 1, len, o.f); /* an error shows in llmm_cli_out_close */
    return llmm_cli_out_close(&o, err);
}

int llmm_cli_scratch_open(llmm_cli_error *err)
{
    const char *dir = getenv("TMPDIR");
    size_t cap;
    char *path;
    int fd;
    if (!dir || !*dir)
        dir = "/tmp";
    cap = strlen(dir) + 16;
    path = malloc(cap);
    if (!path) {
        llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        return -1;
    }
    snprintf(path, cap, "%s/llmm-XXXXXX", dir);
    fd = mkstemp(path);
    if (fd < 0)
        llmm_cli_fail(err, LLMM_CLI_EIO, "cannot create a scratch file in %s: %s", dir,
                      strerror(errno));
    else
        unlink(path);
    free(path);
    return fd;
}

/* The failure of standard output is said once (by llmm_cli_stdout_flush or at the end). The
 * tool's one piece of process state: standard output itself is one per process. */
static int stdout_said;

static void say_stdout(int e)
{
    if (stdout_said++)
        return;
    fprintf(stderr, "llmm: cannot write standard output: %s\n", e ? strerror(e) : "write error");
}

int llmm_cli_stdout_flush(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return LLMM_CLI_OK;
    say_stdout(errno);
    return LLMM_CLI_EIO;
}

int llmm_cli_stdout_close(int status)
{
    int e = 0, bad;
    errno = 0;
    bad = fflush(stdout) != 0;
    if (bad)
        e = errno;
    bad |= ferror(stdout) != 0;
    /* after a good flush nothing is pending: a stdout closed by the shell (EBADF) that was
     * never written to is no error */
    errno = 0;
    if (fclose(stdout) != 0 && !bad && errno != EBADF) {
        bad = 1;
        e = errno;
    }
    if (!bad)
        return status;
    say_stdout(e);
    return status == 0 ? 1 : status;
}
