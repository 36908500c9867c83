/* input.c: read one input file in chunks into the parser of its format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define CHUNK ((size_t)1 << 20)
/* Inputs at least this large show a progress line when stderr is a terminal. */
#define PROGRESS_MIN_BYTES ((uint64_t)32 << 20)

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

/* One pass over the stream: vLLM (replay flags when a second pass) or a table format. */
static int one_pass(FILE *f, char *buf, size_t first_len, const char *name,
                    llmm_cli_format fmt, const llmm_cli_sink *sink, const uint8_t *replay,
                    size_t replay_n, llmm_cli_vllm **vout, llmm_cli_input_info *info,
                    progress *pg, llmm_cli_error *err)
{
    llmm_cli_vllm *v = NULL;
    llmm_cli_table *t = NULL;
    size_t len = first_len;
    int rc;
    if (fmt == LLMM_CLI_FORMAT_VLLM)
        rc = llmm_cli_vllm_new(name, sink, replay, replay_n, &v, err);
    else
        rc = llmm_cli_table_new(fmt, name, sink, &t, err);
    while (rc == LLMM_CLI_OK) {
        if (len > 0) {
            rc = v ? llmm_cli_vllm_feed(v, buf, len, err) : llmm_cli_table_feed(t, buf, len, err);
            progress_show(pg, len);
            if (rc != LLMM_CLI_OK)
                break;
        }
        len = fread(buf, 1, CHUNK, f);
        if (len == 0) {
            if (ferror(f))
                rc = llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", name, strerror(errno));
            break;
        }
    }
    if (rc == LLMM_CLI_OK)
        rc = v ? llmm_cli_vllm_finish(v, err) : llmm_cli_table_finish(t, err);
    if (rc == LLMM_CLI_OK && info) {
        if (v)
            llmm_cli_vllm_info(v, info);
        else
            llmm_cli_table_info(t, info);
    }
    llmm_cli_table_free(t);
    if (vout && rc == LLMM_CLI_OK)
        *vout = v;
    else
        llmm_cli_vllm_free(v);
    return rc;
}

int llmm_cli_read_file(const char *path, llmm_cli_format fmt, const llmm_cli_sink *sink,
                       llmm_cli_input_info *info, llmm_cli_format *used, llmm_cli_error *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t len;
    int rc;
    struct stat sb;
    progress pg;
    llmm_cli_vllm *v = NULL;
    memset(&pg, 0, sizeof pg);
    if (!f)
        return llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", path, strerror(errno));
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        rc = llmm_cli_fail(err, LLMM_CLI_EIO, "%s: is a directory", path);
        goto out;
    }
    pg.name = name;
    pg.pass = 1;
    if (!is_stdin && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size >= PROGRESS_MIN_BYTES &&
        isatty(STDERR_FILENO)) {
        pg.on = 1;
        pg.total = (uint64_t)sb.st_size;
    }
    buf = malloc(CHUNK);
    if (!buf) {
        rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "%s: out of memory", name);
        goto out;
    }
    len = fread(buf, 1, CHUNK, f);
    if (len == 0 && ferror(f)) {
        rc = llmm_cli_fail(err, LLMM_CLI_EIO, "%s: %s", name, strerror(errno));
        goto out;
    }
    if (fmt == LLMM_CLI_FORMAT_AUTO)
        fmt = llmm_cli_format_guess(is_stdin ? NULL : path, buf, len);
    if (used)
        *used = fmt;
    rc = one_pass(f, buf, len, name, fmt, sink, NULL, 0, &v, info, &pg, err);
    if (rc == LLMM_CLI_OK && v && llmm_cli_vllm_needs_replay(v)) {
        size_t n;
        const uint8_t *flags = llmm_cli_vllm_failed_flags(v, &n);
        if (is_stdin || fseek(f, 0, SEEK_SET) != 0) {
            if (sink && sink->note)
                sink->note(sink->user, "stdin cannot be read twice: the ITL percentiles include "
                                       "the streamed gaps of requests that failed half-way");
        } else {
            if (sink && sink->itl_reset && (rc = sink->itl_reset(sink->user)) != LLMM_CLI_OK) {
                rc = llmm_cli_fail(err, rc, "%s: out of memory", name);
            } else {
                pg.pass = 2;
                pg.done = 0;
                rc = one_pass(f, buf, 0, name, fmt, sink, flags, n, NULL, NULL, &pg, err);
                if (info)
                    info->replayed = 1;
            }
        }
    }
    progress_end(&pg);
out:
    llmm_cli_vllm_free(v);
    free(buf);
    if (!is_stdin)
        fclose(f);
    return rc;
}
