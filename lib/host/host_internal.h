/* The host sampler's parts: the parsers of the kernel's text files (host_parse.c: pure
 * functions on byte buffers, fuzzed by tests/fuzz/fuzz_host_parse.c), the platform layer
 * (host_io.c: open and pread on Linux, "unavailable" elsewhere), the files and the signals'
 * state (host_open.c: what creation finds), and the object (host.c: samples, rates, events,
 * options). */
#ifndef LLMM_HOST_INTERNAL_H
#define LLMM_HOST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "llmmetrics/host.h"

/* ---- parsers ------------------------------------------------------------------------------
 * Every parser reads complete lines only (a line ends with '\n'; a last line without one may
 * be truncated and is ignored) and numbers of 1 to 20 ASCII digits within 64 bits. They
 * return FOUND (value written), MISSING (the key is not there: the host does not expose it)
 * or GARBAGE (it is there, but not in the expected form; nothing written). */
enum { LLMM__HOST_GARBAGE = -1, LLMM__HOST_MISSING = 0, LLMM__HOST_FOUND = 1 };

/* A whole token of digits, p[0 .. len). */
int llmm__host_parse_u64(const char *p, size_t len, uint64_t *out);

/* "key value" lines (/proc/vmstat, /proc/stat, cpu.stat): the line that starts with `key`
 * and one space; a second such line is garbage. */
int llmm__host_parse_keyed(const char *buf, size_t len, const char *key, uint64_t *out);

/* Header and value lines that share a prefix (/proc/net/snmp: "Tcp: RtoAlgorithm …" then
 * "Tcp: 1 …"): the value under the column named `column`. Both lines need the same number of
 * fields; a third line with the prefix is garbage. */
int llmm__host_parse_table(const char *buf, size_t len, const char *prefix, const char *column,
                           uint64_t *out);

/* Pressure files: the `total=` field of the line that starts with "some ". */
int llmm__host_parse_psi_some(const char *buf, size_t len, uint64_t *out);

/* The first line as numbers separated by single spaces (schedstat, scaling_cur_freq): the
 * one at `index`; every field must be a number. */
int llmm__host_parse_field(const char *buf, size_t len, size_t index, uint64_t *out);

/* A CPU list ("0-3,8-11\n", sys/devices/system/cpu/present): the first `cap` ids it names,
 * in its order, into ids[0 .. *n). Ranges run upwards and ids stay within 65535 (the kernel's
 * limit is 8192), else garbage. */
int llmm__host_parse_cpulist(const char *buf, size_t len, uint32_t *ids, size_t cap, size_t *n);

/* /proc/self/cgroup: the path of the v2 entry ("0::/path", v2 != 0) or of the v1 hierarchy
 * whose controllers include "cpu" ("4:cpu,cpuacct:/path"); *name gets that hierarchy's
 * controller list (v1 only). Points into buf. */
int llmm__host_parse_cgroup(const char *buf, size_t len, int v2, const char **path,
                            size_t *path_len, const char **name, size_t *name_len);

/* ---- platform layer ------------------------------------------------------------------------ */

/* Open a regular file for reading (close-on-exec, never blocking on a FIFO): a descriptor, or
 * -1 (missing, unreadable, not a regular file, or not Linux). */
int llmm__host_open(const char *path);
/* Read the file from offset 0 into buf, up to cap bytes: the length, or -1 on an error. */
long llmm__host_read(int fd, char *buf, size_t cap);
void llmm__host_close(int fd);

/* ---- the sampler --------------------------------------------------------------------------- */

/* The files other than the frequency's, each read once per sample. */
enum {
    LLMM__HF_SNMP,
    LLMM__HF_VMSTAT,
    LLMM__HF_STAT,
    LLMM__HF_SCHEDSTAT,
    LLMM__HF_PSI_CPU,
    LLMM__HF_PSI_MEMORY,
    LLMM__HF_PSI_IO,
    LLMM__HF_CPU_STAT, /* the cgroup's */
    LLMM__HF_COUNT
};

#define LLMM__HOST_SIGNALS 10 /* LLMM_HOST_TCP_RETRANS … LLMM_HOST_CPU_THROTTLE */
#define LLMM__HOST_ROOT_MAX 2048
#define LLMM__HOST_PATH_MAX 4096
#define LLMM__HOST_FILE_MAX (4u << 20) /* largest file buffer */
#define LLMM__HOST_CPUS_MAX 1024u      /* CPUs whose frequency is read */

typedef struct llmm__host_file {
    int fd;    /* -1: not open */
    char *buf; /* cap bytes */
    size_t cap;
    long len; /* of the latest read; -1 when it failed */
} llmm__host_file;

/* How a signal is read, fixed at creation. */
typedef struct llmm__host_sig {
    int32_t available;  /* the host exposes it */
    int32_t have_prev;  /* prev is the previous sample's good reading */
    llmm_status state;  /* what llmm_host_signal_rate() answers besides OK */
    const char *key;    /* keyed signals: the key found at creation */
    double ns_per_unit; /* counters of time: ns per counted unit; counts: 0 (rate per s) */
    uint64_t prev;      /* the previous good reading (counters) */
    double value;       /* the rate, or the frequency level */
} llmm__host_sig;

struct llmm_host_sampler {
    llmm_ctx *ctx;
    llmm__host_file files[LLMM__HF_COUNT];
    int *cpu_fd; /* the frequency files: ncpu open, room for cpu_cap */
    uint32_t ncpu, cpu_cap;
    uint64_t samples;
    uint64_t last_ns;
    llmm__host_sig sig[LLMM__HOST_SIGNALS]; /* index: signal − 1 */
    double above[LLMM__HOST_SIGNALS];       /* the thresholds (options), same index */
};

/* Open every file under root and decide which signals are available (host_open.c). Fills
 * s->files, s->cpu_fd, s->sig; LLMM_E_NOMEM after closing and freeing what it opened. */
llmm_status llmm__host_open_all(llmm_host_sampler *s, const char *root);
/* Close and free what llmm__host_open_all() opened. */
void llmm__host_close_all(llmm_host_sampler *s);

/* Signal i's reading from the files as last read (host_open.c; the frequency files are read
 * here): FOUND with *counter, or with *level for the frequency (mean MHz); else MISSING or
 * GARBAGE. */
int llmm__host_read_signal(const llmm_host_sampler *s, size_t i, uint64_t *counter, double *level);

#endif
