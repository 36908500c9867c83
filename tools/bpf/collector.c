/* collector.c: loading, targeting and reading the kernel programs (collector.h). Every
 * refusal names what is missing, checked in the order a user can fix it: the targets, the
 * BTF and its tracepoints, then the privileges (load), then the perf events. */
#include <dirent.h>
#include <errno.h>
#include <linux/magic.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collector.h"
#include "collector.skel.h"

#define DEFAULT_BTF "/sys/kernel/btf/vmlinux"
#define MAX_CPUS 1024

struct llmm_bpf {
    struct llmm_collector *skel;
    struct ring_buffer *ring;
    struct bpf_link **links; /* the tracepoints', then one per CPU's perf event */
    size_t n_links, cap_links;
    int ncpus;
    llmm_bpf_on_event cb;
    void *user;
};

static int fail(char *err, size_t cap, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t cap, int code, const char *fmt, ...)
{
    va_list ap;
    if (err && cap) {
        va_start(ap, fmt);
        vsnprintf(err, cap, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* libbpf's own messages (the verifier's log among them) only when LLMM_BPF_VERBOSE is set:
 * the collector's refusals say what is wrong in one line. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
    (void)level;
    if (!getenv("LLMM_BPF_VERBOSE"))
        return 0;
    return vfprintf(stderr, fmt, ap);
}

/* The tracepoints the attached programs need, each with whether it is used. */
static const char *const needed_tracepoints[] = {
    "tcp_retransmit_skb", "tcp_retransmit_synack", "inet_sock_set_state", "tcp_sendmsg_locked",
    "sock_recv_length",   "sched_wakeup",          "sched_wakeup_new",    "sched_switch",
};

/* The number of arguments of tracepoint name's BTF prototype (its void *data first), or -1. */
static int tracepoint_args(const struct btf *btf, const char *name)
{
    char type_name[64];
    const struct btf_type *t;
    int id;
    snprintf(type_name, sizeof type_name, "btf_trace_%s", name);
    id = btf__find_by_name_kind(btf, type_name, BTF_KIND_TYPEDEF);
    if (id < 0)
        return -1;
    t = btf__type_by_id(btf, (uint32_t)id); /* typedef → pointer → function prototype */
    t = t ? btf__type_by_id(btf, t->type) : NULL;
    t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
    return t && btf_is_func_proto(t) ? (int)btf_vlen(t) : -1;
}

static int check_btf(const char *path, int want_tasks, char *err, size_t cap)
{
    struct btf *btf;
    int rc = 0;
    if (access(path, R_OK) != 0)
        return fail(err, cap, -ENOENT,
                    "no kernel BTF at %s (%s): the kernel needs CONFIG_DEBUG_INFO_BTF=y, or give "
                    "its BTF with --btf FILE",
                    path, strerror(errno));
    btf = btf__parse(path, NULL);
    if (!btf)
        return fail(err, cap, -EINVAL, "%s: not a BTF file the collector can read (%s)", path,
                    strerror(errno));
    for (size_t i = 0; rc == 0 && i < sizeof needed_tracepoints / sizeof *needed_tracepoints; i++) {
        int args;
        if (!want_tasks && i >= 2)
            break;
        args = tracepoint_args(btf, needed_tracepoints[i]);
        if (args < 0)
            rc = fail(err, cap, -ENOENT, "the kernel has no tracepoint %s (no btf_trace_%s in %s)",
                      needed_tracepoints[i], needed_tracepoints[i], path);
        else if (i == 0 && args != 4) /* data, sk, skb, err */
            rc = fail(err, cap, -ENOENT,
                      "the kernel's tracepoint tcp_retransmit_skb has no err argument (%s): "
                      "the collector counts only the attempts that went out, as "
                      "tcpi_total_retrans does, and needs a newer kernel",
                      path);
    }
    btf__free(btf);
    return rc;
}

/* A cgroup v2 directory's id (its inode number, what the kernel's kernfs id is on 64-bit
 * hosts) and its level (depth below the hierarchy's root). */
static int cgroup_of(const char *path, uint64_t *id, uint32_t *level, char *err, size_t cap)
{
    char *p = realpath(path, NULL);
    struct statfs sf;
    struct stat st, up;
    uint32_t n = 0;
    if (!p || statfs(p, &sf) != 0 || stat(p, &st) != 0) {
        free(p);
        return fail(err, cap, -ENOENT, "--cgroup %s: %s", path, strerror(errno));
    }
    if (sf.f_type != CGROUP2_SUPER_MAGIC || !S_ISDIR(st.st_mode)) {
        free(p);
        return fail(err, cap, -EINVAL,
                    "--cgroup %s: not a directory of a cgroup v2 hierarchy (cgroup2 is mounted "
                    "at /sys/fs/cgroup or /sys/fs/cgroup/unified)",
                    path);
    }
    *id = (uint64_t)st.st_ino;
    for (char *slash; (slash = strrchr(p, '/')) && slash != p;) {
        *slash = '\0';
        if (stat(p, &up) != 0 || up.st_dev != st.st_dev)
            break;
        n++;
    }
    free(p);
    *level = n;
    return 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
    llmm_bpf *b = ctx;
    struct llmm_bpf_event e;
    if (size < sizeof e)
        return 0;
    memcpy(&e, data, sizeof e);
    b->cb(b->user, &e);
    return 0;
}

static int configure(llmm_bpf *b, const llmm_bpf_target *t, char *err, size_t cap)
{
    struct llmm_collector *s = b->skel;
    int tasks = t->n_pids > 0 || t->cgroup;
    size_t ring;
    s->rodata->want_pids = t->n_pids > 0;
    s->rodata->want_ports = t->n_ports > 0;
    if (t->cgroup) {
        uint64_t id = 0;
        uint32_t level = 0;
        int rc = cgroup_of(t->cgroup, &id, &level, err, cap);
        if (rc)
            return rc;
        s->rodata->want_cgroup = 1;
        s->rodata->cg_id = id;
        s->rodata->cg_level = level;
    }
    if (!tasks) { /* ports only: no task to watch */
        bpf_program__set_autoload(s->progs.on_set_state, false);
        bpf_program__set_autoload(s->progs.on_send, false);
        bpf_program__set_autoload(s->progs.on_recv, false);
        bpf_program__set_autoload(s->progs.on_major_fault, false);
        bpf_program__set_autoload(s->progs.on_wakeup, false);
        bpf_program__set_autoload(s->progs.on_wakeup_new, false);
        bpf_program__set_autoload(s->progs.on_switch, false);
    }
    ring = t->ring_bytes ? t->ring_bytes : (size_t)4 << 20;
    s->rodata->wake_bytes = ring / 4;
    return bpf_map__set_max_entries(s->maps.rb, (uint32_t)ring);
}

/* The socket inodes process pid holds now (its /proc/PID/fd), into the inodes map: a
 * connection or listener older than the collector is then known. A process gone or not
 * readable has none. */
static void seed_inodes(llmm_bpf *b, uint32_t pid)
{
    char dir[64], path[320], link[64];
    struct dirent *d;
    DIR *fds;
    snprintf(dir, sizeof dir, "/proc/%u/fd", pid);
    fds = opendir(dir);
    if (!fds)
        return;
    while ((d = readdir(fds)) != NULL) {
        unsigned long long ino;
        ssize_t n;
        snprintf(path, sizeof path, "%s/%s", dir, d->d_name);
        n = readlink(path, link, sizeof link - 1);
        if (n <= 0)
            continue;
        link[n] = '\0';
        if (sscanf(link, "socket:[%llu]", &ino) == 1) {
            uint64_t key = ino;
            bpf_map__update_elem(b->skel->maps.inodes, &key, sizeof key, &pid, sizeof pid, BPF_ANY);
        }
    }
    closedir(fds);
}

static int fill_maps(llmm_bpf *b, const llmm_bpf_target *t, char *err, size_t cap)
{
    uint8_t one = 1;
    for (size_t i = 0; i < t->n_pids; i++)
        if (bpf_map__update_elem(b->skel->maps.pids, &t->pids[i], sizeof t->pids[i], &one,
                                 sizeof one, BPF_ANY) != 0)
            return fail(err, cap, -errno, "cannot add pid %u: %s", t->pids[i], strerror(errno));
    for (size_t i = 0; i < t->n_pids; i++)
        seed_inodes(b, t->pids[i]);
    for (size_t i = 0; i < t->n_ports; i++)
        if (bpf_map__update_elem(b->skel->maps.ports, &t->ports[i], sizeof t->ports[i], &one,
                                 sizeof one, BPF_ANY) != 0)
            return fail(err, cap, -errno, "cannot add port %u: %s", t->ports[i], strerror(errno));
    return 0;
}

static int attach_tracepoints(llmm_bpf *b, char *err, size_t cap)
{
    struct bpf_program *prog;
    bpf_object__for_each_program(prog, b->skel->obj)
    {
        struct bpf_link *link;
        if (!bpf_program__autoload(prog) || bpf_program__type(prog) == BPF_PROG_TYPE_PERF_EVENT)
            continue;
        link = bpf_program__attach(prog);
        if (!link)
            return fail(err, cap, -errno, "cannot attach to %s: %s",
                        bpf_program__section_name(prog), strerror(errno));
        b->links[b->n_links++] = link;
    }
    return 0;
}

/* PAGE_FAULTS_MAJ on every CPU, sample period 1: the program sees each fault. */
static int attach_faults(llmm_bpf *b, char *err, size_t cap)
{
    struct perf_event_attr a;
    if (!bpf_program__autoload(b->skel->progs.on_major_fault))
        return 0;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_PAGE_FAULTS_MAJ;
    a.sample_period = 1;
    for (int cpu = 0; cpu < b->ncpus; cpu++) {
        struct bpf_link *link;
        int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0 && errno == ENODEV)
            continue; /* CPU offline */
        if (fd < 0)
            return fail(err, cap, -errno, "perf_event_open(PAGE_FAULTS_MAJ, cpu %d): %s%s", cpu,
                        strerror(errno),
                        errno == EACCES || errno == EPERM ? ": needs CAP_PERFMON (root)" : "");
        link = bpf_program__attach_perf_event(b->skel->progs.on_major_fault, fd);
        if (!link) {
            int e = errno;
            close(fd);
            return fail(err, cap, -e, "cannot attach to PAGE_FAULTS_MAJ on cpu %d: %s", cpu,
                        strerror(e));
        }
        b->links[b->n_links++] = link; /* the link owns fd */
    }
    return 0;
}

static int check_target(const llmm_bpf_target *t, char *err, size_t cap)
{
    size_t ring = t->ring_bytes;
    if (t->n_pids == 0 && !t->cgroup && t->n_ports == 0)
        return fail(err, cap, -EINVAL, "no target: give a pid, a cgroup or a port");
    if (t->n_pids > LLMM_BPF_MAX_PIDS || t->n_ports > LLMM_BPF_MAX_PORTS)
        return fail(err, cap, -E2BIG, "at most %d pids and %d ports", LLMM_BPF_MAX_PIDS,
                    LLMM_BPF_MAX_PORTS);
    if (ring && (ring < 4096 || (ring & (ring - 1)) || ring > ((size_t)1 << 30)))
        return fail(err, cap, -EINVAL, "ring buffer size %zu: a power of 2 from 4 KiB to 1 GiB",
                    ring);
    return 0;
}

int llmm_bpf_open(const llmm_bpf_target *t, llmm_bpf_on_event cb, void *user, llmm_bpf **out,
                  char *err, size_t cap)
{
    struct bpf_object_open_opts opts; /* not LIBBPF_OPTS: a GNU statement expression */
    const char *btf = t->btf ? t->btf : DEFAULT_BTF;
    llmm_bpf *b;
    int rc = check_target(t, err, cap);
    *out = NULL;
    if (rc == 0)
        rc = check_btf(btf, t->n_pids > 0 || t->cgroup, err, cap);
    if (rc)
        return rc;
    libbpf_set_print(libbpf_print);
    b = calloc(1, sizeof *b);
    if (!b)
        return fail(err, cap, -ENOMEM, "out of memory");
    b->cb = cb;
    b->user = user;
    b->ncpus = libbpf_num_possible_cpus();
    if (b->ncpus <= 0 || b->ncpus > MAX_CPUS)
        b->ncpus = 1;
    b->cap_links = 16 + (size_t)b->ncpus;
    b->links = calloc(b->cap_links, sizeof *b->links);
    if (!b->links) {
        free(b);
        return fail(err, cap, -ENOMEM, "out of memory");
    }
    memset(&opts, 0, sizeof opts);
    opts.sz = sizeof opts;
    opts.btf_custom_path = t->btf;
    b->skel = llmm_collector__open_opts(&opts);
    if (!b->skel)
        rc = fail(err, cap, -errno, "cannot open the BPF object: %s", strerror(errno));
    if (rc == 0)
        rc = configure(b, t, err, cap);
    if (rc == 0 && (rc = llmm_collector__load(b->skel)) != 0)
        rc = fail(err, cap, rc,
                  rc == -EPERM || rc == -EACCES
                      ? "cannot load the BPF programs: %s: needs CAP_BPF and CAP_PERFMON (root)"
                      : "cannot load the BPF programs: %s (LLMM_BPF_VERBOSE=1 shows why)",
                  strerror(-rc));
    if (rc == 0)
        rc = fill_maps(b, t, err, cap);
    if (rc == 0)
        rc = attach_tracepoints(b, err, cap);
    if (rc == 0)
        rc = attach_faults(b, err, cap);
    if (rc == 0) {
        b->ring = ring_buffer__new(bpf_map__fd(b->skel->maps.rb), on_record, b, NULL);
        if (!b->ring)
            rc = fail(err, cap, -errno, "cannot map the ring buffer: %s", strerror(errno));
    }
    if (rc) {
        llmm_bpf_close(b);
        return rc;
    }
    *out = b;
    return 0;
}

int llmm_bpf_poll(llmm_bpf *b, int timeout_ms)
{
    return ring_buffer__poll(b->ring, timeout_ms);
}

int llmm_bpf_drain(llmm_bpf *b)
{
    return ring_buffer__consume(b->ring);
}

void llmm_bpf_stats(const llmm_bpf *b, uint64_t out[LLMM_BPF_STAT_COUNT])
{
    uint64_t per_cpu[MAX_CPUS];
    for (uint32_t k = 0; k < LLMM_BPF_STAT_COUNT; k++) {
        out[k] = 0;
        if (bpf_map__lookup_elem(b->skel->maps.stats, &k, sizeof k, per_cpu,
                                 sizeof *per_cpu * (size_t)b->ncpus, 0) != 0)
            continue;
        for (int c = 0; c < b->ncpus; c++)
            out[k] += per_cpu[c];
    }
}

void llmm_bpf_close(llmm_bpf *b)
{
    if (!b)
        return;
    ring_buffer__free(b->ring);
    for (size_t i = 0; i < b->n_links; i++)
        bpf_link__destroy(b->links[i]);
    llmm_collector__destroy(b->skel);
    free(b->links);
    free(b);
}
