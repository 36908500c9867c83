/* 1.0 families: status codes, version, allocator and context, clock; sketch, recorder, codec. */
#include <stdlib.h>

#include "v1_0.h"

typedef struct counting {
    size_t allocs, frees;
} counting;

static void *c_alloc(void *user, size_t size)
{
    ((counting *)user)->allocs++;
    return malloc(size);
}

static void *c_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    (void)user;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void c_free(void *user, void *ptr, size_t size)
{
    (void)size;
    ((counting *)user)->frees++;
    free(ptr);
}

static void core(llmm_ctx **ctx, counting *cnt)
{
    uint64_t t0, t1;
    GUARDED(llmm_allocator, a);
    CHECK(strcmp(llmm_status_name(LLMM_E_ABI), "LLMM_E_ABI") == 0);
    CHECK(strcmp(llmm_strerror(LLMM_E_INVALID), "invalid argument") == 0);
    CHECK(strcmp(llmm_status_name((llmm_status)-12345), "LLMM_E_UNKNOWN_STATUS") == 0);
    CHECK(a->alloc && a->realloc && a->free && a->user == NULL);
    a->user = cnt;
    a->alloc = c_alloc;
    a->realloc = c_realloc;
    a->free = c_free;
    CHECK_OK(llmm_ctx_new(a, ctx));
    CHECK(*ctx != NULL && cnt->allocs == 1);
    a->struct_size = (uint32_t)sizeof *a + 1; /* no release has an odd size */
    CHECK(llmm_ctx_new(a, &(llmm_ctx *){NULL}) == LLMM_E_ABI);
    INTACT(a);
    t0 = llmm_now_ns();
    t1 = llmm_now_ns();
    CHECK(t1 >= t0);
}

static void sketch(llmm_ctx *ctx)
{
    static const double qs[] = {0.0, 0.5, 1.0};
    double v[100], lo, hi, x, out[3], lower, upper;
    uint64_t zero, under, over;
    int32_t first, last, index;
    llmm_sketch *s = NULL, *c = NULL, *d = NULL;
    int i;
    for (i = 0; i < 100; i++)
        v[i] = (double)(i + 1);
    CHECK_OK(llmm_sketch_new(ctx, 6, &s));
    CHECK_OK(llmm_sketch_set_range(s, 1e-6, 1e9));
    CHECK_OK(llmm_sketch_range(s, &lo, &hi));
    CHECK(lo == 1e-6 && hi == 1e9);
    CHECK_OK(llmm_sketch_add_many(s, v, 99));
    CHECK_OK(llmm_sketch_add(s, 100.0));
    CHECK_OK(llmm_sketch_add_n(s, 0.0, 2));
    CHECK(llmm_sketch_count(s) == 102);
    CHECK_OK(llmm_sketch_sum(s, &x));
    CHECK(x == 5050.0);
    CHECK_OK(llmm_sketch_min(s, &x));
    CHECK(x == 0.0);
    CHECK_OK(llmm_sketch_max(s, &x));
    CHECK(x == 100.0);
    CHECK_OK(llmm_sketch_mean(s, &x));
    CHECK_NEAR(x, 5050.0 / 102.0, 1e-12);
    CHECK_OK(llmm_sketch_special_counts(s, &zero, &under, &over));
    CHECK(zero == 2 && under == 0 && over == 0);
    CHECK_OK(llmm_sketch_quantiles(s, qs, 3, out));
    CHECK(out[0] == 0.0 && out[2] == 100.0);
    CHECK_OK(llmm_sketch_quantile(s, 0.5, &x));
    CHECK_NEAR(x, 49.0, 0.011); /* nearest rank 51 of {0, 0, 1 … 100} is 49 (bucket error) */
    CHECK_OK(llmm_sketch_rank(s, 100.0, &x));
    CHECK(x == 1.0);
    CHECK(llmm_sketch_scale(s) == 6);
    CHECK_OK(llmm_sketch_index(6, 50.0, &index));
    CHECK_OK(llmm_sketch_bucket_bounds(6, index, &lower, &upper));
    CHECK(lower < 50.0 && 50.0 <= upper);
    CHECK_OK(llmm_sketch_bucket_span(s, &first, &last));
    CHECK(first <= index && index <= last && llmm_sketch_bucket_count(s, index) >= 1);
    CHECK_OK(llmm_sketch_clone(s, &c));
    CHECK_OK(llmm_sketch_merge(c, s));
    CHECK(llmm_sketch_count(c) == 204);
    CHECK_OK(llmm_sketch_subtract(c, s));
    CHECK(llmm_sketch_count(c) == 102);
    CHECK_OK(llmm_sketch_downscale(c, 3));
    CHECK(llmm_sketch_scale(c) == 3 && llmm_sketch_count(c) == 102);
    CHECK_OK(llmm_sketch_new(ctx, 6, &d));
    CHECK_OK(llmm_sketch_copy(d, s));
    CHECK(llmm_sketch_count(d) == 102);
    CHECK_OK(llmm_sketch_reset(d));
    CHECK(llmm_sketch_count(d) == 0);
    llmm_sketch_free(d);
    llmm_sketch_free(c);
    llmm_sketch_free(s);
    llmm_sketch_free(NULL);
}

static void recorder_codec(llmm_ctx *ctx)
{
    const double v[3] = {1.0, 2.0, 3.0};
    uint8_t buf[4096];
    size_t len = 0;
    llmm_recorder *r = NULL;
    llmm_shard *sh = NULL;
    llmm_sketch *snap = NULL, *back = NULL;
    CHECK_OK(llmm_recorder_new(ctx, 6, &r));
    CHECK_OK(llmm_recorder_set_range(r, 1e-3, 1e6));
    CHECK_OK(llmm_recorder_shard(r, &sh));
    CHECK_OK(llmm_shard_add(sh, 4.0));
    CHECK_OK(llmm_shard_add_many(sh, v, 3));
    llmm_shard_release(sh);
    CHECK_OK(llmm_sketch_new(ctx, 6, &snap));
    CHECK_OK(llmm_recorder_snapshot(r, snap));
    CHECK(llmm_sketch_count(snap) == 4);
    CHECK_OK(llmm_sketch_serialize(snap, buf, sizeof buf, &len));
    CHECK(len > 0 && len <= sizeof buf);
    CHECK_OK(llmm_sketch_deserialize(ctx, buf, len, &back));
    CHECK(back && llmm_sketch_count(back) == 4);
    llmm_sketch_free(back);
    llmm_sketch_free(snap);
    llmm_recorder_free(r);
}

void v1_core_sketch(void)
{
    counting cnt = {0, 0};
    llmm_ctx *ctx = NULL;
    core(&ctx, &cnt);
    sketch(ctx);
    recorder_codec(ctx);
    llmm_ctx_free(ctx);
    CHECK(cnt.allocs > 1 && cnt.allocs == cnt.frees);
}
