/* What a sampler finds when it is made: the files under the root, each read once to size its
 * buffer and to check its layout, the CPUs' frequency files and the cgroup's cpu.stat; and how
 * each signal is read from them, at creation and at every sample. */
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "host_internal.h"

enum { P_TABLE, P_KEYED, P_FIELD, P_PSI, P_FREQ };

/* Where a signal comes from. Keyed signals with a second key use it when the first is
 * missing (not when it is garbage); the throttle's key and unit depend on the cgroup version
 * and are set by open_cgroup(). */
typedef struct sig_src {
    int file; /* LLMM__HF_*, or -1: the CPUs' frequency files */
    int parser;
    const char *a;      /* key, table prefix */
    const char *b;      /* table column, or the keyed signal's second key */
    double ns_per_unit; /* counters of time; 0 for counts */
} sig_src;

static const sig_src sources[LLMM__HOST_SIGNALS] = {
    {LLMM__HF_SNMP, P_TABLE, "Tcp:", "RetransSegs", 0},
    {LLMM__HF_VMSTAT, P_KEYED, "pgmajfault", NULL, 0},
    {LLMM__HF_STAT, P_KEYED, "ctxt", NULL, 0},
    {LLMM__HF_SCHEDSTAT, P_FIELD, NULL, NULL, 1}, /* field 1: ns waited on a run queue */
    {LLMM__HF_VMSTAT, P_KEYED, "numa_pages_migrated", "pgmigrate_success", 0},
    {LLMM__HF_PSI_CPU, P_PSI, NULL, NULL, 1e3}, /* totals in µs */
    {LLMM__HF_PSI_MEMORY, P_PSI, NULL, NULL, 1e3},
    {LLMM__HF_PSI_IO, P_PSI, NULL, NULL, 1e3},
    {-1, P_FREQ, NULL, NULL, 0},
    {LLMM__HF_CPU_STAT, P_KEYED, NULL, NULL, 0},
};

/* Index LLMM__HF_*; the cgroup's cpu.stat is found through /proc/self/cgroup. */
static const char *const paths[LLMM__HF_COUNT] = {
    "/proc/net/snmp",     "/proc/vmstat",          "/proc/stat",        "/proc/self/schedstat",
    "/proc/pressure/cpu", "/proc/pressure/memory", "/proc/pressure/io", NULL,
};

/* out = root + the parts (NULL-terminated); 0 when it does not fit. */
static int join(char out[LLMM__HOST_PATH_MAX], const char *root, const char *const *parts,
                const size_t *lens)
{
    size_t n = strlen(root), i;

    memcpy(out, root, n);
    for (i = 0; parts[i]; i++) {
        if (lens[i] >= LLMM__HOST_PATH_MAX - n)
            return 0;
        memcpy(out + n, parts[i], lens[i]);
        n += lens[i];
    }
    out[n] = '\0';
    return 1;
}

static int join1(char out[LLMM__HOST_PATH_MAX], const char *root, const char *rel)
{
    const char *parts[] = {rel, NULL};
    size_t lens[] = {strlen(rel), 0};
    return join(out, root, parts, lens);
}

/* A file that is not open. */
static void file_none(llmm__host_file *f)
{
    f->fd = -1;
    f->buf = NULL;
    f->cap = 0;
    f->len = -1;
}

static void file_close(llmm_ctx *ctx, llmm__host_file *f)
{
    llmm__host_close(f->fd);
    llmm__free(ctx, f->buf, f->cap);
    file_none(f);
}

/* Open a file and read it whole, growing the buffer; keep twice its size plus 4 KiB (files
 * grow: a new interrupt, a new counter). A file that cannot be opened or read, or is larger
 * than LLMM__HOST_FILE_MAX, stays closed (f->fd = -1): not an error. */
static llmm_status file_open(llmm_ctx *ctx, const char *path, llmm__host_file *f)
{
    size_t cap = 4096, keep;
    char *buf, *grown;
    long n;

    file_none(f);
    f->fd = llmm__host_open(path);
    if (f->fd < 0)
        return LLMM_OK;
    buf = llmm__alloc(ctx, cap);
    if (!buf) {
        file_close(ctx, f);
        return LLMM_E_NOMEM;
    }
    f->buf = buf;
    f->cap = cap;
    while ((n = llmm__host_read(f->fd, f->buf, f->cap)) >= 0 && (size_t)n == f->cap) {
        if (f->cap >= LLMM__HOST_FILE_MAX)
            break;
        grown = llmm__realloc(ctx, f->buf, f->cap, 2 * f->cap);
        if (!grown) {
            file_close(ctx, f);
            return LLMM_E_NOMEM;
        }
        f->buf = grown;
        f->cap *= 2;
    }
    if (n < 0 || (size_t)n == f->cap) {
        file_close(ctx, f);
        return LLMM_OK;
    }
    keep = 2 * (size_t)n + 4096;
    if (keep > LLMM__HOST_FILE_MAX)
        keep = LLMM__HOST_FILE_MAX;
    if (keep != f->cap) {
        grown = llmm__realloc(ctx, f->buf, f->cap, keep);
        if (!grown) {
            file_close(ctx, f);
            return LLMM_E_NOMEM;
        }
        f->buf = grown;
        f->cap = keep;
    }
    f->len = n;
    return LLMM_OK;
}

/* file_open() of <root><rel>; a path too long to build is a file that is not there. */
static llmm_status open_rel(llmm_ctx *ctx, const char *root, const char *rel, llmm__host_file *f)
{
    char path[LLMM__HOST_PATH_MAX];

    file_none(f);
    return join1(path, root, rel) ? file_open(ctx, path, f) : LLMM_OK;
}

/* The mean frequency over the CPUs, in MHz: every file must read. */
static int read_freq(const llmm_host_sampler *s, double *mhz)
{
    char buf[64];
    double sum = 0.0;
    uint32_t i;

    for (i = 0; i < s->ncpu; i++) {
        long n = llmm__host_read(s->cpu_fd[i], buf, sizeof buf);
        uint64_t khz;
        if (n < 0 || llmm__host_parse_field(buf, (size_t)n, 0, &khz) != LLMM__HOST_FOUND)
            return LLMM__HOST_GARBAGE;
        sum += (double)khz;
    }
    if (s->ncpu == 0)
        return LLMM__HOST_MISSING;
    *mhz = sum / (double)s->ncpu / 1e3;
    return LLMM__HOST_FOUND;
}

int llmm__host_read_signal(const llmm_host_sampler *s, size_t i, uint64_t *counter, double *level)
{
    const sig_src *src = &sources[i];
    const llmm__host_file *f;
    size_t len;

    if (src->parser == P_FREQ)
        return read_freq(s, level);
    f = &s->files[src->file];
    if (f->len < 0)
        return LLMM__HOST_GARBAGE;
    len = (size_t)f->len;
    switch (src->parser) {
    case P_TABLE:
        return llmm__host_parse_table(f->buf, len, src->a, src->b, counter);
    case P_KEYED:
        return llmm__host_parse_keyed(f->buf, len, s->sig[i].key, counter);
    case P_FIELD:
        return llmm__host_parse_field(f->buf, len, 1, counter);
    default:
        return llmm__host_parse_psi_some(f->buf, len, counter);
    }
}

/* Whether signal i reads at creation; a keyed signal tries its second key when the first is
 * missing. */
static int probe(llmm_host_sampler *s, size_t i)
{
    uint64_t c;
    double v;
    int got;

    if (sources[i].file >= 0 && s->files[sources[i].file].fd < 0)
        return 0;
    if (sources[i].parser == P_KEYED && sources[i].a) {
        s->sig[i].key = sources[i].a;
        got = llmm__host_read_signal(s, i, &c, &v);
        if (got != LLMM__HOST_MISSING || !sources[i].b)
            return got == LLMM__HOST_FOUND;
        s->sig[i].key = sources[i].b;
    }
    return llmm__host_read_signal(s, i, &c, &v) == LLMM__HOST_FOUND;
}

/* The frequency files of the CPUs listed in sys/devices/system/cpu/present. */
static llmm_status open_cpus(llmm_host_sampler *s, const char *root)
{
    char path[LLMM__HOST_PATH_MAX], rel[96];
    llmm__host_file present;
    uint32_t ids[LLMM__HOST_CPUS_MAX];
    size_t n = 0, i;
    llmm_status st = open_rel(s->ctx, root, "/sys/devices/system/cpu/present", &present);

    if (st != LLMM_OK || present.fd < 0)
        return st;
    if (llmm__host_parse_cpulist(present.buf, (size_t)present.len, ids, LLMM__HOST_CPUS_MAX, &n) !=
        LLMM__HOST_FOUND)
        n = 0;
    file_close(s->ctx, &present);
    if (n == 0)
        return LLMM_OK;
    s->cpu_fd = llmm__calloc(s->ctx, n, sizeof *s->cpu_fd);
    if (!s->cpu_fd)
        return LLMM_E_NOMEM;
    s->cpu_cap = (uint32_t)n;
    for (i = 0; i < n; i++) {
        int fd;
        snprintf(rel, sizeof rel, "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq",
                 (unsigned)ids[i]);
        if (join1(path, root, rel) && (fd = llmm__host_open(path)) >= 0)
            s->cpu_fd[s->ncpu++] = fd;
    }
    return LLMM_OK;
}

/* Try <root><mount><cgroup path>/cpu.stat (mount: NULL-terminated parts) for the throttle's
 * key, unless an earlier try found it. */
static llmm_status try_cpu_stat(llmm_host_sampler *s, const char *root, const char *m0,
                                const char *m1, size_t m1len, const char *cg, size_t cglen,
                                const char *key, double unit)
{
    llmm__host_sig *g = &s->sig[LLMM_HOST_CPU_THROTTLE - 1];
    llmm__host_file *f = &s->files[LLMM__HF_CPU_STAT];
    const char *parts[] = {m0, m1, cg, "/cpu.stat", NULL};
    size_t lens[] = {strlen(m0), m1len, cglen, 9, 0};
    char path[LLMM__HOST_PATH_MAX];
    llmm_status st;

    if (f->fd >= 0 || !join(path, root, parts, lens))
        return LLMM_OK;
    st = file_open(s->ctx, path, f);
    if (st != LLMM_OK || f->fd < 0)
        return st;
    g->key = key;
    g->ns_per_unit = unit;
    if (!probe(s, LLMM_HOST_CPU_THROTTLE - 1))
        file_close(s->ctx, f);
    return LLMM_OK;
}

/* The cgroup's cpu.stat: the v2 entry of proc/self/cgroup (the unified hierarchy at
 * sys/fs/cgroup, or sys/fs/cgroup/unified on hybrid systems), else the v1 hierarchy with the
 * cpu controller, mounted under its controller list (sys/fs/cgroup/cpu,cpuacct) or as
 * sys/fs/cgroup/cpu. */
static llmm_status open_cgroup(llmm_host_sampler *s, const char *root)
{
    llmm__host_file cg;
    const char *p, *name;
    size_t pn, nn;
    llmm_status st = open_rel(s->ctx, root, "/proc/self/cgroup", &cg);

    if (st != LLMM_OK || cg.fd < 0)
        return st;
    if (llmm__host_parse_cgroup(cg.buf, (size_t)cg.len, 1, &p, &pn, &name, &nn) ==
        LLMM__HOST_FOUND) {
        st = try_cpu_stat(s, root, "/sys/fs/cgroup", "", 0, p, pn, "throttled_usec", 1e3);
        if (st == LLMM_OK)
            st = try_cpu_stat(s, root, "/sys/fs/cgroup/unified", "", 0, p, pn, "throttled_usec",
                              1e3);
    }
    if (st == LLMM_OK && llmm__host_parse_cgroup(cg.buf, (size_t)cg.len, 0, &p, &pn, &name, &nn) ==
                             LLMM__HOST_FOUND) {
        st = try_cpu_stat(s, root, "/sys/fs/cgroup/", name, nn, p, pn, "throttled_time", 1.0);
        if (st == LLMM_OK)
            st = try_cpu_stat(s, root, "/sys/fs/cgroup/cpu", "", 0, p, pn, "throttled_time", 1.0);
    }
    file_close(s->ctx, &cg);
    return st;
}

/* Close the files no available signal reads. */
static void close_unused(llmm_host_sampler *s)
{
    int used[LLMM__HF_COUNT] = {0};
    size_t i;

    for (i = 0; i < LLMM__HOST_SIGNALS; i++)
        if (s->sig[i].available && sources[i].file >= 0)
            used[sources[i].file] = 1;
    for (i = 0; i < LLMM__HF_COUNT; i++)
        if (!used[i])
            file_close(s->ctx, &s->files[i]);
    if (!s->sig[LLMM_HOST_CPU_FREQ_MHZ - 1].available) {
        for (i = 0; i < s->ncpu; i++)
            llmm__host_close(s->cpu_fd[i]);
        s->ncpu = 0;
    }
}

llmm_status llmm__host_open_all(llmm_host_sampler *s, const char *root)
{
    llmm_status st = LLMM_OK;
    size_t i;

    for (i = 0; i < LLMM__HF_COUNT; i++)
        file_none(&s->files[i]);
    for (i = 0; st == LLMM_OK && i < LLMM__HF_COUNT; i++)
        if (paths[i])
            st = open_rel(s->ctx, root, paths[i], &s->files[i]);
    if (st == LLMM_OK)
        st = open_cpus(s, root);
    if (st == LLMM_OK)
        st = open_cgroup(s, root);
    if (st != LLMM_OK) {
        llmm__host_close_all(s);
        return st;
    }
    for (i = 0; i < LLMM__HOST_SIGNALS; i++) {
        llmm__host_sig *g = &s->sig[i];
        if (i != LLMM_HOST_CPU_THROTTLE - 1) /* probed by open_cgroup() */
            g->available = probe(s, i);
        else
            g->available = s->files[LLMM__HF_CPU_STAT].fd >= 0;
        if (sources[i].ns_per_unit > 0)
            g->ns_per_unit = sources[i].ns_per_unit;
        g->state = g->available ? LLMM_E_EMPTY : LLMM_E_STATE;
    }
    close_unused(s);
    return LLMM_OK;
}

void llmm__host_close_all(llmm_host_sampler *s)
{
    size_t i;

    for (i = 0; i < LLMM__HF_COUNT; i++)
        file_close(s->ctx, &s->files[i]);
    for (i = 0; i < s->ncpu; i++)
        llmm__host_close(s->cpu_fd[i]);
    llmm__free(s->ctx, s->cpu_fd, (size_t)s->cpu_cap * sizeof *s->cpu_fd);
    s->cpu_fd = NULL;
    s->ncpu = s->cpu_cap = 0;
}
