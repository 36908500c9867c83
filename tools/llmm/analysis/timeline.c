/* timeline.c: the time line of the time-ordered sections, in memory or spilled to a scratch
 * file and merged back in order (timeline.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/timeline.h"
#include "common/bounds.h"
#include "common/output.h"

struct llmm_cli_tl_raw {
    double start, delay, v;
};

struct llmm_cli_tl_run {
    uint64_t first; /* the run's first point */
    double offset;  /* added to its send times */
};

struct llmm_cli_tl_chunk {
    uint64_t at, n; /* byte offset of its sorted observations in the scratch file, count */
};

#define READ_BUF 1024 /* observations a chunk reader holds (16 KiB) */

struct llmm_cli_tl_reader {
    uint64_t at, left; /* the next unread byte of its chunk, observations not read yet */
    size_t n, i;       /* observations in buf, the next one */
    llmm_cli_obs buf[READ_BUF];
};

/* ---- recording ---------------------------------------------------------------------------- */

static size_t env_bound(void)
{
    const char *s = getenv("LLMM_TIMELINE_KIB");
    unsigned long long kib;
    char *end;
    if (!s || !*s)
        return LLMM_CLI_TIMELINE_BOUND;
    errno = 0;
    kib = strtoull(s, &end, 10);
    if (*end || errno || kib == 0 || kib > (SIZE_MAX >> 11))
        return LLMM_CLI_TIMELINE_BOUND;
    kib = kib * 1024 / sizeof(llmm_cli_tl_raw);
    return kib ? (size_t)kib : 1;
}

void llmm_cli_timeline_init(llmm_cli_timeline *tl, size_t bound)
{
    memset(tl, 0, sizeof *tl);
    tl->fd = -1;
    tl->bound = bound ? bound : env_bound();
}

void llmm_cli_timeline_free(llmm_cli_timeline *tl)
{
    free(tl->raw); /* tl->obs, when set, is the same block */
    free(tl->runs);
    free(tl->chunks);
    if (tl->fd >= 0)
        close(tl->fd);
    llmm_cli_timeline_init(tl, tl->bound);
}

static int scratch_error(llmm_cli_error *err, const char *what)
{
    return llmm_cli_fail(err, LLMM_CLI_EIO, "time line: cannot %s its scratch file: %s", what,
                         strerror(errno ? errno : EIO));
}

static int write_at(int fd, const void *p, size_t n, uint64_t at)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = pwrite(fd, c, n, (off_t)at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
        at += (uint64_t)w;
    }
    return 0;
}

static int read_at(int fd, void *p, size_t n, uint64_t at)
{
    char *c = p;
    while (n > 0) {
        ssize_t r = pread(fd, c, n, (off_t)at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO; /* shorter than written */
            return -1;
        }
        c += r;
        n -= (size_t)r;
        at += (uint64_t)r;
    }
    return 0;
}

/* The points in memory go to the end of the scratch file (created on the first spill). */
static int spill(llmm_cli_timeline *tl, llmm_cli_error *err)
{
    if (tl->fd < 0 && (tl->fd = llmm_cli_scratch_open(err)) < 0)
        return LLMM_CLI_EIO;
    errno = 0;
    if (write_at(tl->fd, tl->raw, tl->nraw * sizeof *tl->raw, tl->spilled * sizeof *tl->raw))
        return scratch_error(err, "write");
    tl->spilled += tl->nraw;
    tl->nraw = 0;
    return LLMM_CLI_OK;
}

int llmm_cli_timeline_add(llmm_cli_timeline *tl, double start, double delay, double v,
                          llmm_cli_error *err)
{
    if (tl->nraw == tl->bound && spill(tl, err) != LLMM_CLI_OK)
        return LLMM_CLI_EIO;
    if (tl->nraw == tl->capraw) { /* doubling, up to the bound */
        size_t cap = tl->capraw ? tl->capraw * 2 : 1024;
        llmm_cli_tl_raw *p;
        if (cap > tl->bound)
            cap = tl->bound;
        p = realloc(tl->raw, cap * sizeof *p);
        if (!p)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        tl->raw = p;
        tl->capraw = cap;
    }
    tl->raw[tl->nraw].start = start;
    tl->raw[tl->nraw].delay = delay;
    tl->raw[tl->nraw].v = v;
    tl->nraw++;
    tl->total++;
    return LLMM_CLI_OK;
}

int llmm_cli_timeline_run_end(llmm_cli_timeline *tl, double offset, llmm_cli_error *err)
{
    if (tl->run_first == tl->total)
        return LLMM_CLI_OK; /* a run without points */
    if (tl->nruns == tl->capruns) {
        size_t cap = tl->capruns ? tl->capruns * 2 : 16;
        llmm_cli_tl_run *p = realloc(tl->runs, cap * sizeof *p);
        if (!p)
            return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
        tl->runs = p;
        tl->capruns = cap;
    }
    tl->runs[tl->nruns].first = tl->run_first;
    tl->runs[tl->nruns].offset = offset;
    tl->nruns++;
    tl->run_first = tl->total;
    return LLMM_CLI_OK;
}

/* ---- sorting ------------------------------------------------------------------------------ */

static int cmp_obs(const void *pa, const void *pb)
{
    const llmm_cli_obs *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->v > b->v) - (a->v < b->v);
}

/* The n points at buf (the first is point `first` of the whole time line) become
 * observations in the first n * 16 bytes of buf, in place (each observation is written below
 * the point it comes from, read first). */
static void to_observations(const llmm_cli_timeline *tl, void *buf, size_t n, uint64_t first)
{
    size_t r = 0;
    char *b = buf;
    while (r + 1 < tl->nruns && tl->runs[r + 1].first <= first)
        r++;
    for (size_t k = 0; k < n; k++) {
        llmm_cli_tl_raw p;
        llmm_cli_obs o;
        while (r + 1 < tl->nruns && tl->runs[r + 1].first <= first + k)
            r++;
        memcpy(&p, b + k * sizeof p, sizeof p);
        o.t = (p.start + (tl->nruns ? tl->runs[r].offset : 0.0)) + p.delay;
        if (o.t < 0)
            o.t = 0;
        o.v = p.v;
        memcpy(b + k * sizeof o, &o, sizeof o);
    }
}

static double last_of(const void *buf, size_t n)
{
    llmm_cli_obs o;
    memcpy(&o, (const char *)buf + (n - 1) * sizeof o, sizeof o);
    return o.t;
}

/* Everything spilled: each chunk of `bound` points is read, sorted and written back over its
 * own place (16 of its 24 bytes a point). */
static int sort_chunks(llmm_cli_timeline *tl, llmm_cli_error *err)
{
    size_t nchunks = (size_t)((tl->spilled + tl->bound - 1) / tl->bound);
    tl->chunks = calloc(nchunks, sizeof *tl->chunks);
    if (!tl->chunks)
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t c = 0; c < nchunks; c++) {
        uint64_t first = (uint64_t)c * tl->bound, at = first * sizeof *tl->raw;
        size_t n = tl->spilled - first < tl->bound ? (size_t)(tl->spilled - first) : tl->bound;
        errno = 0;
        if (read_at(tl->fd, tl->raw, n * sizeof *tl->raw, at))
            return scratch_error(err, "read");
        to_observations(tl, tl->raw, n, first);
        qsort(tl->raw, n, sizeof(llmm_cli_obs), cmp_obs);
        if (write_at(tl->fd, tl->raw, n * sizeof(llmm_cli_obs), at))
            return scratch_error(err, "write");
        tl->chunks[c].at = at;
        tl->chunks[c].n = n;
        if (c == 0 || last_of(tl->raw, n) > tl->last_t)
            tl->last_t = last_of(tl->raw, n);
        tl->nchunks++;
    }
    free(tl->raw);
    tl->raw = NULL;
    tl->capraw = 0;
    return LLMM_CLI_OK;
}

int llmm_cli_timeline_finish(llmm_cli_timeline *tl, llmm_cli_error *err)
{
    int rc;
    if (tl->finished)
        return LLMM_CLI_OK;
    if ((rc = llmm_cli_timeline_run_end(tl, 0.0, err)) != LLMM_CLI_OK)
        return rc; /* points after the last run's end: on their own clock */
    if (tl->spilled == 0) {
        if (tl->nraw) {
            void *p;
            to_observations(tl, tl->raw, tl->nraw, 0);
            /* give back the third the observations no longer need before sorting (qsort
             * may take as much again) */
            p = realloc(tl->raw, tl->nraw * sizeof(llmm_cli_obs));
            if (p)
                tl->raw = p;
            tl->obs = (llmm_cli_obs *)(void *)tl->raw;
            qsort(tl->obs, tl->nraw, sizeof *tl->obs, cmp_obs);
            tl->last_t = tl->obs[tl->nraw - 1].t;
        }
    } else if ((tl->nraw && (rc = spill(tl, err)) != LLMM_CLI_OK) ||
               (rc = sort_chunks(tl, err)) != LLMM_CLI_OK) {
        return rc;
    }
    tl->finished = 1;
    return LLMM_CLI_OK;
}

/* ---- reading ------------------------------------------------------------------------------ */

static int refill(const llmm_cli_timeline *tl, llmm_cli_tl_reader *r, llmm_cli_error *err)
{
    size_t n = r->left < READ_BUF ? (size_t)r->left : READ_BUF;
    errno = 0;
    if (read_at(tl->fd, r->buf, n * sizeof *r->buf, r->at))
        return scratch_error(err, "read");
    r->at += n * sizeof *r->buf;
    r->left -= n;
    r->n = n;
    r->i = 0;
    return LLMM_CLI_OK;
}

/* Chunk a's next observation comes before chunk b's (ties: the earlier chunk). */
static int before(const llmm_cli_tl_iter *it, size_t a, size_t b)
{
    const llmm_cli_tl_reader *ra = &it->rd[a], *rb = &it->rd[b];
    int c = cmp_obs(&ra->buf[ra->i], &rb->buf[rb->i]);
    return c ? c < 0 : a < b;
}

static void sift_down(llmm_cli_tl_iter *it, size_t k)
{
    for (;;) {
        size_t l = 2 * k + 1, m = k, tmp;
        if (l < it->nheap && before(it, it->heap[l], it->heap[m]))
            m = l;
        if (l + 1 < it->nheap && before(it, it->heap[l + 1], it->heap[m]))
            m = l + 1;
        if (m == k)
            return;
        tmp = it->heap[k];
        it->heap[k] = it->heap[m];
        it->heap[m] = tmp;
        k = m;
    }
}

int llmm_cli_timeline_begin(const llmm_cli_timeline *tl, llmm_cli_tl_iter *it,
                            llmm_cli_error *err)
{
    memset(it, 0, sizeof *it);
    it->tl = tl;
    if (tl->nchunks == 0)
        return LLMM_CLI_OK;
    it->rd = malloc(tl->nchunks * sizeof *it->rd);
    it->heap = malloc(tl->nchunks * sizeof *it->heap);
    if (!it->rd || !it->heap) {
        llmm_cli_timeline_end(it);
        return llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    }
    for (size_t c = 0; c < tl->nchunks; c++) {
        it->rd[c].at = tl->chunks[c].at;
        it->rd[c].left = tl->chunks[c].n;
        if (refill(tl, &it->rd[c], err) != LLMM_CLI_OK) {
            llmm_cli_timeline_end(it);
            return LLMM_CLI_EIO;
        }
        it->heap[c] = c;
    }
    it->nheap = tl->nchunks;
    for (size_t k = it->nheap / 2; k-- > 0;)
        sift_down(it, k);
    return LLMM_CLI_OK;
}

int llmm_cli_timeline_next(llmm_cli_tl_iter *it, llmm_cli_obs *o, llmm_cli_error *err)
{
    llmm_cli_tl_reader *r;
    if (!it->rd) {
        if (it->i >= it->tl->total)
            return 0;
        *o = it->tl->obs[it->i++];
        return 1;
    }
    if (it->nheap == 0)
        return 0;
    r = &it->rd[it->heap[0]];
    *o = r->buf[r->i++];
    if (r->i == r->n) {
        if (r->left == 0)
            it->heap[0] = it->heap[--it->nheap];
        else if (refill(it->tl, r, err) != LLMM_CLI_OK)
            return -1;
    }
    sift_down(it, 0);
    return 1;
}

void llmm_cli_timeline_end(llmm_cli_tl_iter *it)
{
    free(it->rd);
    free(it->heap);
    it->rd = NULL;
    it->heap = NULL;
    it->nheap = 0;
}

/* ---- quantiles per time bin --------------------------------------------------------------- */

/* Bin of an observation at t, the bins being [b·bin, (b + 1)·bin): *b moves forward only. */
static size_t bin_of(double t, double bin, size_t *b, size_t nbins)
{
    while (*b + 1 < nbins && t >= (double)(*b + 1) * bin)
        (*b)++;
    return *b;
}

/* The values of one bin pass through a min-heap of the k largest: its root is then the k-th
 * largest, the value of rank m - k + 1 of the m. */
static void keep_largest(double *heap, size_t *n, size_t k, double v)
{
    size_t i = 0;
    if (*n < k) { /* sift up */
        i = (*n)++;
        while (i > 0 && heap[(i - 1) / 2] > v) {
            heap[i] = heap[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        heap[i] = v;
        return;
    }
    if (!(v > heap[0]))
        return;
    for (;;) { /* replace the root, sift down */
        size_t l = 2 * i + 1, m = l;
        if (l >= *n)
            break;
        if (l + 1 < *n && heap[l + 1] < heap[l])
            m = l + 1;
        if (!(heap[m] < v))
            break;
        heap[i] = heap[m];
        i = m;
    }
    heap[i] = v;
}

/* Count the observations of each bin (pass 1). */
static int count_bins(const llmm_cli_timeline *tl, double bin, uint64_t *count, size_t nbins,
                      llmm_cli_error *err)
{
    llmm_cli_tl_iter it;
    llmm_cli_obs o;
    size_t b = 0;
    int got = 0, rc = llmm_cli_timeline_begin(tl, &it, err);
    while (rc == LLMM_CLI_OK && (got = llmm_cli_timeline_next(&it, &o, err)) > 0)
        count[bin_of(o.t, bin, &b, nbins)]++;
    llmm_cli_timeline_end(&it);
    return rc == LLMM_CLI_OK && got < 0 ? LLMM_CLI_EIO : rc;
}

int llmm_cli_timeline_binned(const llmm_cli_timeline *tl, double bin, double q, double *out,
                             size_t nbins, llmm_cli_error *err)
{
    uint64_t *count = calloc(nbins, sizeof *count), kmax = 1;
    double *heap = NULL;
    llmm_cli_tl_iter it;
    llmm_cli_obs o;
    size_t b = 0, n = 0;
    int got = 0, rc = count ? count_bins(tl, bin, count, nbins, err)
                            : llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t k = 0; rc == LLMM_CLI_OK && k < nbins; k++) {
        count[k] = count[k] ? count[k] - llmm_cli_rank(count[k], q) + 1 : 0; /* k to keep */
        if (count[k] > kmax)
            kmax = count[k];
    }
    if (rc == LLMM_CLI_OK && !(heap = malloc((size_t)kmax * sizeof *heap)))
        rc = llmm_cli_fail(err, LLMM_CLI_ENOMEM, "out of memory");
    for (size_t k = 0; k < nbins; k++)
        out[k] = NAN; /* a gap where a bin is empty */
    if (rc == LLMM_CLI_OK)
        rc = llmm_cli_timeline_begin(tl, &it, err);
    if (rc == LLMM_CLI_OK) {
        while ((got = llmm_cli_timeline_next(&it, &o, err)) > 0) {
            size_t was = b;
            if (bin_of(o.t, bin, &b, nbins) != was && n) {
                out[was] = heap[0];
                n = 0;
            }
            keep_largest(heap, &n, (size_t)count[b], o.v);
        }
        if (n)
            out[b] = heap[0];
        llmm_cli_timeline_end(&it);
        if (got < 0)
            rc = LLMM_CLI_EIO;
    }
    free(heap);
    free(count);
    return rc;
}

uint64_t llmm_cli_ns(double seconds)
{
    if (!(seconds > 0))
        return 0;
    if (seconds >= 1.8e10)
        return UINT64_MAX / 2;
    return (uint64_t)llround(seconds * 1e9);
}
