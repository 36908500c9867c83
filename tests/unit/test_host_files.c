/* Host sampler on files that the captured trees (tests/data/host) do not hold: a vmstat larger
 * than the first 4 KiB buffer (read whole, its buffer grown and trimmed, every allocation
 * failure cleaned up) and one larger than the sampler's 4 MiB limit (left unread), a directory
 * where /proc/stat should be, a CPU list that does not parse, and a cgroup path too long to
 * join to the root. Each is a copy of the linux-5.10 tree with one file changed; test_host.c
 * has the trees as captured. */
#include "host_tree.h"

#define SEC UINT64_C(1000000000)
#define STEP (SEC / 2)
#define PAD_LINE 17 /* "pad_%010zu 0\n" */

/* Write dir/rel: `pad` bytes of lines no signal reads, then `tail`. */
static void write_file(const char *dir, const char *rel, size_t pad, const char *tail)
{
    char path[4200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    f = fopen(path, "w");
    assert_non_null(f);
    for (size_t i = 0; i < pad / PAD_LINE; i++)
        fprintf(f, "pad_%010zu 0\n", i);
    fputs(tail, f);
    assert_int_equal(fclose(f), 0);
}

/* A signal the sampler reads (no rate before a second sample) or does not (LLMM_E_STATE). */
static void assert_reads(const llmm_host_sampler *s, llmm_host_signal sig, int reads)
{
    double v = -1;
    assert_status(llmm_host_signal_rate(s, sig, &v), reads ? LLMM_E_EMPTY : LLMM_E_STATE);
}

static llmm_status make(llmm_ctx *ctx, void *dir)
{
    llmm_host_sampler *s = NULL;
    llmm_status st = llmm_host_sampler_new(ctx, dir, &s);
    if (st != LLMM_OK) {
        assert_null(s);
        return st;
    }
    assert_reads(s, LLMM_HOST_MAJOR_FAULTS, 1);
    llmm_host_sampler_free(s);
    return LLMM_OK;
}

/* 3 MiB of vmstat: grown past 4 KiB, kept at the 4 MiB limit (twice its size would pass it);
 * pgmajfault, at its end, reads: +10 over 0.5 s is 20 per second. */
static void test_large_file(void **state)
{
    char dir[4096];
    llmm_host_sampler *s;
    double v = -1;
    size_t k0;
    (void)state;
    host_tree_new(dir, "linux-5.10");
    k0 = llmm_test_each_failure(make, dir);
    write_file(dir, "proc/vmstat", 3u << 20, "pgmajfault 400\n");
    assert_ok(llmm_host_sampler_new(NULL, dir, &s));
    assert_ok(llmm_host_sample(s, SEC, NULL));
    write_file(dir, "proc/vmstat", 3u << 20, "pgmajfault 410\n");
    assert_ok(llmm_host_sample(s, SEC + STEP, NULL));
    assert_ok(llmm_host_signal_rate(s, LLMM_HOST_MAJOR_FAULTS, &v));
    assert_true(v == 20);
    llmm_host_sampler_free(s);
    /* ten doublings (4 KiB to 4 MiB), each of which can fail and is cleaned up, and no
     * trimming realloc (the captured vmstat's buffer takes one) */
    assert_int_equal(llmm_test_each_failure(make, dir), k0 + 10 - 1);
    host_tree_free(dir);
}

/* 5 MiB: past the limit, so vmstat's signals are unavailable; the others still read. */
static void test_file_over_limit(void **state)
{
    char dir[4096];
    llmm_host_sampler *s;
    (void)state;
    host_tree_new(dir, "linux-5.10");
    write_file(dir, "proc/vmstat", 5u << 20, "pgmajfault 400\npgmigrate_success 1000\n");
    assert_ok(llmm_host_sampler_new(NULL, dir, &s));
    assert_reads(s, LLMM_HOST_MAJOR_FAULTS, 0);
    assert_reads(s, LLMM_HOST_NUMA_MIGRATIONS, 0);
    assert_reads(s, LLMM_HOST_CTX_SWITCHES, 1);
    llmm_host_sampler_free(s);
    host_tree_free(dir);
}

/* A directory at proc/stat, a CPU list that does not parse, a cgroup path that makes a path
 * longer than the sampler joins: each signal unavailable, the others read. */
static void test_unusable_files(void **state)
{
    char dir[4096], path[4200], cg[4200];
    llmm_host_sampler *s;
    (void)state;
    host_tree_new(dir, "linux-5.10");
    snprintf(path, sizeof path, "%s/proc/stat", dir);
    assert_int_equal(remove(path), 0);
    assert_int_equal(mkdir(path, 0755), 0);
    write_file(dir, "sys/devices/system/cpu/present", 0, "0-x\n");
    memset(cg, 'a', sizeof cg - 1);
    memcpy(cg, "0::/", 4);
    cg[sizeof cg - 2] = '\n';
    cg[sizeof cg - 1] = '\0';
    write_file(dir, "proc/self/cgroup", 0, cg);
    assert_ok(llmm_host_sampler_new(NULL, dir, &s));
    assert_reads(s, LLMM_HOST_CTX_SWITCHES, 0);
    assert_reads(s, LLMM_HOST_CPU_FREQ_MHZ, 0);
    assert_reads(s, LLMM_HOST_CPU_THROTTLE, 0);
    assert_reads(s, LLMM_HOST_MAJOR_FAULTS, 1);
    llmm_host_sampler_free(s);
    host_tree_free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_large_file),
        cmocka_unit_test(test_file_over_limit),
        cmocka_unit_test(test_unusable_files),
    };
    return cmocka_run_group_tests_name("host_files", tests, NULL, NULL);
}
