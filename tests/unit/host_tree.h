/* Captured host trees (tests/data/host) for the host-sampler tests: copy a tree's t0/ into a
 * scratch directory, write a later step's files over the copies in place (the sampler keeps
 * its files open, so a file must keep its inode), remove the scratch directory. Include
 * first: it sets the feature macros nftw() and mkdtemp() need. */
#ifndef LLMM_TEST_HOST_TREE_H
#define LLMM_TEST_HOST_TREE_H

#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

static char host_tree_dst_[4096];
static size_t host_tree_srclen_;

static int host_tree_copy_(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    char out[4096], buf[65536];
    ssize_t n;
    int in, fd;
    (void)sb;
    (void)ftw;
    snprintf(out, sizeof out, "%s%s", host_tree_dst_, path + host_tree_srclen_);
    if (flag == FTW_D)
        return mkdir(out, 0755) == 0 || errno == EEXIST ? 0 : -1;
    if (flag != FTW_F)
        return -1;
    in = open(path, O_RDONLY);
    fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || fd < 0)
        return -1;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(fd, buf, (size_t)n) != n)
            return -1;
    close(in);
    return close(fd);
}

/* Write tests/data/host/<tree>/<step>/… over dst/… (directories made as needed). */
static inline void host_tree_step(const char *dst, const char *tree, const char *step)
{
    char src[4096];
    snprintf(src, sizeof src, "%s/host/%s/%s", llmm_test_data_dir(), tree, step);
    host_tree_srclen_ = strlen(src);
    snprintf(host_tree_dst_, sizeof host_tree_dst_, "%s", dst);
    if (nftw(src, host_tree_copy_, 16, FTW_PHYS) != 0)
        fail_msg("cannot copy %s to %s", src, dst);
}

/* A fresh scratch directory holding <tree>/t0; the path goes to dir (4096 bytes). */
static inline void host_tree_new(char *dir, const char *tree)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, 4096, "%s/llmm_host_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        fail_msg("mkdtemp: %s", strerror(errno));
    host_tree_step(dir, tree, "t0");
}

static int host_tree_rm_(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static inline void host_tree_free(const char *dir)
{
    nftw(dir, host_tree_rm_, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
