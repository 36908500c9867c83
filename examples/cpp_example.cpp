// cpp_example: libllmmetrics from C++ — RAII handles, worker threads recording through
// recorder shards, a snapshot while they run, quantiles at the end.
//
// Build against an installed copy:
//     g++ -std=c++17 cpp_example.cpp $(pkg-config --cflags --libs llmmetrics) -pthread
#include <llmmetrics/llmmetrics.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

void check(llmm_status st, const char *what)
{
    if (st != LLMM_OK)
        throw std::runtime_error(std::string(what) + ": " + llmm_strerror(st));
}

struct SketchFree {
    void operator()(llmm_sketch *s) const { llmm_sketch_free(s); }
};
struct RecorderFree {
    void operator()(llmm_recorder *r) const { llmm_recorder_free(r); }
};
using Sketch = std::unique_ptr<llmm_sketch, SketchFree>;
using Recorder = std::unique_ptr<llmm_recorder, RecorderFree>;

Sketch make_sketch()
{
    llmm_sketch *s = nullptr;
    check(llmm_sketch_new(nullptr, LLMM_SCALE_DEFAULT, &s), "llmm_sketch_new");
    return Sketch(s);
}

// A shard is owned by the recorder: give it back when the worker is done.
struct ShardLease {
    llmm_shard *shard = nullptr;
    explicit ShardLease(llmm_recorder *r) { check(llmm_recorder_shard(r, &shard), "shard"); }
    ~ShardLease() { llmm_shard_release(shard); }
    ShardLease(const ShardLease &) = delete;
    ShardLease &operator=(const ShardLease &) = delete;
};

} // namespace

int main()
{
    try {
        llmm_recorder *raw = nullptr;
        check(llmm_recorder_new(nullptr, LLMM_SCALE_DEFAULT, &raw), "llmm_recorder_new");
        Recorder rec(raw);

        const unsigned workers = 4, per_worker = 50000;
        std::vector<std::thread> pool;
        for (unsigned w = 0; w < workers; ++w) {
            pool.emplace_back([&rec, w] {
                ShardLease lease(rec.get());
                std::uint64_t x = 0x9E3779B97F4A7C15ull * (w + 1);
                for (unsigned i = 0; i < per_worker; ++i) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    double u = (double(x >> 11) + 0.5) / 9007199254740992.0;
                    // end-to-end latency: 0.5 s plus an exponential tail
                    check(llmm_shard_add(lease.shard, 0.5 - 0.8 * std::log(u)), "llmm_shard_add");
                }
            });
        }
        Sketch live = make_sketch();
        check(llmm_recorder_snapshot(rec.get(), live.get()), "snapshot"); // while they run
        for (auto &t : pool)
            t.join();

        Sketch total = make_sketch();
        check(llmm_recorder_snapshot(rec.get(), total.get()), "snapshot");
        const double q[] = {0.5, 0.99, 0.999};
        double v[3];
        check(llmm_sketch_quantiles(total.get(), q, 3, v), "quantiles");
        std::printf("mid-run snapshot: %llu values; final: %llu values\n",
                    (unsigned long long)llmm_sketch_count(live.get()),
                    (unsigned long long)llmm_sketch_count(total.get()));
        std::printf("P50 %.3f s  P99 %.3f s  P99.9 %.3f s\n", v[0], v[1], v[2]);
        return llmm_sketch_count(total.get()) == workers * per_worker ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "cpp_example: %s\n", e.what());
        return 1;
    }
}
