/* read.c: an input through its reader, in chunks, with the reader's second pass when it asks
 * for one: from a buffer (tests, fuzzers) or from a file with a progress line (input.h). */
#define _DEFAULT_SOURCE /* madvise(MADV_DONTNEED), which posix_madvise does not do on glibc */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llmmetrics/llmmetrics.h>

#include "input/input.h"

#define CHUNK ((size_t)1 << 20)
/* Inputs at least this large show a progress line when stderr is a terminal. */
#define PROGRESS_MIN_BYTES ((uint64_t)32 << 20)

/* ---- the passes ---------------------------------------------------------------------------- */

/* One pass over the source; *keep gets the reader object when asked and the pass succeeded. */
static int one_pass(const llmm_cli_reader *rd, const char *name, const llmm_cli_source *src,
                    const llmm_cli_sink *sink, const uint8_t *replay, size_t replay_n,
                    void **keep, llmm_cli_input_info *info, llmm_cli_error *err)
{
    void *p = NULL;
    int rc = rd->create(rd, name, sink, replay, replay_n, &p, err);
    while (rc == LLMM_CLI_OK) {
        const char *chunk;
        size_t len;
        rc = src->next(src->user, &chunk, &len, err);
        if (rc != LLMM_CLI_OK || len == 0)
            break;
        rc = rd->feed(p, chunk, len, err);
    }
    if (rc == LLMM_CLI_OK)
        rc = rd->finish(p, info, err);
    if (keep && rc == LLMM_CLI_OK)
        *keep = p;
    else
        rd->destroy(p);
    return rc;
}

int llmm_cli_read_source(llmm_cli_format fmt, const char *name, const llmm_cli_source *src,
                         const llmm_cli_sink *sink, llmm_cli_input_info *info,
                         llmm_cli_error *err)
{
    const llmm_cli_reader *rd = llmm_cli_reader_for(fmt);
    const uint8_t *flags = NULL;
    size_t n = 0;
    void *p = NULL;
    int rc;
    if (!rd)
        return llmm_cli_fail(err, LLMM_CLI_EUSAGE, "%s: no reader for format %d", name,
                             (int)fmt);
    rc = one_pass(rd, name, src, sink, NULL, 0, &p, info, err);
    if (rc == LLMM_CLI_OK && rd->replay)
        flags = rd->replay(p, &n);
    if (flags && src->rewind(src->user) != LLMM_CLI_OK) {
        if (sink && sink->note)
            sink->note(sink->user, "stdin cannot be read twice: the ITL percentiles include "
                                   "the streamed gaps of requests that failed half-way");
    } else if (flags) {
        if (sink && sink->itl_reset && (rc = sink->itl_reset(sink->user)) != LLMM_CLI_OK) {
            rc = llmm_cli_fail(err, rc, "%s: out of memory", name);
        } else {
            rc = one_pass(rd, name, src, sink, flags, n, NULL, NULL, err);
            if (info)
                info->replayed = 1;
        }
    }
    rd->destroy(p);
    return rc;
}

/* ---- a buffer ------------------------------------------------------------------------------- */

typedef struct buffer_source {
    const char *buf;
    size_t len;
    int done;
} buffer_source;

static int buffer_next(void *user, const char **chunk, size_t *len, llmm_cli_error *err)
{
    buffer_source *b = user;
    (void)err;
    *chunk = b->buf;
    *len = b->done ? 0 : b->len;
    b->done = 1;
    return LLMM_CLI_OK;
}

static int buffer_rewind(void *user)
{
    ((buffer_source *)user)->done = 0;
    return LLMM_CLI_OK;
}

int llmm_cli_parse_buffer(llmm_cli_format fmt, const char *buf, size_t len, const char *name,
                          const llmm_cli_sink *sink, llmm_cli_input_info *info,
                          llmm_cli_error *err)
{
    buffer_source b = {buf, len, 0};
    llmm_cli_source src = {&b, buffer_next, buffer_rewind};
    return llmm_cli_read_source(fmt, name, &src, sink, info, err);
}

/* ---- a file ---------------------------------------------------------------------------------- */

typedef struct progress {
    int on;
    const char *name;
    uint64_t total, done, last_ns;
    int pass;
} progress;

static void progress_show(progress *pg, size_t more)
{
    uint64_t now;
    pg->done += more;
    if (!pg->on)
        return;
    now = llmm_now_ns();
    if (now - pg->last_ns < 250000000u && pg->done < pg->total)
        return;
    pg->last_ns = now;
    fprintf(stderr, "\rllmm: reading %s%s %3.0f %% (%.0f of %.0f MiB)", pg->name,
            pg->pass > 1 ? " (second pass)" : "",
            pg->total ? 100.0 * (double)pg->done / (double)pg->total : 100.0,
            (double)pg->done / 1048576.0, (double)pg->total / 1048576.0);
    fflush(stderr);
}

static void progress_end(progress *pg)
{
    if (pg->on) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

typedef struct file_source {
    FILE *f;
    int is_stdin;
    const char *name;
    char *buf;
    size_t pending; /* bytes of buf read ahead (for the detection) and not yet delivered */
    /* a regular file is mapped rather than read (no copy); the pages of a chunk already fed
     * are dropped from the process, so that its memory stays one chunk whatever the size */
    const char *map;
    size_t map_len, map_at, map_prev;
    progress pg;
} file_source;

static void map_next(file_source *fs, const char **chunk, size_t *len)
{
    size_t n = fs->map_len - fs->map_at < CHUNK ? fs->map_len - fs->map_at : CHUNK;
    if (fs->map_at > fs->map_prev) /* the chunk fed last: no reader points into it now */
        madvise((char *)fs->map + fs->map_prev, fs->map_at - fs->map_prev, MADV_DONTNEED);
    fs->map_prev = fs->map_at;
    *chunk = fs->map + fs->map_at;
    *len = n;
    fs->map_at += n;
}

static int file_next(void *user, const char **chunk, size_t *len, llmm_cli_error *err)
{
    file_source *fs = user;
    if (fs->map) {
        map_next(fs, chunk, len);
        if (*len > 0)
            progress_show(&fs->pg, *len);
        return LLMM_CLI_OK;
    }
    *chunk = fs->buf;
    if (fs->pending) {
        *len = fs->pending;
        fs->pending = 0;
    } else {
        *len = fread(fs->buf, 1, CHUNK, fs->f);
        if (*len == 0 && ferror(fs->f))
            return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", fs->name, strerror(errno));
    }
    if (*len > 0)
        progress_show(&fs->pg, *len);
    return LLMM_CLI_OK;
}

static int file_rewind(void *user)
{
    file_source *fs = user;
    if (fs->map) {
        fs->map_at = fs->map_prev = 0;
    } else if (fs->is_stdin || fseek(fs->f, 0, SEEK_SET) != 0) {
        return LLMM_CLI_EIO;
    }
    fs->pending = 0;
    fs->pg.pass = 2;
    fs->pg.done = 0;
    return LLMM_CLI_OK;
}

/* Open path and read its first chunk (for the format's detection). */
static int file_open(file_source *fs, const char *path, llmm_cli_error *err)
{
    struct stat sb;
    fs->is_stdin = strcmp(path, "-") == 0;
    fs->name = fs->is_stdin ? "<stdin>" : path;
    fs->f = fs->is_stdin ? stdin : fopen(path, "rb");
    if (!fs->f)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", path, strerror(errno));
    if (fstat(fileno(fs->f), &sb) == 0 && S_ISDIR(sb.st_mode))
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: is a directory", path);
    fs->pg.name = fs->name;
    fs->pg.pass = 1;
    if (!fs->is_stdin && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size >= PROGRESS_MIN_BYTES &&
        isatty(STDERR_FILENO)) {
        fs->pg.on = 1;
        fs->pg.total = (uint64_t)sb.st_size;
    }
    if (!fs->is_stdin && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
        (uint64_t)sb.st_size <= (uint64_t)SIZE_MAX) {
        void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fileno(fs->f), 0);
        if (m != MAP_FAILED) {
            madvise(m, (size_t)sb.st_size, MADV_SEQUENTIAL);
            fs->map = m;
            fs->map_len = (size_t)sb.st_size;
            fs->buf = (char *)fs->map; /* the head, for the detection */
            fs->pending = fs->map_len < CHUNK ? fs->map_len : CHUNK;
            return LLMM_CLI_OK;
        }
    }
    fs->buf = malloc(CHUNK);
    if (!fs->buf)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", fs->name);
    fs->pending = fread(fs->buf, 1, CHUNK, fs->f);
    if (fs->pending == 0 && ferror(fs->f))
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", fs->name, strerror(errno));
    return LLMM_CLI_OK;
}

int llmm_cli_read_file(const char *path, llmm_cli_format fmt, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_format *used, llmm_cli_error *err)
{
    file_source fs;
    llmm_cli_source src = {&fs, file_next, file_rewind};
    int rc;
    memset(&fs, 0, sizeof fs);
    rc = file_open(&fs, path, err);
    if (rc == LLMM_CLI_OK && fmt == LLMM_CLI_FORMAT_AUTO)
        rc = llmm_cli_format_detect(fs.name, fs.buf, fs.pending,
                                    fs.map ? fs.map_len <= CHUNK : fs.pending < CHUNK, &fmt, err);
    if (rc == LLMM_CLI_OK) {
        if (used)
            *used = fmt;
        rc = llmm_cli_read_source(fmt, fs.name, &src, sink, info, err);
        progress_end(&fs.pg);
    }
    if (fs.map)
        munmap((void *)fs.map, fs.map_len);
    else
        free(fs.buf);
    if (fs.f && !fs.is_stdin)
        fclose(fs.f);
    return rc;
}
